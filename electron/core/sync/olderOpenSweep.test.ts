/**
 * Unshipped orders placed before the synced window, not updated since: the marketplace lists them for no
 * `fromDate` of the window, and a seller counting what is left to ship needs them. After a sync they are
 * in the snapshot (list, filters, dashboard), the completeness check still compares the window's rows
 * with the window's count, an update turns one into an order kept for its update, a full sync keeps them,
 * and a look that fails keeps what the last one found and says why. Against the demo marketplace over HTTP.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it, vi } from 'vitest'
import { startSandbox, type Sandbox } from '../../sandbox'
import type { SyncStatus } from '../../shared/contract'
import { runUnderWay } from '../../shared/syncRun'
import type { OrderRecord } from '../../sandbox/marketplace'
import { computeDashboard } from '../dashboard/dashboard'
import { createSellerApi, type OrderQuery } from '../sellerApi'
import { openSnapshot, type Snapshot } from '../snapshot/snapshot'
import { createOlderOpenSweep, SWEEP_RETRY_MS } from './olderOpenSweep'
import { createSyncEngine, DEFAULT_SYNC_SETTINGS } from './syncEngine'
import { createSyncService, type SyncService } from './syncService'

const KEY = 'sk_test_older_open_0123456789'
const DAY_MS = 86_400_000
const HISTORY_DAYS = 30
const OPEN = new Set(['awaiting-shipment', 'ready-to-ship'])

let sandbox: Sandbox
let snapshot: Snapshot
let service: SyncService
let historyDays = HISTORY_DAYS
const looks: OrderQuery[] = []
const statuses: SyncStatus[] = []
/** While set, a look's pages from `gateFromPage` on wait for it. */
let lookGate: Promise<void> | null = null
let gateFromPage = 2
/** While set, sell requests' pages wait for it. */
let sellRequestsGate: Promise<void> | null = null

beforeEach(async () => {
  historyDays = HISTORY_DAYS
  sandbox = await startSandbox({ apiKey: KEY, orders: 600, sellRequests: 60, now: new Date() })
  snapshot = openSnapshot(join(mkdtempSync(join(tmpdir(), 'seller-desk-older-open-')), 'snapshot.sqlite'))
  const api = createSellerApi({ baseUrl: sandbox.baseUrl, apiKey: KEY, retries: 0, backoffMs: 5, timeoutMs: 2_000 })
  looks.length = 0
  statuses.length = 0
  lookGate = null
  gateFromPage = 2
  sellRequestsGate = null
  service = createSyncService({
    // The looks' pages noted: the only order lists asked with an end date.
    api: {
      ...api,
      listOrders: async (query, options) => {
        if (query?.toDate) {
          looks.push(query)
          if ((query.page ?? 1) >= gateFromPage) await lookGate
        }
        return api.listOrders(query, options)
      },
      listSellRequests: async (query, options) => {
        await sellRequestsGate
        return api.listSellRequests(query, options)
      }
    },
    snapshot,
    settings: () => ({ syncIntervalMinutes: 60, historyDays }),
    engine: { take: 50, retriesPerPage: 0 },
    onStatus: (status) => statuses.push(status),
    onNewOrders: () => undefined
  })
})

/** A sync and the look through older orders it starts, both ended. */
async function syncThenLook(kind?: 'auto' | 'full'): Promise<SyncStatus> {
  await service.sync(kind)
  return service.idle()
}

afterEach(async () => {
  service.stop()
  snapshot.close()
  await sandbox.close()
})

/** Orders the window's `fromDate` does not list: placed and last updated before it. */
const outsideWindow = (windowFromMs: number) =>
  sandbox.state.orders.filter((order) => order.orderDateMicros / 1000 < windowFromMs - DAY_MS && order.updatedAt < windowFromMs - DAY_MS)

/** Gives `n` orders outside the window an item awaiting shipment, without moving their last update. */
function leaveUnshipped(orders: readonly OrderRecord[], n: number): OrderRecord[] {
  const chosen = orders.filter((order) => !order.items.some((item) => OPEN.has(item.status))).slice(0, n)
  for (const order of chosen)
    sandbox.state.updateOrder(order.id, order.updatedAt, (o) => {
      o.items[0]!.status = 'awaiting-shipment'
    })
  return chosen
}

