/**
 * A sync status read for what the seller waits for. Apart from the contract (which carries zod) so the
 * window's first scripts can use it.
 */
import type { SyncStatus } from './contract/sync'

/**
 * Whether a sync run is under way: one that Sync now joins and that lists wait for. The look through
 * older orders alone is not one: a sync started meanwhile runs at once, beside it.
 */
export const runUnderWay = (status: SyncStatus): boolean => status.running && status.kind !== 'olderOrders'
