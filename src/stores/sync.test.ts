import type { SyncStatus } from '@shared/contract'
import { idleSyncStatus } from './syncStatus.fixture'
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

const bridge = vi.hoisted(() => ({
  call: vi.fn(),
  listeners: new Map<string, (payload: unknown) => void>()
}))

vi.mock('../bridge/sellerDesk', () => ({
  call: bridge.call,
  onEvent: (event: string, listener: (payload: unknown) => void) => {
    bridge.listeners.set(event, listener)
    return () => bridge.listeners.delete(event)
  },
  messageOf: (error: unknown) => (error instanceof Error ? error.message : 'Something went wrong. Try again.')
}))

const { useSyncStore } = await import('./sync')
const { useOrdersStore } = await import('./orders')
const { useSellRequestsStore } = await import('./sellRequests')
const { useFilterStatusesStore } = await import('./filterStatuses')

const idle: SyncStatus = idleSyncStatus
const running: SyncStatus = { ...idle, running: true, kind: 'incremental', resource: 'orders', pagesDone: 1, pagesTotal: 2 }
const push = (status: SyncStatus) => bridge.listeners.get('sync.status')?.(status)

function setup() {
  setActivePinia(createPinia())
  const sync = useSyncStore()
  const orders = useOrdersStore()
  const sellRequests = useSellRequestsStore()
  const filterStatuses = useFilterStatusesStore()
  const reloads = {
    orders: vi.spyOn(orders, 'reloadIfShown').mockResolvedValue(),
    sellRequests: vi.spyOn(sellRequests, 'reloadIfShown').mockResolvedValue(),
    statuses: vi.spyOn(filterStatuses, 'load').mockResolvedValue()
  }
  return { sync, reloads }
}

describe('sync store', () => {
  beforeEach(() => {
    bridge.call.mockReset()
    bridge.listeners.clear()
    vi.stubGlobal('window', new EventTarget())
  })
  afterEach(() => {
    vi.unstubAllGlobals()
    vi.useRealTimers()
  })

  it('follows pushed statuses and reloads the lists on screen when a sync ends', async () => {
    bridge.call.mockResolvedValue(running)
    const { sync, reloads } = setup()
    const stop = sync.follow()
    await vi.waitFor(() => expect(sync.status).toEqual(running))
    push({ ...running, pagesDone: 2 })
    expect(reloads.orders).not.toHaveBeenCalled()
    push(idle)
    expect(reloads.orders).toHaveBeenCalledTimes(1)
    expect(reloads.sellRequests).toHaveBeenCalledTimes(1)
    expect(reloads.statuses).toHaveBeenCalledTimes(1)
    expect(sync.running).toBe(false)
    stop()
    expect(sync.status).toBeNull()
  })

  it('does not let a call answer overwrite a newer pushed status', async () => {
    let answer: (status: SyncStatus) => void = () => undefined
    bridge.call.mockImplementation(() => new Promise((resolve) => (answer = resolve)))
    const { sync } = setup()
    sync.follow()
    push(running)
    answer(idle)
    await Promise.resolve()
    await Promise.resolve()
    expect(sync.status).toEqual(running)
  })

  it('says why changes are unavailable while offline', async () => {
    bridge.call.mockResolvedValue({ ...idle, online: false, offlineSince: '2026-11-20T12:05:00.000Z' })
    const { sync } = setup()
    expect(sync.online).toBe(true)
    expect(sync.offlineReason).toBeNull()
    sync.follow()
    await vi.waitFor(() => expect(sync.online).toBe(false))
    expect(sync.offlineReason).toMatch(/offline: changes need a connection/)
  })

  it('tells the main side about window focus at most every 10 seconds', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(new Date('2026-11-20T12:00:00.000Z'))
    bridge.call.mockResolvedValue(idle)
    const { sync } = setup()
    sync.follow()
    const focused = () => bridge.call.mock.calls.filter(([name]) => name === 'sync.windowFocused').length
    window.dispatchEvent(new Event('focus'))
    window.dispatchEvent(new Event('focus'))
    vi.setSystemTime(new Date('2026-11-20T12:00:09.000Z'))
    window.dispatchEvent(new Event('focus'))
    expect(focused()).toBe(1)
    vi.setSystemTime(new Date('2026-11-20T12:00:10.500Z'))
    window.dispatchEvent(new Event('focus'))
    expect(focused()).toBe(2)
  })
  it('a sync of the sell requests clears what it read back, even while the orders keep failing (their older time is the status line’s)', async () => {
    bridge.call.mockResolvedValue({ ...running, resource: 'sellRequests' })
    const { sync } = setup()
    const syncedAt = vi.spyOn(useSellRequestsStore(), 'syncedAt')
    const stop = sync.follow()
    await vi.waitFor(() => expect(sync.status?.resource).toBe('sellRequests'))
    const ordersFailedAt = '2026-11-20T12:00:00.000Z'
    const listingsReadAt = '2026-11-20T12:30:00.000Z'
    push({ ...idle, lastSyncedAt: ordersFailedAt, listSyncedAt: { orders: ordersFailedAt, sellRequests: listingsReadAt } })
    expect(syncedAt).toHaveBeenCalledWith(Date.parse(listingsReadAt))
    stop()
  })
})
