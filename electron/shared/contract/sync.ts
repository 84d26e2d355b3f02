/** Syncing the snapshot with the marketplace. */
import { z } from 'zod'
import type { ErrorData } from '../errors'
import { call, noInput } from './common'

/**
 * A list the last sync could not bring whole: the rows the snapshot holds against the marketplace's
 * total for it, after reading the list again.
 */
export interface SyncShortfall {
  resource: 'orders' | 'sellRequests'
  synced: number
  total: number
}

/**
 * Rows of a list the marketplace sends in a form Seller Desk cannot read (a price of "abc", an order
 * with no id), as the last sync that checked the list found them: they are not in the app, or show as
 * they were before they became unreadable.
 */
export interface SyncUnreadable {
  resource: 'orders' | 'sellRequests'
  count: number
  /** Of `count`, rows the app holds no copy of; the others show as last read. */
  missing: number
  /**
   * The first few, in list order: the row's id (null: it has none, and `position` says where the list
   * holds it, 0 first), what a seller knows it by where it says (its name and SKU, an order's number),
   * and what is wrong with it.
   */
  first: { id: string | null; label: string | null; position: number; problem: string }[]
}

/** Where the snapshot stands and whether the marketplace answers. */
export interface SyncStatus {
  /** A sync run, or the look through older orders that follows one, is under way (see syncRun.ts runUnderWay). */
  running: boolean
  /**
   * What the progress is of: a run's, or (`olderOrders`) the look through orders placed before the
   * synced window for items still to ship, when no run is under way beside it.
   */
  kind: 'full' | 'incremental' | 'olderOrders' | null
  resource: 'orders' | 'sellRequests' | null
  pagesDone: number
  pagesTotal: number
  items: number
  /** The older of the two resources' last completed syncs; null before the first. */
  lastSyncedAt: string | null
  /** Each list's last completed sync (full or incremental); null before its first. */
  listSyncedAt: Record<'orders' | 'sellRequests', string | null>
  lastError: ErrorData | null
  online: boolean
  offlineSince: string | null
  /** Empty when the last completeness check of each list found every row the marketplace counts. */
  incomplete: SyncShortfall[]
  /** Empty when the last sync of each list could read every row of it. */
  unreadable: SyncUnreadable[]
}

export const syncCalls = {
  'sync.status': call<SyncStatus>()(noInput),
  'sync.run': call<SyncStatus>()(z.object({ kind: z.enum(['auto', 'full']).default('auto') }).strict()),
  'sync.cancel': call<SyncStatus>()(noInput),
  'sync.windowFocused': call<SyncStatus>()(noInput)
} as const
