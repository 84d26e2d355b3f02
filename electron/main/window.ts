/** The main window: sandboxed, context-isolated, no Node in the renderer. */
import { join } from 'node:path'
import { app, BrowserWindow, dialog, nativeTheme } from 'electron'
import { devServerUrl, rendererIndexFile } from './security'
import { rememberWindowState, savedWindowState } from './windowState'

let quitting = false
app.on('before-quit', () => (quitting = true))

export function createMainWindow(): BrowserWindow {
  const saved = savedWindowState()
  const window = new BrowserWindow({
    width: saved?.bounds.width ?? 1280,
    height: saved?.bounds.height ?? 820,
    ...(saved ? { x: saved.bounds.x, y: saved.bounds.y } : {}),
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'Seller Desk',
    backgroundColor: nativeTheme.shouldUseDarkColors ? '#18181c' : '#ffffff',
    autoHideMenuBar: true,
    webPreferences: {
      preload: join(__dirname, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false
    }
  })
  window.once('ready-to-show', () => {
    if (saved?.maximized) window.maximize()
    window.show()
  })
  rememberWindowState(window)
  // The page asks to stay when closing would drop changes staged in Bulk edit: ask the seller. On macOS
  // closing the window keeps the app (and the staged changes) running, so only quitting asks.
  window.webContents.on('will-prevent-unload', (event) => {
    if (process.platform === 'darwin' && !quitting) return event.preventDefault()
    const choice = dialog.showMessageBoxSync(window, {
      type: 'warning',
      buttons: ['Quit anyway', 'Keep working'],
      defaultId: 1,
      cancelId: 1,
      message: 'Quit Seller Desk?',
      detail: 'Changes staged in Bulk edit and not applied yet will be discarded. Apply them first to keep them.'
    })
    if (choice === 0) event.preventDefault() // preventDefault here means: close anyway
    else quitting = false // the quit is off
  })
  if (devServerUrl) void window.loadURL(devServerUrl)
  else void window.loadFile(rendererIndexFile)
  return window
}
