/**
 * The packages bundled into the main process's code (electron.vite.config.ts; coreHost.ts's bundle from
 * source): the plain-JavaScript ones the core's worker loads as it starts, so it reads one file instead
 * of each package's hundreds of modules (zod and ky alone took a third of its start). Every other package
 * is loaded from node_modules at run time: the native ones (keytar, libsql), which cannot be bundled, and
 * the spreadsheet reader and writer, loaded only for an import or an export (bundled, their zip library's
 * own `require` clashed with the one the build adds to a chunk, which then failed to load).
 */
export const BUNDLED_PACKAGES: readonly string[] = ['zod', 'ky', 'papaparse']
