/**
 * Is a URL the app's own page? The renderer is loaded from one known file (or, in development, one
 * known dev-server origin); anything else (another file, a host on file://, a path that merely starts
 * the same) is not the app. Pure, so it can be tested without Electron.
 */
export function isAppUrl(url: string, app: { indexHref: string; devOrigin?: string | null; caseInsensitivePaths?: boolean }): boolean {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return false
  }
  if (app.devOrigin) return parsed.origin === app.devOrigin
  const expected = new URL(app.indexHref)
  if (parsed.protocol !== 'file:' || parsed.host !== '' || expected.protocol !== 'file:') return false
  const same = (a: string, b: string) => (app.caseInsensitivePaths ? a.toLowerCase() === b.toLowerCase() : a === b)
  // Compare decoded paths, so %2F tricks and percent-encoding variants cannot pass or fail by accident.
  let path: string
  try {
    path = decodeURIComponent(parsed.pathname)
  } catch {
    return false
  }
  return same(path, decodeURIComponent(expected.pathname))
}