/** What is left to ship, over every order the marketplace holds. */
function truth() {
  const open = sandbox.state.orders.filter((order) => order.items.some((item) => item.status === 'awaiting-shipment'))
  const units = open.flatMap((order) => order.items).reduce((sum, item) => sum + (item.status === 'awaiting-shipment' ? item.quantity : 0), 0)
  return { orders: open.length, units, ids: open.map((order) => order.id).sort() }
}

function held() {
  const dashboard = computeDashboard(snapshot.database, {
    timeZone: 'UTC',
    nowMs: Date.now(),
    windowFromMs: snapshot.syncState('orders').windowFromMs!,
    lowStockThreshold: 5,
    syncedAt: null
  })
  const ids = snapshot.orderIds({ sortBy: 'date', sortDir: 'DESC', itemStatuses: ['awaiting-shipment'] }).sort()
  return { orders: dashboard.awaitingShipment.orders, units: dashboard.awaitingShipment.units, ids, olderOpen: dashboard.olderOpen }
}

it('keeps the unshipped orders placed before the window: every order left to ship is counted, and the check still compares the window', async () => {
  const windowFromMs = Date.now() - HISTORY_DAYS * DAY_MS
  const left = leaveUnshipped(outsideWindow(windowFromMs), 3)
  expect(left).toHaveLength(3)

  sandbox.setFaults({ latencyMs: 30 })
  const status = await syncThenLook()
  sandbox.setFaults({ latencyMs: 0 })
  expect(status.lastError).toBeNull()
  // The look is said while it runs, after the lists, with its pages.
  const lookStatuses = statuses.filter((s) => s.kind === 'olderOrders')
  expect(lookStatuses.length).toBeGreaterThan(0)
  expect(lookStatuses.every((s) => s.running && s.resource === 'orders')).toBe(true)
  expect(lookStatuses.some((s) => s.pagesTotal > 1 && s.pagesDone > 0)).toBe(true)
  expect(statuses.indexOf(lookStatuses[0]!)).toBeGreaterThan(statuses.findLastIndex((s) => s.kind === 'full'))
  expect(status.incomplete).toEqual([])
  const expected = truth()
  expect(expected.ids).toEqual(expect.arrayContaining(left.map((order) => order.id)))
  expect(held()).toMatchObject({ orders: expected.orders, units: expected.units, ids: expected.ids })
  // The check compares the window's rows with the window's count: the older ones are not among them.
  const inWindow = sandbox.state.orders.filter((order) => order.orderDateMicros / 1000 >= windowFromMs - DAY_MS || order.updatedAt >= windowFromMs - DAY_MS)
  const state = snapshot.syncState('orders')
  expect(state.complete).toBe(true)
  expect(state.syncedCount).toBe(state.serverTotal)
  expect(snapshot.count('orders')).toBeLessThanOrEqual(inWindow.length)
  expect(snapshot.dump().orders.length).toBe(snapshot.count('orders') + held().olderOpen!.orders)
  const older = held().olderOpen!
  expect(older).toMatchObject({ complete: true, error: null, before: new Date(state.windowFromMs!).toISOString() })
  expect(older.orders).toBeGreaterThanOrEqual(3)
  expect(older.answered).toBe(older.listed)

  // Not looked for again until the window moves (the next full sync).
  const requests = sandbox.requestCount()
  await syncThenLook()
  expect(snapshot.olderOpenCheck()!.checkedMs).toBe(Date.parse(older.checkedAt))
  expect(sandbox.requestCount() - requests).toBeLessThan(6)

  // One of them shipped now: the next sync reads it as an order updated in the window; it is counted
  // by the marketplace's window total from then on, and no longer as left to ship.
  sandbox.state.updateOrder(left[0]!.id, Date.now() - 1_000, (order) => {
    order.items[0]!.status = 'seller-shipped'
  })
  const after = await syncThenLook()
  expect(after.incomplete).toEqual([])
  // An incremental sync that finds the counts right (the order is new to the window's count), not a full one.
  expect(service.lastReport()!.kinds.orders).toBe('incremental')
  expect(held()).toMatchObject({ orders: truth().orders, units: truth().units, ids: truth().ids })
  expect(snapshot.syncState('orders')).toMatchObject({ complete: true })
  expect(snapshot.syncState('orders').syncedCount).toBe(snapshot.syncState('orders').serverTotal)

  // The first look read every older order, from the first (no start date).
  // (one more when the last page is a whole one: the end is an empty page)
  expect(looks.length).toBeGreaterThanOrEqual(Math.ceil(older.listed / 50))
  expect(looks.length).toBeLessThanOrEqual(Math.ceil(older.listed / 50) + 1)
  expect(looks.length).toBeGreaterThan(3)
  expect(looks.every((query) => query.fromDate === undefined)).toBe(true)

  // A full sync moves the window, keeps them meanwhile, and looks only at what changed before it since.
  looks.length = 0
  const full = await syncThenLook('full')
  expect(full.incomplete).toEqual([])
  expect(held()).toMatchObject({ orders: truth().orders, units: truth().units, ids: truth().ids })
  expect(snapshot.olderOpenCheck()).toMatchObject({ beforeMs: snapshot.syncState('orders').windowFromMs, listed: older.listed, error: null })
  expect(looks).toHaveLength(1)
  expect(Date.parse(looks[0]!.fromDate!)).toBeLessThanOrEqual(Date.parse(older.before!))
})

