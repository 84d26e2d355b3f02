/** A quiet, online, synced SyncStatus for renderer tests to start from. */
import type { SyncStatus } from '@shared/contract'

export const idleSyncStatus: SyncStatus = {
  running: false,
  kind: null,
  resource: null,
  pagesDone: 0,
  pagesTotal: 0,
  items: 0,
  lastSyncedAt: '2026-11-20T12:00:00.000Z',
  listSyncedAt: { orders: '2026-11-20T12:00:00.000Z', sellRequests: '2026-11-20T12:00:00.000Z' },
  lastError: null,
  online: true,
  offlineSince: null,
  incomplete: [],
  unreadable: []
}
