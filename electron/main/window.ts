/** The main window: sandboxed, context-isolated, no Node in the renderer. */
import { join } from 'node:path'
import { BrowserWindow, nativeTheme } from 'electron'
import { devServerUrl, rendererIndexFile } from './security'

export function createMainWindow(): BrowserWindow {
  const window = new BrowserWindow({
    width: 1280,
    height: 820,
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
  window.once('ready-to-show', () => window.show())
  if (devServerUrl) void window.loadURL(devServerUrl)
  else void window.loadFile(rendererIndexFile)
  return window
}
