/**
 * Window and session lockdown: no navigation away from the app, no new windows, no permissions,
 * no remote content beyond images; links open in the default browser only when https and allowed.
 */
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { app, shell, type Session, type WebContents } from 'electron'
import { isAppUrl as isAppUrlFor } from '../core/appUrl'
import { isAllowedExternalUrl } from '../shared/externalLinks'

/** The renderer's page; a dev-server URL only in development (never honoured in a packaged app). */
export const rendererIndexFile = join(__dirname, '../renderer/index.html')
export const devServerUrl = !app.isPackaged ? (process.env['ELECTRON_RENDERER_URL'] ?? null) : null

export function isAppUrl(url: string): boolean {
  return isAppUrlFor(url, {
    indexHref: pathToFileURL(rendererIndexFile).href,
    devOrigin: devServerUrl ? new URL(devServerUrl).origin : null,
    caseInsensitivePaths: process.platform === 'win32' || process.platform === 'darwin'
  })
}

export function lockDownSession(session: Session): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false))
  session.setPermissionCheckHandler(() => false)
}

export function lockDownContents(contents: WebContents): void {
  contents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault()
  })
  contents.on('will-redirect', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault()
  })
  contents.on('will-attach-webview', (event) => event.preventDefault())
  contents.setWindowOpenHandler(({ url }) => {
    if (isAllowedExternalUrl(url)) void shell.openExternal(url)
    return { action: 'deny' }
  })
}

app.on('web-contents-created', (_event, contents) => lockDownContents(contents))