it.each([
  { order: 'in a new order on each request', ties: { tiesShuffledPerRequest: true } },
  { order: 'in an order set by the page asked', ties: { tiesOrderedByPage: true } }
])(
  'orders before the window last updated at one time, ties $order: every one left to ship is found, and the look is whole',
  async ({ ties }) => {
    const windowFromMs = Date.now() - HISTORY_DAYS * DAY_MS
    const outside = outsideWindow(windowFromMs)
    expect(outside.length).toBeGreaterThan(150)
    // A bulk change on the website, long before the window: one update time for all of them.
    const at = windowFromMs - 3 * DAY_MS
    outside.forEach((order, i) =>
      sandbox.state.updateOrder(order.id, at, (o) => {
        if (i % 3 === 0) o.items[0]!.status = 'awaiting-shipment'
      })
    )
    sandbox.setVariant(ties)
    const status = await syncThenLook()
    expect(status.lastError).toBeNull()
    expect(held().ids).toEqual(truth().ids)
    expect(held().olderOpen).toMatchObject({ complete: true, error: null })
  },
  60_000
)

it('an order left to ship drops out of a window that moves on: the next look finds it; a window moved back holds it as read', async () => {
  historyDays = 60
  await syncThenLook()
  expect(held()).toMatchObject({ ids: truth().ids })
  // Left unshipped 40 days ago, in the 60-day window, then out of a 30-day one.
  const windowFromMs = Date.now() - HISTORY_DAYS * DAY_MS
  const inBetween = sandbox.state.orders.filter(
    (order) =>
      order.orderDateMicros / 1000 < windowFromMs - DAY_MS &&
      order.updatedAt < windowFromMs - DAY_MS &&
      order.orderDateMicros / 1000 > windowFromMs - 25 * DAY_MS
  )
  const left = leaveUnshipped(inBetween, 2)
  expect(left).toHaveLength(2)
  // (Its item changed without an update the list shows: read again by a full sync of the 60 days.)
  await syncThenLook('full')
  const whole = snapshot.olderOpenCheck()!
  expect(held()).toMatchObject({ orders: truth().orders, units: truth().units, ids: truth().ids })

  historyDays = HISTORY_DAYS
  expect((await syncThenLook('full')).incomplete).toEqual([])
  expect(held()).toMatchObject({ orders: truth().orders, units: truth().units, ids: truth().ids })
  expect(snapshot.olderOpenCheck()).toMatchObject({ beforeMs: snapshot.syncState('orders').windowFromMs, listed: whole.listed, error: null })
  expect(snapshot.count('orders')).toBe(snapshot.syncState('orders').serverTotal)

  historyDays = 60
  expect((await syncThenLook('full')).incomplete).toEqual([])
  expect(held()).toMatchObject({ orders: truth().orders, units: truth().units, ids: truth().ids })
  expect(snapshot.count('orders')).toBe(snapshot.syncState('orders').serverTotal)
  expect(snapshot.olderOpenCheck()!.beforeMs).toBe(snapshot.syncState('orders').windowFromMs)
})

