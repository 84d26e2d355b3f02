/** The main window: sandboxed, context-isolated, no Node in the renderer. */
import { join } from 'node:path'
import { BrowserWindow, nativeTheme } from 'electron'
import { devServerUrl, rendererIndexFile } from './security'
import { rememberWindowState, savedWindowState } from './windowState'

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
  if (devServerUrl) void window.loadURL(devServerUrl)
  else void window.loadFile(rendererIndexFile)
  return window
}
