/**
 * The contract between the renderer and the main side: every call the renderer may make (name, zod
 * input schema, result type) and every event main may push. Main (ipc), preload, the renderer's client
 * and the browser-preview bridge are all derived from this one module. Each feature declares its calls
 * and types in its own file under contract/; this module assembles them. Adding a capability means one
 * entry in its feature's file, one handler in core/router.ts, and UI.
 *
 * This module is imported by the renderer: it may depend on zod and on its own folder, nothing else.
 */
import type { z } from 'zod'
import { appCalls } from './contract/app'
import { bulkEditCalls } from './contract/bulkEdit'
import type { Outcome } from './contract/common'
import { dashboardCalls } from './contract/dashboard'
import type { EventName, Events } from './contract/events'
import { orderCalls } from './contract/orders'
import { sellRequestCalls } from './contract/sellRequests'
import { sessionCalls } from './contract/session'
import { syncCalls } from './contract/sync'
import { workspaceCalls } from './contract/workspace'

export * from './contract/app'
export * from './contract/bulkEdit'
export { timeZoneInput, type CallSpec, type ListResult, type Outcome } from './contract/common'
export * from './contract/dashboard'
export * from './contract/events'
export * from './contract/orders'
export * from './contract/sellRequests'
export * from './contract/session'
export * from './contract/sync'
export * from './contract/workspace'

export const calls = {
  ...appCalls,
  ...sessionCalls,
  ...orderCalls,
  ...sellRequestCalls,
  ...syncCalls,
  ...dashboardCalls,
  ...workspaceCalls,
  ...bulkEditCalls
} as const

export type CallName = keyof typeof calls
export const callNames = Object.keys(calls) as CallName[]
/** What the renderer passes (defaults may be omitted). */
export type CallInput<N extends CallName> = z.input<(typeof calls)[N]['input']>
/** What the handler receives after validation. */
export type CallParsed<N extends CallName> = z.output<(typeof calls)[N]['input']>
export type CallResult<N extends CallName> = NonNullable<(typeof calls)[N]['result']>

/** The object preload exposes as `window.sellerDesk` and the preview bridge implements. */
export interface SellerDeskBridge {
  invoke<N extends CallName>(name: N, input: CallInput<N>): Promise<Outcome<CallResult<N>>>
  on<E extends EventName>(event: E, listener: (payload: Events[E]) => void): () => void
}

/** IPC channel names, derived, so main and preload cannot disagree. */
export const channelOf = (name: CallName) => `seller-desk:call:${name}`
export const eventChannelOf = (name: EventName) => `seller-desk:event:${name}`
/** The preload says on it that the page listens to notices now: those said before it loaded come then. */
export const NOTICES_HEARD_CHANNEL = 'seller-desk:notices-heard'