/** The window's full sync alone (of `historyDays`, as the service runs it, without the look that follows), and a look of one's own. */
function engineAndLook(now: () => number = Date.now, take = 50) {
  const api = createSellerApi({ baseUrl: sandbox.baseUrl, apiKey: KEY, retries: 0, timeoutMs: 2_000 })
  const fullSync = () =>
    createSyncEngine({ api, snapshot, settings: { ...DEFAULT_SYNC_SETTINGS, take, historyDays } }).run('full', new AbortController().signal)
  const sweep = createOlderOpenSweep(api, snapshot, { take, retries: 0, now })
  return { fullSync, sweep, look: () => sweep.sweep(new AbortController().signal) }
}

const matchesTruth = () => expect(held()).toMatchObject({ orders: truth().orders, units: truth().units, ids: truth().ids })

it('a window moved back then on again with no look between, and orders shipped while the app was closed: nothing left to ship goes missing, nothing shipped stays', async () => {
  const windowFromMs = Date.now() - HISTORY_DAYS * DAY_MS
  // Left unshipped 40 days ago (inside 60 days, outside 30), and 70 days ago (outside both).
  const between = outsideWindow(windowFromMs).filter((order) => order.orderDateMicros / 1000 > windowFromMs - 25 * DAY_MS)
  const left = [...leaveUnshipped(between, 2), ...leaveUnshipped(outsideWindow(windowFromMs - 40 * DAY_MS), 2)]
  expect(left).toHaveLength(4)
  const { fullSync, look } = engineAndLook()
  await fullSync()
  await look()
  matchesTruth()
  // 60 days kept, then 30 again, with no look after either: the orders leaving the window with items to
  // ship stay, exactly as they were read.
  historyDays = 60
  await fullSync()
  matchesTruth()
  historyDays = HISTORY_DAYS
  await fullSync()
  matchesTruth()
  expect(snapshot.count('orders')).toBe(snapshot.syncState('orders').serverTotal)
  await look()
  matchesTruth()

  // One of them is shipped 20 days ago while the app was closed (its update before the window by then):
  // the full sync keeps it as it was; the next look reads it and drops it.
  const [shipped] = left
  sandbox.state.updateOrder(shipped!.id, Date.now() - 20 * DAY_MS, (order) => {
    order.items[0]!.status = 'seller-shipped'
  })
  historyDays = 10
  await fullSync()
  expect(held().ids).toContain(shipped!.id)
  await look()
  matchesTruth()
  expect(held().ids).not.toContain(shipped!.id)
})

it('a look that reads short of the count keeps what it found and looks at the same range again; it pages as the marketplace does', async () => {
  // A marketplace that refuses a page larger than 40: the full sync learns 25, and the look asks that.
  sandbox.setVariant({ maxTake: 40, takeAboveMax: 'refused' })
  leaveUnshipped(outsideWindow(Date.now() - HISTORY_DAYS * DAY_MS), 3)
  let clock = Date.now()
  const { fullSync, sweep, look } = engineAndLook(() => clock, 50)
  await fullSync()
  expect(snapshot.syncState('orders').pageSize).toBe(25)
  // Its count is too high for the look: what it leaves unread cannot be told from a count that overcounts.
  sandbox.setVariant({ totalOffset: 5 })
  await look()
  const short = snapshot.olderOpenCheck()!
  expect(short).toMatchObject({ beforeMs: null, complete: false })
  expect(short.error).toMatch(/^The marketplace answered [\d,]+ of the [\d,]+ older orders it counted\.$/)
  expect(short.kept).toBeLessThanOrEqual(truth().ids.length)
  expect(held().ids.every((id) => truth().ids.includes(id))).toBe(true)
  // Whole again later, though its pages now come back short at random: asked again, each is read whole.
  sandbox.setVariant({ totalOffset: 0, shortPageRate: 0.5 })
  expect(sweep.due()).toBe(false)
  clock += SWEEP_RETRY_MS
  expect(sweep.due()).toBe(true)
  await look()
  expect(snapshot.olderOpenCheck()).toMatchObject({ beforeMs: snapshot.syncState('orders').windowFromMs, complete: true, error: null })
  matchesTruth()
})

