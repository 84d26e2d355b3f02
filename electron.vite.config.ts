import { resolve } from 'node:path'
import vue from '@vitejs/plugin-vue'
import { defineConfig } from 'electron-vite'

const core = resolve(__dirname, 'electron/core')

export default defineConfig({
  main: {
    build: {
      // keytar (Node-API) and libsql stay external: loaded from node_modules at run time.
      externalizeDeps: true,
      rollupOptions: { input: { index: resolve(__dirname, 'electron/main/index.ts') } }
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
    resolve: { alias: { '@core': core } },
    plugins: [vue()],
    build: {
      // electron-vite leaves bundles unminified by default; a smaller renderer starts faster.
      minify: true,
      rollupOptions: { input: { index: resolve(__dirname, 'src/index.html') } }
    }
  }
})
