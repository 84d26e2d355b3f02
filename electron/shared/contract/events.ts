/** Every event main may push to the renderer, and its payload. */
import type { AppSettings } from './app'
import type { BatchStatus } from './bulkEdit'
import type { SessionInfo } from './session'
import type { SyncStatus } from './sync'
import type { WorkspaceView } from './workspace'

export interface Events {
  'session.changed': SessionInfo
  /**
   * Something the seller should see as a toast or banner. `untilClosed`: shown until the seller closes it
   * rather than for a few seconds they may miss: what the app found as it started (said whether or not a
   * page listened yet), and any notice said while no page listened. `batchId`: the batch the notice is
   * about (one left with changes not sent yet), so the notice can go once that batch no longer waits.
   */
  notice: { level: 'info' | 'warning' | 'error'; message: string; untilClosed?: true; batchId?: string }
  'sync.status': SyncStatus
  /** A sync brought orders not seen before. */
  'orders.new': { count: number; totalCents: number }
  /** Main asks the renderer to show a view; `newOrders`: the orders a notification announced (every order, newest first). */
  navigate: { view: WorkspaceView; newOrders?: true }
  'settings.changed': AppSettings
  /** Progress of the bulk-edit batch being applied (throttled), and its final state. */
  'bulk.progress': BatchStatus
  /** The core's worker stopped and a new one took over: what the renderer holds may be out of date. */
  'core.restarted': { message: string }
}
export type EventName = keyof Events
export const eventNames: EventName[] = [
  'session.changed',
  'notice',
  'sync.status',
  'orders.new',
  'navigate',
  'settings.changed',
  'bulk.progress',
  'core.restarted'
]
