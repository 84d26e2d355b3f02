/**
 * Which lists a change in sync status has made stale: both when a sync run ends (finished, failed or
 * cancelled: whatever it stored is now in the snapshot), whether or not the look through older orders
 * goes on after it or beside it, and again when that look ends; or the resource a running sync just moved on
 * from (its part is committed). A status seen for the first time while idle also counts, so a list read
 * while an earlier sync was still committing is read again.
 */
import type { SyncStatus } from '@shared/contract'
import { runUnderWay } from '@shared/syncRun'

export type SyncedList = 'orders' | 'sellRequests'

const BOTH: SyncedList[] = ['orders', 'sellRequests']

export function staleListsAfter(previous: SyncStatus | null, next: SyncStatus): SyncedList[] {
  if (!previous) return next.running ? [] : BOTH
  if (!previous.running) return []
  // A run's end, also when the look through older orders goes on after it (or beside it).
  if (!next.running || (runUnderWay(previous) && !runUnderWay(next))) return BOTH
  if (previous.resource && next.resource && previous.resource !== next.resource) return [previous.resource]
  return []
}
