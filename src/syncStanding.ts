/**
 * Where the marketplace and the last sync stand, in the words the header and Settings both use, so the
 * two never say different things. "Online" means the marketplace answers (any answer, a 500 too: edits
 * and syncs can be tried), which is not what a seller reads in it beside a failed sync; so a last sync
 * that failed while the marketplace answers is said as such in both places, with its reason, instead
 * of "Online". Offline is said as offline (its banner gives the details).
 */
import type { SyncStatus } from '@shared/contract'

export interface SyncStanding {
  state: 'online' | 'failed' | 'offline'
  /** A few words, for a tag or a header that has little room. */
  label: string
  /** The whole of it, with the reason (failed only). */
  detail: string | null
}

export function syncStanding(status: Pick<SyncStatus, 'online' | 'lastError'>): SyncStanding {
  if (!status.online) return { state: 'offline', label: 'Offline', detail: null }
  if (status.lastError) return { state: 'failed', label: 'Last sync failed', detail: `Last sync failed: ${status.lastError.message}` }
  return { state: 'online', label: 'Online', detail: null }
}
