import { resolve } from 'node:path'
import vue from '@vitejs/plugin-vue'
import { defineConfig } from 'electron-vite'
import packageJson from './package.json'
import { NATIVE_PACKAGES } from './electron/worker/nativePackages'

// The renderer resolves only the shared layer: electron/core (Node) is not reachable from src/.
const shared = resolve(__dirname, 'electron/shared')

export default defineConfig({
  main: {
    build: {
      // Only the native packages (keytar, libsql) stay external, loaded from node_modules at run time; the
      // plain-JavaScript ones are bundled and minified with the code, so a start reads a few files instead
      // of each package's hundreds (electron/worker/nativePackages.ts).
      externalizeDeps: { exclude: Object.keys(packageJson.dependencies).filter((name) => !NATIVE_PACKAGES.includes(name)) },
      minify: true,
      // The core's worker is its own entry (out/main/coreWorker.js), loaded by electron/worker/coreHost.ts.
      rollupOptions: { input: { index: resolve(__dirname, 'electron/main/index.ts'), coreWorker: resolve(__dirname, 'electron/worker/coreWorker.ts') } }
    }
  },
  preload: {
    build: {
      // A sandboxed preload must be one CommonJS file with nothing to require but 'electron'.
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve(__dirname, 'electron/preload/index.ts') },
        external: ['electron'],
        output: { format: 'cjs', entryFileNames: '[name].cjs' }
      }
    }
  },
  renderer: {
    root: resolve(__dirname, 'src'),
    resolve: { alias: { '@shared': shared } },
    plugins: [vue()],
    build: {
      // electron-vite leaves bundles unminified by default; a smaller renderer starts faster.
      minify: true,
      rollupOptions: { input: { index: resolve(__dirname, 'src/index.html') } }
    }
  }
})