it('a look that fails keeps what the last ones found and says why, and is tried again a while after', async () => {
  const windowFromMs = Date.now() - HISTORY_DAYS * DAY_MS
  leaveUnshipped(outsideWindow(windowFromMs), 2)
  let clock = Date.now()
  const { fullSync, sweep } = engineAndLook(() => clock)
  await fullSync()
  expect(sweep.due()).toBe(true)
  await sweep.sweep(new AbortController().signal)
  const before = held()
  expect(before.ids).toEqual(truth().ids)
  const first = snapshot.olderOpenCheck()!
  expect(sweep.due()).toBe(false)

  // The window moves on; the look at what changed before it fails.
  await fullSync()
  expect(sweep.due()).toBe(true)
  sandbox.injectNext('server-error', 1)
  await sweep.sweep(new AbortController().signal)
  const failed = snapshot.olderOpenCheck()!
  expect(failed).toMatchObject({ beforeMs: first.beforeMs, listed: first.listed, complete: true, kept: first.kept })
  expect(failed.error).toContain('500')
  expect(held()).toMatchObject({ orders: before.orders, units: before.units, ids: before.ids })
  expect(held().olderOpen!.error).toBe(failed.error)
  // Tried again a while after, not at once.
  expect(sweep.due()).toBe(false)
  clock += SWEEP_RETRY_MS
  expect(sweep.due()).toBe(true)
  await sweep.sweep(new AbortController().signal)
  expect(snapshot.olderOpenCheck()).toMatchObject({ beforeMs: snapshot.syncState('orders').windowFromMs, error: null, complete: true, kept: first.kept })
  expect(sweep.due()).toBe(false)
})

it('a look cancelled records nothing', async () => {
  const windowFromMs = Date.now() - HISTORY_DAYS * DAY_MS
  leaveUnshipped(outsideWindow(windowFromMs), 1)
  const { fullSync, sweep } = engineAndLook()
  await fullSync()
  sandbox.setFaults({ latencyMs: 300 })
  const controller = new AbortController()
  const looking = sweep.sweep(controller.signal)
  setTimeout(() => controller.abort(new DOMException('Sync cancelled', 'AbortError')), 50)
  await expect(looking).rejects.toMatchObject({ name: 'AbortError' })
  expect(snapshot.olderOpenCheck()).toBeNull()
  expect(sweep.due()).toBe(true)
})

