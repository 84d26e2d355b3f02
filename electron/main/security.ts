/**
 * Window and session lockdown: no navigation away from the app, no new windows, no permissions,
 * no remote content beyond images; links open in the default browser only when https and allowed.
 */
import { app, shell, type Session, type WebContents } from 'electron'
import { isAllowedExternalUrl } from '../core/externalLinks'

/** True when a URL is the app's own page (the built file or the dev server). */
export function isAppUrl(url: string): boolean {
  try {
    const parsed = new URL(url)
    const dev = process.env['ELECTRON_RENDERER_URL']
    if (dev && parsed.origin === new URL(dev).origin) return true
    return parsed.protocol === 'file:' && decodeURIComponent(parsed.pathname).startsWith(app.getAppPath().replace(/\\/g, '/').replace(/^(?=[A-Za-z]:)/, '/'))
  } catch {
    return false
  }
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
