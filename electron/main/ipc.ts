/**
 * Binds the contract to ipcMain: one handler per call, each refusing senders that are not our own
 * window's top frame, then handing the untrusted input to the core (whose router validates it with
 * zod). The answer goes back as the core's worker made it, JSON text as bytes, which the preload reads
 * (shared/callBody.ts): this thread, which also runs the window, never serializes a large answer.
 */
import { BrowserWindow, ipcMain, type IpcMainEvent, type IpcMainInvokeEvent, type WebContents } from 'electron'
import { callNames, channelOf, eventChannelOf, NOTICES_HEARD_CHANNEL, type EventName, type Events } from '../shared/contract'
import type { CoreHost } from '../worker/coreHost'
import type { HeldNotices } from '../worker/heldNotices'
import { isAppUrl } from './security'

function isTrustedSender(event: IpcMainEvent | IpcMainInvokeEvent): boolean {
  const frame = event.senderFrame
  if (!frame || frame.parent !== null) return false
  return isAppUrl(frame.url)
}

export function bindContract(core: Pick<CoreHost, 'answer'>): void {
  for (const name of callNames) {
    ipcMain.handle(channelOf(name), (event, input: unknown) => {
      if (!isTrustedSender(event)) {
        return { ok: false, error: { kind: 'invalid-input', message: 'This window may not talk to Seller Desk.' } }
      }
      return core.answer(name, input)
    })
  }
}

export function broadcast<E extends EventName>(event: E, payload: Events[E]): void {
  for (const window of BrowserWindow.getAllWindows()) window.webContents.send(eventChannelOf(event), payload)
}

/**
 * Notices wait while no window's page listens to them (held, worker/heldNotices.ts): a page says it
 * does once its notice listener is on; it stops when it navigates (a reload) or is gone.
 */
export function bindNoticeListeners(notices: HeldNotices): void {
  const listening = new Set<WebContents>()
  /** Windows whose navigations and end are followed (once each, however often their page reloads). */
  const followed = new WeakSet<WebContents>()
  const gone = (contents: WebContents) => {
    if (listening.delete(contents) && listening.size === 0) notices.unheard()
  }
  ipcMain.on(NOTICES_HEARD_CHANNEL, (event) => {
    if (!isTrustedSender(event)) return
    const contents = event.sender
    listening.add(contents)
    if (!followed.has(contents)) {
      followed.add(contents)
      contents.on('did-start-navigation', (details) => {
        if (details.isMainFrame && !details.isSameDocument) gone(contents)
      })
      contents.once('destroyed', () => gone(contents))
    }
    notices.heard()
  })
}