it('a look goes on beside what comes next: a sync and a catch-up before an edit run at once, a row they read is not written over by the look, a window moved meanwhile is looked at next, and Cancel stops what the bar shows (a run beside the look, else the look)', async () => {
  const outside = outsideWindow(Date.now() - HISTORY_DAYS * DAY_MS)
  // The most recently updated of the older orders: on the look's first page.
  const latest = outside.reduce((a, b) => (b.updatedAt > a.updatedAt ? b : a))
  sandbox.state.updateOrder(latest.id, latest.updatedAt, (order) => order.items.forEach((item) => (item.status = 'awaiting-shipment')))
  leaveUnshipped(outside, 2)
  let release!: () => void
  lookGate = new Promise((resolve) => (release = resolve))

  // The run has ended; its look has read its first page and waits.
  const first = await service.sync()
  expect(first).toMatchObject({ running: true, kind: 'olderOrders', lastError: null })
  expect(runUnderWay(first)).toBe(false)
  await vi.waitFor(() => expect(looks.length).toBe(2), { timeout: 5_000, interval: 10 })

  // Meanwhile the order read on that page is shipped, and a new one arrives: a full sync (Settings) reads
  // both at once, and moves the window.
  sandbox.state.updateOrder(latest.id, Date.now() - 1_000, (order) => order.items.forEach((item) => (item.status = 'seller-shipped')))
  const [arrived] = sandbox.addOrders(1)
  const lookedBefore = Date.parse(looks[0]!.toDate!)
  const now = await service.sync('full')
  expect(now).toMatchObject({ running: true, kind: 'olderOrders', lastError: null, incomplete: [] })
  expect(snapshot.summarizeOrders([arrived!, latest.id]).count).toBe(2)
  expect(await service.catchUpSellRequests()).toMatchObject({ kind: 'olderOrders', lastError: null })
  expect(await service.readBackSellRequests()).toBeNull()
  expect(snapshot.olderOpenCheck()).toBeNull()

  // The look ends: the shipped order stays as the sync read it, and what is left to ship is the
  // marketplace's. The window moved meanwhile: what left it is looked at next, at once.
  release()
  expect(await service.idle()).toMatchObject({ running: false, kind: null })
  expect(snapshot.olderOpenCheck()).toMatchObject({ beforeMs: snapshot.syncState('orders').windowFromMs, error: null, complete: true })
  expect(looks.some((query) => query.fromDate !== undefined && Date.parse(query.toDate!) > lookedBefore)).toBe(true)
  expect(snapshot.orderIds({ sortBy: 'date', sortDir: 'DESC', itemStatuses: ['awaiting-shipment'] })).not.toContain(latest.id)
  matchesTruth()

  // Cancel in the sync bar stops what it shows: a run beside a look, not the look, which goes on and ends.
  lookGate = new Promise((resolve) => (release = resolve))
  gateFromPage = 1
  looks.length = 0
  await service.sync('full')
  await vi.waitFor(() => expect(looks.length).toBeGreaterThan(0), { timeout: 5_000, interval: 10 })
  const lookedAt = snapshot.olderOpenCheck()!.checkedMs
  sandbox.setFaults({ latencyMs: 200 })
  const beside = service.sync()
  await vi.waitFor(() => expect(service.status().kind).not.toBe('olderOrders'), { timeout: 5_000, interval: 5 })
  service.cancel()
  expect(await beside).toMatchObject({ running: true, kind: 'olderOrders', lastError: null })
  sandbox.setFaults({ latencyMs: 0 })
  release()
  expect(await service.idle()).toMatchObject({ running: false, lastError: null })
  expect(snapshot.olderOpenCheck()).toMatchObject({ error: null })
  expect(snapshot.olderOpenCheck()!.checkedMs).toBeGreaterThan(lookedAt)

  // The look alone: Cancel stops it; nothing recorded, looked at again after the next sync.
  lookGate = new Promise((resolve) => (release = resolve))
  looks.length = 0
  await service.sync('full')
  await vi.waitFor(() => expect(looks.length).toBeGreaterThan(0), { timeout: 5_000, interval: 10 })
  const checked = snapshot.olderOpenCheck()
  expect(service.cancel()).toMatchObject({ running: true })
  release()
  expect(await service.idle()).toMatchObject({ running: false, lastError: null })
  expect(snapshot.olderOpenCheck()).toEqual(checked)
  lookGate = null
  await syncThenLook()
  expect(snapshot.olderOpenCheck()).toMatchObject({ beforeMs: snapshot.syncState('orders').windowFromMs, error: null })
  matchesTruth()
})

it('a look that ends while a catch-up of sell requests runs, after a full sync beside it moved the window, is followed by a look at what left the window when the catch-up ends', async () => {
  leaveUnshipped(outsideWindow(Date.now() - HISTORY_DAYS * DAY_MS), 2)
  let release!: () => void
  lookGate = new Promise((resolve) => (release = resolve))
  await service.sync()
  await vi.waitFor(() => expect(looks.length).toBe(2), { timeout: 5_000, interval: 10 })
  const lookedBefore = Date.parse(looks[0]!.toDate!)
  await service.sync('full')
  const windowFromMs = snapshot.syncState('orders').windowFromMs!

  // The catch-up before an edit is on the wire when the look ends.
  let answer!: () => void
  sellRequestsGate = new Promise((resolve) => (answer = resolve))
  const caughtUp = service.catchUpSellRequests()
  release()
  await vi.waitFor(() => expect(snapshot.olderOpenCheck()).not.toBeNull(), { timeout: 5_000, interval: 10 })
  answer()
  expect(await caughtUp).toMatchObject({ lastError: null })
  expect(await service.idle()).toMatchObject({ running: false })
  expect(looks.some((query) => query.fromDate !== undefined && Date.parse(query.toDate!) > lookedBefore)).toBe(true)
  expect(snapshot.olderOpenCheck()).toMatchObject({ beforeMs: windowFromMs, error: null })
  matchesTruth()
})
