/**
 * The packages the main process's bundles leave out and load from node_modules at run time: the native
 * (Node-API) ones, which cannot be bundled. Every other dependency is plain JavaScript and is bundled in
 * (electron.vite.config.ts; coreHost.ts's bundle from source), so the core's worker starts by reading one
 * file instead of each package's hundreds of modules: zod and ky alone took a third of its start.
 */
export const NATIVE_PACKAGES: readonly string[] = ['keytar', 'libsql']
