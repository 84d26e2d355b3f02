import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

// Unit tests for the main side (core, sandbox) and pure renderer logic. They run in plain Node.
export default defineConfig({
  // The renderer's alias for the layer it shares with the main side (contract, money, user input rules).
  resolve: { alias: { '@shared': fileURLToPath(new URL('./electron/shared', import.meta.url)) } },
  test: {
    include: ['electron/**/*.test.ts', 'src/**/*.test.ts', 'scripts/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    maxWorkers: 2
  }
})
