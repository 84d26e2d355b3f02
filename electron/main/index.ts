/**
 * Electron glue: lifecycle, one instance, the window, the contract on IPC. Everything Seller Desk does
 * lives in electron/core and runs in the core's worker thread (electron/worker), so this thread only
 * answers the window, keeps the keychain and shows notifications.
 */
import { app, BrowserWindow, session, shell } from 'electron'
import type { EventName, Events } from '../shared/contract'
import { dateLocaleOf } from '../shared/dateLocale'
import { startCoreHost, type CoreHost } from '../worker/coreHost'
import { holdNotices } from '../worker/heldNotices'
import { bindContract, bindNoticeListeners, broadcast } from './ipc'
import { showNewOrderNotification } from './newOrderNotification'
import { chooseElectronSecretStore } from './secretStorage'
import { installMenu } from './menu'
import { lockDownSession } from './security'
import { createMainWindow } from './window'

// Tests may point user data elsewhere; a packaged app ignores the variable.
const userDataOverride = app.isPackaged ? undefined : process.env['SELLER_DESK_USER_DATA']
if (userDataOverride) app.setPath('userData', userDataOverride)

if (!app.requestSingleInstanceLock()) {
  app.quit()
} else {
  let core: CoreHost | null = null

  app.on('second-instance', () => {
    const [window] = BrowserWindow.getAllWindows()
    if (window) {
      if (window.isMinimized()) window.restore()
      window.focus()
    }
  })

  void app.whenReady().then(async () => {
    lockDownSession(session.defaultSession)
    installMenu()
    // A notice said before the window's page listens (as the core opens the account) waits for it.
    const notices = holdNotices((notice) => broadcast('notice', notice))
    bindNoticeListeners(notices)
    const emit = <E extends EventName>(event: E, payload: Events[E]) => {
      if (event === 'notice') notices.say(payload as Events['notice'])
      else broadcast(event, payload)
      if (event === 'orders.new') showNewOrderNotification(payload as Events['orders.new'])
    }
    const started = startCoreHost({
      userDataDir: app.getPath('userData'),
      secrets: await chooseElectronSecretStore(),
      app: { name: app.getName(), version: app.getVersion(), platform: process.platform, runtime: 'electron', dateLocale: dateLocaleOf(app.getSystemLocale()) },
      emit,
      // The core and the host have both checked the address (https, allow-listed carrier) before this is called.
      openExternal: (url) => shell.openExternal(url),
      onUnexpectedError: (where, errorName) => console.error(`[seller-desk] unexpected error in ${where}:`, errorName)
    })
    core = started
    bindContract(started)
    // The window shows at once; `session.get` waits for the worker's restore (which may wait for the keychain).
    createMainWindow()
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) createMainWindow()
    })
  })

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit()
  })

  // Quitting waits (at most the bulk-edit grace time) for changes on their way to be answered and
  // recorded, so the next start resumes exactly what was not sent.
  let disposed = false
  app.on('will-quit', (event) => {
    if (disposed || !core) return
    disposed = true
    event.preventDefault()
    void core.dispose().finally(() => app.quit())
  })
}
