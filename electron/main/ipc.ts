/**
 * Binds the contract to ipcMain: one handler per call, each refusing senders that are not our own
 * window's top frame, then handing the untrusted input to the core (whose router validates it with
 * zod). The answer goes back as the core's worker made it, JSON text as bytes, which the preload reads
 * (shared/callBody.ts): this thread, which also runs the window, never serializes a large answer.
 */
import { BrowserWindow, ipcMain, type IpcMainInvokeEvent } from 'electron'
import { callNames, channelOf, eventChannelOf, type EventName, type Events } from '../shared/contract'
import type { CoreHost } from '../worker/coreHost'
import { isAppUrl } from './security'

function isTrustedSender(event: IpcMainInvokeEvent): boolean {
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
