/**
 * What crosses between the thread that answers the window (Electron's main process, or the preview
 * host's bridge) and the core's worker. Nothing here names a contract call: calls go by name to the
 * router inside the worker, events come back by name, so a new call or event in the contract needs no
 * change here. The few services only the answering thread has (the keychain, the system browser) form
 * the one hand-listed part, `HostServices`.
 */
import type { AppInfo, EventName, Events, KeyStorage } from '../shared/contract'
import type { SellerApiOptions } from '../core/sellerApi'
import type { SyncSettings } from '../core/sync/syncEngine'

/** What the worker needs to start: plain data (a structured clone), never a function. */
export interface CoreWorkerData {
  userDataDir: string
  app: AppInfo
  /** Where the answering thread keeps keys, and the notice a weak choice needs. The key itself comes per request. */
  secrets: { kind: KeyStorage; notice: string | null }
  /** Whether the answering thread can open pages in the system browser. */
  canOpenExternal: boolean
  apiOptions?: Pick<SellerApiOptions, 'timeoutMs' | 'retries' | 'backoffMs' | 'maxRetryAfterMs'>
  syncEngine?: Partial<SyncSettings>
  autoSync?: boolean
}

/** What the worker may ask of the answering thread. Each answers a promise; a rejection crosses as its message. */
export interface HostServices {
  secretGet(account: string): Promise<string | null>
  secretSet(account: string, secret: string): Promise<void>
  secretDelete(account: string): Promise<void>
  /** The core has checked the address; the answering thread checks it again before opening it. */
  openExternal(url: string): Promise<void>
  /** A bug in the core (never a seller-facing failure). Carries the error's name, never its text. */
  unexpectedError(where: string, errorName: string): Promise<void>
}

export type HostServiceName = keyof HostServices
export const hostServiceNames: readonly HostServiceName[] = ['secretGet', 'secretSet', 'secretDelete', 'openExternal', 'unexpectedError']

export type ToWorker =
  | { type: 'call'; id: number; name: string; input: unknown }
  /** A call whose input is still its body as received (shared/callBody.ts; moved, not copied): the worker reads it. */
  | { type: 'callBody'; id: number; name: string; body: Uint8Array }
  | { type: 'hostAnswer'; id: number; ok: true; value: unknown }
  | { type: 'hostAnswer'; id: number; ok: false; message: string }
  | { type: 'dispose' }

export type FromWorker =
  | { type: 'ready' }
  /** The call's Outcome as JSON text (shared/callBody.ts encodeAnswer), moved, not copied. */
  | { type: 'result'; id: number; answer: Uint8Array }
  | { [E in EventName]: { type: 'event'; event: E; payload: Events[E] } }[EventName]
  | { type: 'hostCall'; id: number; name: HostServiceName; args: unknown[] }
  | { type: 'disposed' }
