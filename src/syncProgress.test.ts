import type { SyncStatus } from '@shared/contract'
import { describe, expect, it } from 'vitest'
import { describeSyncProgress } from './syncProgress'

const base: SyncStatus = {
  running: true,
  kind: 'full',
  resource: 'orders',
  pagesDone: 12,
  pagesTotal: 200,
  items: 1200,
  lastSyncedAt: null,
  listSyncedAt: { orders: null, sellRequests: null },
  lastError: null,
  online: true,
  offlineSince: null,
  incomplete: [],
  unreadable: []
}

describe('describeSyncProgress', () => {
  it('says what is synced, pages done of all, and items', () => {
    expect(describeSyncProgress(base)).toEqual({ text: 'Syncing orders… 12 / 200 pages · 1,200 items', short: 'Syncing orders…', percentage: 6 })
  })

  it('has no end to show before the first page answered', () => {
    expect(describeSyncProgress({ ...base, resource: null, kind: null, pagesDone: 0, pagesTotal: 0, items: 0 })).toEqual({
      text: 'Syncing…',
      short: 'Syncing…',
      percentage: null
    })
    expect(describeSyncProgress({ ...base, pagesDone: 0, pagesTotal: 0 }).percentage).toBeNull()
  })

  it('counts the pages of an incremental sell request walk without a total', () => {
    const walk = describeSyncProgress({ ...base, kind: 'incremental', resource: 'sellRequests', pagesDone: 3, pagesTotal: 3, items: 1 })
    expect(walk).toEqual({ text: 'Updating sell requests… 3 pages · 1 item', short: 'Updating sell requests…', percentage: null })
  })

  it('says the look through older orders for items to ship, after the lists', () => {
    const look = { ...base, kind: 'olderOrders' as const, pagesDone: 3, pagesTotal: 12, items: 2 }
    expect(describeSyncProgress(look)).toEqual({ text: 'Checking older orders… 3 / 12 pages · 2 to ship', short: 'Checking older orders…', percentage: 25 })
    expect(describeSyncProgress({ ...look, pagesDone: 0, pagesTotal: 0 })).toEqual({
      text: 'Checking older orders…',
      short: 'Checking older orders…',
      percentage: null
    })
  })

  it('singular page', () => {
    expect(describeSyncProgress({ ...base, kind: 'incremental', pagesDone: 1, pagesTotal: 1, items: 4 }).text).toBe('Updating orders… 1 / 1 page · 4 items')
  })
})
