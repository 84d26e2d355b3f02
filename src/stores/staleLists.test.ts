import type { SyncStatus } from '@shared/contract'
import { idleSyncStatus } from './syncStatus.fixture'
import { describe, expect, it } from 'vitest'
import { staleListsAfter } from './staleLists'

const idle: SyncStatus = idleSyncStatus
const running = (resource: SyncStatus['resource'], pagesDone = 1): SyncStatus => ({ ...idle, running: true, kind: 'full', resource, pagesDone, pagesTotal: 5 })

describe('staleListsAfter', () => {
  it('marks both lists stale when a sync ends', () => {
    expect(staleListsAfter(running('sellRequests'), idle)).toEqual(['orders', 'sellRequests'])
    expect(staleListsAfter(running(null), { ...idle, lastError: { kind: 'network', message: 'x' } })).toEqual(['orders', 'sellRequests'])
  })

  it('marks both lists stale when a run ends and the look through older orders goes on (after it or beside it), not when one starts beside the look', () => {
    const looking: SyncStatus = { ...idle, running: true, kind: 'olderOrders', resource: 'orders', pagesDone: 2, pagesTotal: 9 }
    expect(staleListsAfter(running('sellRequests'), looking)).toEqual(['orders', 'sellRequests'])
    expect(staleListsAfter({ ...running(null), kind: null }, looking)).toEqual(['orders', 'sellRequests'])
    expect(staleListsAfter(looking, running(null))).toEqual([])
    expect(staleListsAfter(looking, { ...looking, pagesDone: 3 })).toEqual([])
    expect(staleListsAfter(looking, idle)).toEqual(['orders', 'sellRequests'])
  })

  it('marks the resource a running sync moved on from', () => {
    expect(staleListsAfter(running('orders', 5), running('sellRequests'))).toEqual(['orders'])
  })

  it('leaves lists alone while a resource is still syncing or nothing runs', () => {
    expect(staleListsAfter(running('orders', 1), running('orders', 2))).toEqual([])
    expect(staleListsAfter(running(null), running('orders'))).toEqual([])
    expect(staleListsAfter(idle, { ...idle, online: false })).toEqual([])
    expect(staleListsAfter(idle, running(null))).toEqual([])
  })

  it('reads both again on the first status when idle, not while a sync runs', () => {
    expect(staleListsAfter(null, idle)).toEqual(['orders', 'sellRequests'])
    expect(staleListsAfter(null, running('orders'))).toEqual([])
  })
})
