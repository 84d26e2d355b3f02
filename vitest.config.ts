import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

// Unit tests for the main side (core, sandbox) and pure renderer logic. They run in plain Node.
export default defineConfig({
  // The renderer's alias for core modules it shares (contract, money, user input rules).
  resolve: { alias: { '@core': fileURLToPath(new URL('./electron/core', import.meta.url)) } },
  test: {
    include: ['electron/**/*.test.ts', 'src/**/*.test.ts', 'scripts/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    maxWorkers: 2
  }
})
