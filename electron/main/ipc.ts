/**
 * Binds the contract to ipcMain: one handler per call, each refusing senders that are not our own
 * window's top frame, then handing the untrusted input to the router (which validates it with zod).
 */
import { BrowserWindow, ipcMain, type IpcMainInvokeEvent } from 'electron'
import { callNames, channelOf, eventChannelOf, type EventName, type Events } from '../shared/contract'
import type { Router } from '../core/router'
import { isAppUrl } from './security'

function isTrustedSender(event: IpcMainInvokeEvent): boolean {
  const frame = event.senderFrame
  if (!frame || frame.parent !== null) return false
  return isAppUrl(frame.url)
}

export function bindContract(router: Router): void {
  for (const name of callNames) {
    ipcMain.handle(channelOf(name), (event, input: unknown) => {
      if (!isTrustedSender(event)) {
        return { ok: false, error: { kind: 'invalid-input', message: 'This window may not talk to Seller Desk.' } }
      }
      return router.dispatch(name, input)
    })
  }
}

export function broadcast<E extends EventName>(event: E, payload: Events[E]): void {
  for (const window of BrowserWindow.getAllWindows()) window.webContents.send(eventChannelOf(event), payload)
}
