import { resolve } from 'node:path'
import vue from '@vitejs/plugin-vue'
import { defineConfig } from 'electron-vite'
import { BUNDLED_PACKAGES } from './electron/worker/bundledPackages'

// The renderer resolves only the shared layer: electron/core (Node) is not reachable from src/.
const shared = resolve(__dirname, 'electron/shared')

export default defineConfig({
  main: {
    build: {
      // The packages the core's worker loads as it starts are bundled with the code and minified, so a start
      // reads a few files instead of each package's hundreds; the others load from node_modules at run time
      // (electron/worker/bundledPackages.ts).
      externalizeDeps: { exclude: [...BUNDLED_PACKAGES] },
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
