/**
 * The preload: exposes one object, `window.sellerDesk`, built from the contract. Only the contract's
 * call and event names can be used; `ipcRenderer` itself is never exposed.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron'
import { decodeAnswer } from '../shared/callBody'
import { callNames, channelOf, eventChannelOf, eventNames, NOTICES_HEARD_CHANNEL, type SellerDeskBridge } from '../shared/contract'

const callSet = new Set<string>(callNames)
const eventSet = new Set<string>(eventNames)

const bridge: SellerDeskBridge = {
  invoke(name, input) {
    if (!callSet.has(name)) return Promise.resolve({ ok: false, error: { kind: 'invalid-input', message: 'Unknown call.' } })
    // The core answers JSON text as bytes (its refusals of a sender come as values): read here.
    return ipcRenderer.invoke(channelOf(name), input).then(decodeAnswer) as ReturnType<SellerDeskBridge['invoke']>
  },
  on(event, listener) {
    if (!eventSet.has(event)) return () => undefined
    const channel = eventChannelOf(event)
    const wrapped = (_event: IpcRendererEvent, payload: unknown) => listener(payload as never)
    ipcRenderer.on(channel, wrapped)
    if (event === 'notice') ipcRenderer.send(NOTICES_HEARD_CHANNEL)
    return () => {
      ipcRenderer.removeListener(channel, wrapped)
    }
  }
}

contextBridge.exposeInMainWorld('sellerDesk', bridge)
