/**
 * Electron glue: lifecycle, one instance, the window, the contract on IPC. Everything Seller Desk does
 * lives in electron/core; this file only wires it to Electron.
 */
import { app, BrowserWindow, session } from 'electron'
import { createSellerDesk, type SellerDesk } from '../core/sellerDesk'
import { bindContract, broadcast } from './ipc'
import { chooseElectronSecretStore } from './secretStorage'
import { lockDownSession } from './security'
import { createMainWindow } from './window'

// Tests and portable setups may point user data elsewhere.
const userDataOverride = process.env['SELLER_DESK_USER_DATA']
if (userDataOverride) app.setPath('userData', userDataOverride)

if (!app.requestSingleInstanceLock()) {
  app.quit()
} else {
  let desk: SellerDesk | null = null

  app.on('second-instance', () => {
    const [window] = BrowserWindow.getAllWindows()
    if (window) {
      if (window.isMinimized()) window.restore()
      window.focus()
    }
  })

  void app.whenReady().then(async () => {
    lockDownSession(session.defaultSession)
    desk = createSellerDesk({
      userDataDir: app.getPath('userData'),
      secrets: await chooseElectronSecretStore(),
      app: { name: app.getName(), version: app.getVersion(), platform: process.platform, runtime: 'electron' },
      emit: broadcast,
      onUnexpectedError: (where, error) => console.error(`[seller-desk] unexpected error in ${where}:`, error instanceof Error ? error.name : 'unknown')
    })
    bindContract(desk.router)
    await desk.session.restore().catch(() => undefined)
    createMainWindow()
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) createMainWindow()
    })
  })

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit()
  })

  app.on('will-quit', () => {
    void desk?.dispose()
  })
}
