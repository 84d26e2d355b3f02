/**
 * The workspace's local-first lists: rows from the snapshot; orders older than the synced window from
 * the marketplace on demand (or a note when offline); edits and deletes reach the marketplace first.
 */
import { mkdtempSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { startSandbox, type Sandbox, type SandboxOptions, type SellRequestRecord } from '../sandbox'
import type { AppSettings } from '../shared/contract'
import { createSellerApi } from './sellerApi'
import { nodeFetch } from './sellerApi/nodeFetch'
import { openDatabase } from './snapshot/database'
import { snapshotFileFor } from './snapshot/snapshot'
import { openWorkspace, type Workspace } from './workspace'

const KEY = 'sk_test_workspace_123456'
let sandbox: Sandbox
let workspace: Workspace
const settings: AppSettings = { syncIntervalMinutes: 5, historyDays: 30, notifyNewOrders: true, lowStockThreshold: 5, theme: 'system' }
const events: string[] = []

let userDataDir: string

/** The workspace of the marketplace's account in the user-data folder, opened (again); its calls through `fetch` if given. */
function openAccount(fetch?: typeof globalThis.fetch): Workspace {
  return openWorkspace({
    userDataDir,
    account: { demo: false, baseUrl: sandbox.baseUrl, sellerId: 'seller-1' },
    api: createSellerApi({ baseUrl: sandbox.baseUrl, apiKey: KEY, retries: 0, ...(fetch ? { fetch } : {}) }),
    settings: () => settings,
    emit: (event) => events.push(event)
  })
}

/** A workspace of its own on a new marketplace, synced and looked through for older orders. */
async function openSynced(options: Partial<SandboxOptions> = {}): Promise<void> {
  sandbox = await startSandbox({ apiKey: KEY, orders: 200, sellRequests: 40, seed: 4, now: new Date(), ...options })
  userDataDir = mkdtempSync(join(tmpdir(), 'seller-desk-workspace-'))
  workspace = openAccount()
  await workspace.sync.sync()
  await workspace.sync.idle() // and the look through older orders after it
}

beforeEach(() => openSynced())
afterEach(async () => {
  await workspace.close()
  await sandbox.close()
})

const base = { page: 1, take: 50, sortBy: 'date', sortDir: 'DESC' } as const

it('lists from the snapshot, within the history window', async () => {
  const result = await workspace.listOrders(base)
  expect(result.source).toBe('snapshot')
  expect(result.syncedAt).not.toBeNull()
  expect(result.total).toBeGreaterThan(0)
  expect(result.total).toBeLessThan(200)
})

it('fetches orders older than the window from the marketplace when online, and says so offline', async () => {
  const fromDate = new Date(Date.now() - 100 * 86_400_000).toISOString()
  const toDate = new Date(Date.now() - 60 * 86_400_000).toISOString()
  const older = await workspace.listOrders({ ...base, fromDate, toDate })
  expect(older.source).toBe('server')
  // Exactly the orders placed in those dates, newest first, though the API also lists those updated in
  // them (and an update reaches a placed order days later in this marketplace's activity).
  const fromMs = Date.parse(fromDate)
  const toMs = Date.parse(toDate)
  const placed = sandbox.state.orders
    .filter((o) => o.orderDateMicros / 1000 >= fromMs && o.orderDateMicros / 1000 <= toMs)
    .sort((a, b) => b.orderDateMicros - a.orderDateMicros)
  const updatedOnly = sandbox.state.orders.filter((o) => o.updatedAt >= fromMs && o.updatedAt <= toMs && !placed.includes(o))
  expect(updatedOnly.length, 'the fixture has orders placed before the dates and updated in them').toBeGreaterThan(0)
  expect(older.total).toBe(placed.length)
  expect(older.rows.map((o) => o.id)).toEqual(placed.slice(0, 50).map((o) => o.id))
  // The window's start named by the instant the list sends with it, for the window to say in the seller's zone.
  const windowFrom = new Date(workspace.snapshot.syncState('orders').windowFromMs!).toISOString()
  expect(older.windowFrom).toBe(windowFrom)
  expect(older.note).toBe(`Orders placed before ${windowFrom} are not kept on this computer: these come from the marketplace.`)
  // Page 2 and a sort by total come from the same read, in the list's order.
  const byTotal = await workspace.listOrders({ ...base, fromDate, toDate, sortBy: 'total', sortDir: 'ASC', page: 2, take: 10 })
  expect(byTotal.total).toBe(placed.length)
  const totals = older.rows.length ? (await workspace.listOrders({ ...base, fromDate, toDate, sortBy: 'total', sortDir: 'ASC', take: 500 })).rows : []
  expect(byTotal.rows).toEqual(totals.slice(10, 20))
  expect(totals.map((o) => o.totalCents)).toEqual([...totals.map((o) => o.totalCents)].sort((a, b) => a - b))
  // Its CSV export holds the same orders.
  const csv = await workspace.exportOrdersCsv({ timeZone: 'UTC', fromDate, toDate, sortBy: 'date', sortDir: 'DESC' })
  expect(csv.orders).toBe(placed.length)
  expect(csv.missing).toBeNull()
  // Named by the dates it holds.
  expect(csv.fileName).toBe(`orders-${fromDate.slice(0, 10)}-to-${toDate.slice(0, 10)}.csv`)
  // Without a start: every order up to the end (or today), not named like one day's orders.
  expect((await workspace.exportOrdersCsv({ timeZone: 'UTC', toDate, sortBy: 'date', sortDir: 'DESC' })).fileName).toBe(
    `orders-until-${toDate.slice(0, 10)}.csv`
  )
  expect((await workspace.exportOrdersCsv({ timeZone: 'UTC', sortBy: 'date', sortDir: 'DESC' })).fileName).toBe(
    `orders-until-${new Date().toISOString().slice(0, 10)}.csv`
  )

  await sandbox.close()
  await workspace.sync.sync() // finds the marketplace gone
  const offline = await workspace.listOrders({ ...base, fromDate, toDate })
  expect(offline.source).toBe('snapshot')
  expect(offline.note).toMatch(/connect to see older ones/)
  // Its export holds only the kept orders of those dates, and says so: no plain success.
  const short = await workspace.exportOrdersCsv({ timeZone: 'UTC', fromDate, toDate, sortBy: 'date', sortDir: 'DESC' })
  expect(short.orders).toBeLessThan(placed.length)
  expect(short.missing).toMatch(/^Offline: some older orders are missing\.$/)
  await expect(
    workspace.editSellRequest(workspace.listSellRequests({ page: 1, take: 1, sortBy: 'updated', sortDir: 'DESC' }).rows[0]!.id, { quantity: 1 })
  ).rejects.toMatchObject({
    kind: 'network'
  })
  sandbox = await startSandbox({ apiKey: KEY, orders: 1, sellRequests: 1 })
})

it('orders older than the window are searched and filtered as the kept ones are: by status, item status, number, shipment and tracking', async () => {
  const fromDate = new Date(Date.now() - 100 * 86_400_000).toISOString()
  const toDate = new Date(Date.now() - 40 * 86_400_000).toISOString()
  const all = (await workspace.listOrders({ ...base, fromDate, toDate, take: 500 })).rows
  expect(all.length).toBeGreaterThan(10)
  const ids = (orders: readonly { id: string }[]) => orders.map((o) => o.id)
  const listed = async (filters: { statuses?: string[]; itemStatuses?: string[]; searchTerm?: string }) => {
    const result = await workspace.listOrders({ ...base, fromDate, toDate, take: 500, ...filters })
    expect(result.source, JSON.stringify(filters)).toBe('server')
    expect(result.total).toBe(result.rows.length)
    return result.rows
  }
  // A status some orders of the range have and others not: exactly those, not the few kept here.
  const status = [...new Set(all.map((o) => o.status))].find((s) => all.some((o) => o.status !== s))!
  const withStatus = all.filter((o) => o.status === status)
  expect(ids(await listed({ statuses: [status] }))).toEqual(ids(withStatus))
  const itemStatus = all.find((o) => o.status === status)!.items[0]!.status
  expect(ids(await listed({ itemStatuses: [itemStatus] }))).toEqual(ids(all.filter((o) => o.items.some((item) => item.status === itemStatus))))
  // Searched by what the API's search does not match (item names only): the number, a shipment, a tracking number.
  const order = all[Math.floor(all.length / 2)]!
  const item = order.items.find((i) => i.tracking?.trackingNumber)!
  for (const term of [order.orderNo, item.shipment!, item.tracking!.trackingNumber!.toLowerCase()]) {
    expect(ids(await listed({ searchTerm: term })), term).toContain(order.id)
  }
  expect(await listed({ searchTerm: 'no order or item is called this' })).toEqual([])
  // Searched without dates, that older order is not here: the list says where to look.
  const undated = await workspace.listOrders({ ...base, searchTerm: order.orderNo })
  expect(undated.total).toBe(0)
  expect(undated.note).toBe(
    `Orders placed before ${undated.windowFrom} are kept on this computer only while they have items to ship: to search the others, choose their dates.`
  )
  expect(undated.windowFrom).toBe(new Date(workspace.snapshot.syncState('orders').windowFromMs!).toISOString())
  // One that is kept is found, without that note.
  const kept = (await workspace.listOrders(base)).rows[0]!
  const found = await workspace.listOrders({ ...base, searchTerm: kept.orderNo })
  expect(found.rows.map((o) => o.id)).toContain(kept.id)
  expect(found.note ?? '').not.toMatch(/to search those/)
  // The export holds what the list shows.
  const csv = await workspace.exportOrdersCsv({ timeZone: 'UTC', fromDate, toDate, sortBy: 'date', sortDir: 'DESC', statuses: [status] })
  expect(csv.orders).toBe(withStatus.length)
})

it('edits and deletes go to the marketplace, then to the snapshot', async () => {
  const [first, second] = workspace.listSellRequests({ page: 1, take: 2, sortBy: 'updated', sortDir: 'DESC' }).rows
  const edited = await workspace.editSellRequest(second!.id, { priceCents: 4321 })
  expect(edited.priceCents).toBe(4321)
  expect(sandbox.state.sellRequest(second!.id)!.priceCents).toBe(4321)
  expect(workspace.listSellRequests({ page: 1, take: 1, sortBy: 'updated', sortDir: 'DESC' }).rows[0]).toMatchObject({ id: second!.id, priceCents: 4321 })

  await workspace.deleteSellRequest(first!.id)
  expect(sandbox.state.sellRequest(first!.id)).toBeUndefined()
  expect(workspace.snapshot.dump().sellRequests.some((s) => s.id === first!.id)).toBe(false)
  // Deleted elsewhere already: done as asked, gone here too, and the seller is told.
  const third = workspace.listSellRequests({ page: 1, take: 1, sortBy: 'updated', sortDir: 'ASC' }).rows[0]!
  await fetch(`${sandbox.baseUrl}/v1/sell-requests/${third.id}`, { method: 'DELETE', headers: { 'x-api-key': KEY } })
  expect(await workspace.deleteSellRequest(third.id)).toEqual({ id: third.id, alreadyDeleted: true })
  expect(workspace.snapshot.dump().sellRequests.some((s) => s.id === third.id)).toBe(false)
})

it('an edit or delete the marketplace took while the workspace closed is reported done, not failed', async () => {
  const [first, second] = workspace.listSellRequests({ page: 1, take: 2, sortBy: 'updated', sortDir: 'DESC' }).rows
  // The answers come after the snapshot has closed (sign-out while they were on their way).
  sandbox.setFaults({ latencyMs: 300 })
  const edit = workspace.editSellRequest(second!.id, { priceCents: 1234 })
  const removal = workspace.deleteSellRequest(first!.id)
  await new Promise((resolve) => setTimeout(resolve, 50))
  await workspace.close()
  await expect(edit).resolves.toMatchObject({ id: second!.id, priceCents: 1234 })
  await expect(removal).resolves.toEqual({ id: first!.id, alreadyDeleted: false })
  expect(sandbox.state.sellRequest(second!.id)!.priceCents).toBe(1234)
  expect(sandbox.state.sellRequest(first!.id)).toBeUndefined()
  sandbox.setFaults({ latencyMs: 0 })
})

/**
 * A fetch whose reads of the listings are answered by the marketplace at once but handed to the app only
 * once released: pages read before a delete made meanwhile, written after it. `pages` holds each read's ids.
 */
function listingReadsHeld(): { fetch: typeof globalThis.fetch; pages: string[][]; release(): void } {
  const pages: string[][] = []
  let release = () => {}
  const released = new Promise<void>((resolve) => (release = resolve))
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = input as Request
    const response = await nodeFetch(request, init)
    if (request.method !== 'GET' || !new URL(request.url).pathname.endsWith('/sell-requests')) return response
    const body = await response.text()
    pages.push((JSON.parse(body) as { data: { data: { id: string }[] } }).data.data.map((row) => row.id))
    await released
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers })
  }
  return { fetch, pages, release }
}

/**
 * On a marketplace of several pages of listings, synced: starts a sync of `kind` with the listing reads
 * held, and deletes here the listing `pick` chooses from the first page read before that page is handed
 * over. Answers the listing, as it was, and whether the snapshot held it again at any time after the
 * delete (looked at every few ms until the sync and what follows it end).
 */
async function deleteWhileSyncReads(
  kind: 'auto' | 'full',
  before: () => void,
  pick: (ids: string[]) => string
): Promise<{ deleted: string; record: SellRequestRecord; heldAgain: boolean }> {
  await workspace.close()
  await sandbox.close()
  await openSynced({ sellRequests: 450 })
  await workspace.close()
  const held = listingReadsHeld()
  workspace = openAccount(held.fetch)
  before()
  const syncing = workspace.sync.sync(kind)
  await expect.poll(() => held.pages.length).toBeGreaterThan(0)
  const deleted = pick(held.pages[0]!)
  const record = { ...sandbox.state.sellRequest(deleted)! }
  expect(await workspace.deleteSellRequest(deleted)).toEqual({ id: deleted, alreadyDeleted: false })
  let heldAgain = false
  const looking = setInterval(() => (heldAgain ||= workspace.snapshot.sellRequest(deleted) !== null), 5)
  try {
    held.release()
    await syncing
    await workspace.sync.idle()
  } finally {
    clearInterval(looking)
  }
  return { deleted, record, heldAgain }
}

it('a listing deleted here while an incremental sync had it read stays deleted, and a marketplace that lists it again later is shown', async () => {
  let touched = ''
  const { deleted, record, heldAgain } = await deleteWhileSyncReads(
    'auto',
    () => {
      touched = sandbox.state.sellRequests[0]!.id
      sandbox.state.editSellRequest(touched, { priceCents: 123_45 }, Date.now())
    },
    (ids) => {
      expect(ids).toContain(touched)
      return touched
    }
  )
  expect(heldAgain, 'the page read before the delete brought it back').toBe(false)
  expect(workspace.snapshot.sellRequest(deleted)).toBeNull()
  expect(workspace.snapshot.dump().sellRequests).toHaveLength(sandbox.state.sellRequests.length)

  // Listed again afterwards (the delete did not hold there, or it was put back): the next sync shows it.
  sandbox.state.addSellRequest({ ...record, updatedAt: Date.now() })
  await workspace.sync.sync()
  await workspace.sync.idle()
  expect(workspace.snapshot.sellRequest(deleted)).toMatchObject({ id: deleted, priceCents: 123_45 })
})

it('a listing deleted here while a full sync had it read and not yet swapped in stays deleted, and the sync counts the marketplace’s listings right', async () => {
  const { deleted, heldAgain } = await deleteWhileSyncReads(
    'full',
    () => undefined,
    (ids) => ids[0]!
  )
  expect(heldAgain, 'the page read before the delete brought it back').toBe(false)
  expect(sandbox.state.sellRequest(deleted)).toBeUndefined()
  expect(
    workspace.snapshot
      .dump()
      .sellRequests.map((row) => row.id)
      .sort()
  ).toEqual(sandbox.state.sellRequests.map((row) => row.id).sort())
  expect(workspace.snapshot.syncState('sellRequests')).toMatchObject({ complete: true, syncedCount: sandbox.state.sellRequests.length })
})

it('keeps an order placed before the window that was updated in it, and the list without dates says why', async () => {
  const windowFrom = Date.now() - 30 * 86_400_000
  const old = sandbox.state.orders.find((o) => o.orderDateMicros / 1000 < windowFrom - 5 * 86_400_000 && o.updatedAt < windowFrom)!
  sandbox.state.updateOrder(old.id, Date.now() - 1_000, () => undefined)
  await workspace.sync.sync()
  await workspace.sync.idle() // and the look through older orders after it
  const all = await workspace.listOrders(base)
  const kept = workspace.snapshot.dump().orders.filter((o) => Date.parse(o.orderDate) < windowFrom - 86_400_000)
  expect(kept.map((o) => o.id)).toContain(old.id)
  expect(all.note).toMatch(
    /^This computer keeps the orders placed or updated in the last 30 days: the (order|[\d,]+ orders) placed before .+ (is|are) here because (it was updated since or still has|they were updated since or still have) items to ship\.$/
  )
  // The window's start is named with its time (it starts mid-day), by the instant the list sends with it (the
  // window says it in the seller's zone), and the orders counted are those placed before it.
  const windowFromMs = workspace.snapshot.syncState('orders').windowFromMs!
  const before = workspace.snapshot.dump().orders.filter((o) => Date.parse(o.orderDate) < windowFromMs).length
  const since = new Date(windowFromMs).toISOString()
  expect(all.windowFrom).toBe(since)
  expect(all.note).toContain(`${before === 1 ? 'the order' : `the ${before.toLocaleString('en-US')} orders`} placed before ${since} `)
  // Sorted by total, the same words: the orders before the window are counted whatever the list's order.
  expect((await workspace.listOrders({ ...base, sortBy: 'total', sortDir: 'ASC' })).note).toBe(all.note)
  // With dates inside the window, nothing to explain.
  expect((await workspace.listOrders({ ...base, fromDate: new Date(Date.now() - 7 * 86_400_000).toISOString() })).note).toBeNull()
})

it('a list of what is left to ship says when the look for older orders with items to ship last did not end, and nothing when it did', async () => {
  const toShip = { ...base, itemStatuses: ['awaiting-shipment'] }
  // The look after the sync ended (beforeEach): nothing to say about it.
  expect(workspace.snapshot.olderOpenCheck()).toMatchObject({ complete: true, error: null })
  expect((await workspace.listOrders(toShip)).note ?? '').not.toMatch(/may be missing|looked through/)
  // The next one fails (a marketplace error, recorded by the sweep as it records one).
  await workspace.snapshot.olderOpenFailed(Date.now(), 'The marketplace had a problem (HTTP 500).')
  const since = new Date(workspace.snapshot.syncState('orders').windowFromMs!).toISOString()
  const failed = await workspace.listOrders(toShip)
  expect(failed.windowFrom).toBe(since)
  expect(failed.note).toContain(
    `Looking through the marketplace for orders placed before ${since} with items still to ship did not end (The marketplace had a problem (HTTP 500)): some may be missing here. Seller Desk tries again in a while.`
  )
  // Its rows are still the ones kept here; a list that is not of what is left to ship says nothing of it.
  expect(failed.total).toBeGreaterThan(0)
  expect((await workspace.listOrders(base)).note ?? '').not.toMatch(/may be missing/)
})

it('a marketplace seen writing order times in its own zone (5½ h ahead of UTC): the dashboard and the dated lists say times and days may be off, and by about how much its clock is from UTC; in UTC, nothing', async () => {
  const note =
    /^This marketplace writes order times in a time zone other than UTC, which Seller Desk reads them in \(new orders show its clock about 5½ h ahead of UTC\): an order’s time, and the day it counts on, may be off by some hours\. Name the marketplace’s time zone in Settings, under “Order times”\.$/
  const today = (dashboard: ReturnType<Workspace['dashboard']>) => ({ ...base, fromDate: dashboard.today.fromDate, toDate: dashboard.today.toDate })
  // The marketplace of beforeEach writes UTC: new orders tell so, and nothing is said.
  sandbox.addOrders(5)
  await workspace.sync.sync()
  await workspace.sync.idle()
  expect(workspace.snapshot.syncState('orders').orderTimesReadRight).toBe(true)
  expect(workspace.dashboard('UTC').orderTimesNote).toBeNull()
  expect((await workspace.listOrders(today(workspace.dashboard('UTC')))).note).toBeNull()

  // One writing them 5½ hours ahead: its new orders are dated hours from its clock.
  await workspace.close()
  await sandbox.close()
  await openSynced({ variant: { orderTimeOffsetMinutes: 330, orderDateDigits: 0 } })
  // Not known from a full sync alone.
  expect(workspace.dashboard('UTC').orderTimesNote).toBeNull()
  sandbox.addOrders(5)
  await workspace.sync.sync()
  await workspace.sync.idle()
  expect(workspace.snapshot.syncState('orders').orderTimesReadRight).toBe(false)
  // Settings is told the clock's offset too, to offer the zones at it first.
  expect(workspace.orderTimeZone()).toEqual({ zone: null, clockOffsetMs: 330 * 60_000 })
  const dashboard = workspace.dashboard('UTC')
  expect(dashboard.orderTimesNote).toMatch(note)
  expect((await workspace.listOrders(today(dashboard))).note).toMatch(note)
  // A list up to a date says it too; one with no dates, whose order is by time alone, does not.
  expect((await workspace.listOrders({ ...base, toDate: dashboard.today.toDate })).note).toContain(dashboard.orderTimesNote)
  expect((await workspace.listOrders(base)).note ?? '').not.toContain('time zone')

  // One 5 hours behind, named wrong (as 5 h ahead): the clock is said as the marketplace's own, behind UTC.
  await workspace.close()
  await sandbox.close()
  await openSynced({ variant: { orderTimeOffsetMinutes: -300 } })
  await workspace.setOrderTimeZone('Etc/GMT-5')
  await workspace.sync.idle()
  sandbox.addOrders(5)
  await workspace.sync.sync()
  await workspace.sync.idle()
  expect(workspace.orderTimeZone()).toEqual({ zone: 'Etc/GMT-5', clockOffsetMs: -300 * 60_000 })
  expect(workspace.dashboard('UTC').orderTimesNote).toBe(
    'This marketplace writes order times in a time zone other than Etc/GMT-5, which Seller Desk reads them in (new orders show its clock about 5 h behind UTC): an order’s time, and the day it counts on, may be off by some hours. Name the marketplace’s time zone in Settings, under “Order times”.'
  )

  // One on UTC, named wrong (as 3 h ahead): its clock is said to be on UTC, with no "about".
  await workspace.close()
  await sandbox.close()
  await openSynced({ variant: { orderTimeOffsetMinutes: 0 } })
  await workspace.setOrderTimeZone('Etc/GMT-3')
  await workspace.sync.idle()
  sandbox.addOrders(5)
  await workspace.sync.sync()
  await workspace.sync.idle()
  expect(workspace.orderTimeZone()).toEqual({ zone: 'Etc/GMT-3', clockOffsetMs: 0 })
  expect(workspace.dashboard('UTC').orderTimesNote).toContain('(new orders show its clock on UTC)')
})

it('a clock offset told before that later new orders do not allow (the marketplace moved its clock): the dashboard and Settings no longer tell it', async () => {
  await workspace.close()
  await sandbox.close()
  await openSynced({ variant: { orderTimeOffsetMinutes: -300 } })
  // Told 5½ h ahead by orders of a while ago, the last sync three hours back: the new orders, placed
  // any time in those hours, pin no offset, and 5½ h ahead is not one they allow.
  const { serverTotal, syncedCount } = workspace.snapshot.syncState('orders')
  await workspace.snapshot.recordCheck('orders', {
    serverTotal: serverTotal!,
    syncedCount: syncedCount!,
    complete: true,
    cursorMs: Date.now() - 3 * 3_600_000,
    orderTimesReadRight: false,
    clockOffsetMs: 330 * 60_000
  })
  expect(workspace.orderTimeZone()).toEqual({ zone: null, clockOffsetMs: 330 * 60_000 })
  sandbox.addOrders(3)
  await workspace.sync.sync()
  await workspace.sync.idle()
  expect(workspace.orderTimeZone()).toEqual({ zone: null })
  expect(workspace.dashboard('UTC').orderTimesNote).toBe(
    'This marketplace writes order times in a time zone other than UTC, which Seller Desk reads them in: an order’s time, and the day it counts on, may be off by some hours. Name the marketplace’s time zone in Settings, under “Order times”.'
  )
})

it('order times read in the zone the seller names for the marketplace (5½ h ahead of UTC): right times, right days, and said no more once new orders agree', async () => {
  await workspace.close()
  await sandbox.close()
  await openSynced({ variant: { orderTimeOffsetMinutes: 330, orderDateDigits: 0 } })
  // To the second: this marketplace writes no fractions of a second.
  const placed = {
    get: (id: string) => new Date(Math.floor(sandbox.state.orders.find((order) => order.id === id)!.orderDateMicros / 1_000_000) * 1000).toISOString()
  }
  const rowsRead = async () => (await workspace.listOrders({ ...base, take: 200 })).rows
  // Read as UTC: every time 5½ h late.
  for (const order of await rowsRead()) expect(Date.parse(order.orderDate) - Date.parse(placed.get(order.id))).toBe(330 * 60_000)

  // An unknown zone is refused and changes nothing.
  await expect(workspace.setOrderTimeZone('Mars/Olympus')).rejects.toMatchObject({ kind: 'invalid-input' })
  expect(workspace.orderTimeZone()).toEqual({ zone: null })

  // Named while a full sync and the look for older orders run: both are stopped first, none writes old times after.
  const running = workspace.sync.sync('full')
  expect(await workspace.setOrderTimeZone('Asia/Kolkata')).toEqual({ zone: 'Asia/Kolkata' })
  await running
  expect(workspace.orderTimeZone()).toEqual({ zone: 'Asia/Kolkata' })
  await workspace.sync.idle()
  for (const order of await rowsRead()) expect(order.orderDate, order.orderNo).toBe(placed.get(order.id))
  // The time columns are written again: a range a second either side of an order's time finds it.
  const [first] = await rowsRead()
  const around = (ms: number) => ({ ...base, fromDate: new Date(ms - 1_000).toISOString(), toDate: new Date(ms + 1_000).toISOString() })
  expect((await workspace.listOrders(around(Date.parse(placed.get(first!.id))))).rows.map((order) => order.id)).toContain(first!.id)
  // The days they count on: today's orders are the marketplace's.
  const dashboard = workspace.dashboard('UTC')
  const todayStart = Date.parse(dashboard.today.fromDate)
  const placedToday = sandbox.state.orders.filter((order) => order.orderDateMicros / 1000 >= todayStart).length
  const today = await workspace.listOrders({ ...base, fromDate: dashboard.today.fromDate, toDate: dashboard.today.toDate })
  expect(today.total).toBe(placedToday)
  // New orders now come dated by the marketplace's clock: nothing is said of the times.
  sandbox.addOrders(5)
  await workspace.sync.sync()
  await workspace.sync.idle()
  expect(workspace.snapshot.syncState('orders').orderTimesReadRight).toBe(true)
  expect(workspace.dashboard('UTC').orderTimesNote).toBeNull()
  expect(workspace.snapshot.syncState('orders').complete).toBe(true)
  for (const order of workspace.snapshot.dump().orders) expect(order.orderDate, order.orderNo).toBe(placed.get(order.id))

  // Kept with the account: the snapshot opened again reads in it, and time columns a crash left half
  // written (here: all of them wrong, the zone kept but not marked written) are written on opening.
  await workspace.close()
  const { db } = openDatabase(snapshotFileFor(userDataDir, { demo: false, baseUrl: sandbox.baseUrl, sellerId: 'seller-1' }))
  db.exec('UPDATE orders SET order_ms = order_ms + 7200000; UPDATE order_time_zone SET columns_written = 0')
  db.close()
  workspace = openAccount()
  expect(workspace.orderTimeZone()).toEqual({ zone: 'Asia/Kolkata' })
  expect((await workspace.listOrders(around(Date.parse(placed.get(first!.id))))).rows.map((order) => order.id)).toContain(first!.id)
  await workspace.setOrderTimeZone(null)
  await workspace.sync.idle()
  for (const order of await rowsRead()) expect(Date.parse(order.orderDate) - Date.parse(placed.get(order.id))).toBe(330 * 60_000)
})

it('reads the filters’ choices once per write of their rows and follows every write: a sync, a delete', async () => {
  const statuses = workspace.snapshot.statuses()
  const facets = workspace.sellRequestFacets()
  expect(workspace.snapshot.statuses()).toBe(statuses) // the same answer, not read again
  expect(workspace.sellRequestFacets()).toBe(facets)
  // An order in a new status, written alone (as a sync's orders part writes it).
  const order = sandbox.state.orders[0]!
  sandbox.state.updateOrder(order.id, Date.now() - 1_000, (o) => {
    o.status = 'held-for-review'
  })
  const changed = await createSellerApi({ baseUrl: sandbox.baseUrl, apiKey: KEY }).listOrders({
    page: 1,
    take: 5,
    sortDir: 'DESC',
    fromDate: new Date(Date.now() - 60_000).toISOString()
  })
  await workspace.snapshot.applyChanges('orders', [{ rows: changed.orders, wire: changed.wire }], Date.now())
  expect(workspace.snapshot.statuses().orders).toContain('held-for-review')
  // A listing of a new brand, category and status on the marketplace, then a sync.
  const listing = sandbox.state.sellRequest(workspace.listSellRequests({ page: 1, take: 1, sortBy: 'updated', sortDir: 'DESC' }).rows[0]!.id)!
  const added = {
    ...listing,
    id: randomUUID(),
    brand: 'Fairphone',
    category: 'Repair kits',
    status: 'in-review',
    createdAt: Date.now() - 1_000,
    updatedAt: Date.now() - 1_000
  }
  sandbox.state.addSellRequest(added)
  await workspace.sync.sync()
  await workspace.sync.idle() // and the look through older orders after it
  expect(workspace.snapshot.statuses().sellRequests).toContain('in-review')
  expect(workspace.sellRequestFacets().brands).toContain('Fairphone')
  expect(workspace.sellRequestFacets().categories).toContain('Repair kits')
  await workspace.deleteSellRequest(added.id)
  expect(workspace.sellRequestFacets().brands).not.toContain('Fairphone')
  expect(workspace.snapshot.statuses().sellRequests).not.toContain('in-review')
})

it('an edit to a marketplace that wants both fields sends the other one as it is there now, not as last synced', async () => {
  sandbox.setVariant({ patchRequires: 'both' })
  const listing = workspace.listSellRequests({ page: 1, take: 1, sortBy: 'updated', sortDir: 'DESC' }).rows[0]!
  // A buyer bought some since the last sync: the marketplace's quantity moved on.
  sandbox.state.editSellRequest(listing.id, { quantity: listing.quantity - 3 }, Date.now())
  const edited = await workspace.editSellRequest(listing.id, { priceCents: listing.priceCents + 100 })
  expect(edited).toMatchObject({ priceCents: listing.priceCents + 100, quantity: listing.quantity - 3 })
  expect(sandbox.state.sellRequest(listing.id)).toMatchObject({ priceCents: listing.priceCents + 100, quantity: listing.quantity - 3 })
})

it('an edit the marketplace took but answered unreadably is read back: the listing as the marketplace holds it, new value and all', async () => {
  const listing = workspace.listSellRequests({ page: 1, take: 1, sortBy: 'updated', sortDir: 'ASC' }).rows[0]!
  for (const fault of ['malformed', 'wrong-types'] as const) {
    const priceCents = sandbox.state.sellRequest(listing.id)!.priceCents + 250
    sandbox.injectNext(fault, 1)
    const edited = await workspace.editSellRequest(listing.id, { priceCents })
    expect(edited, fault).toMatchObject({ id: listing.id, priceCents })
    expect(sandbox.state.sellRequest(listing.id)!.priceCents).toBe(priceCents)
    expect(workspace.snapshot.sellRequest(listing.id)!.priceCents, 'the snapshot holds the marketplace’s value').toBe(priceCents)
  }
})

it('an edit answered unreadably that cannot be read back is unconfirmed, said as most likely made, never as not changed', async () => {
  const listing = workspace.listSellRequests({ page: 1, take: 1, sortBy: 'updated', sortDir: 'ASC' }).rows[0]!
  // The PATCH's answer and the read-back's first page both garbled, the page also when asked again.
  sandbox.injectNext('malformed', 3)
  const error = await workspace.editSellRequest(listing.id, { quantity: listing.quantity + 7 }).catch((e: unknown) => e)
  expect(error).toMatchObject({ kind: 'unconfirmed' })
  const message = (error as Error).message
  expect(message).toMatch(/accepted the change, but its answer could not be read, so it was most likely made/)
  expect(message).toMatch(/could not read the listing back/)
  expect(message).not.toMatch(/not changed|not made/)
  expect(message).not.toContain(KEY)
  expect(sandbox.state.sellRequest(listing.id)!.quantity).toBe(listing.quantity + 7)
})

it('a delete the marketplace took but answered unreadably is checked by asking again: gone, and gone here', async () => {
  const [first, second] = workspace.listSellRequests({ page: 1, take: 2, sortBy: 'updated', sortDir: 'ASC' }).rows
  sandbox.injectNext('malformed', 1)
  expect(await workspace.deleteSellRequest(first!.id)).toEqual({ id: first!.id, alreadyDeleted: false })
  expect(sandbox.state.sellRequest(first!.id)).toBeUndefined()
  expect(workspace.snapshot.sellRequest(first!.id)).toBeNull()
  // The check garbled too: most likely deleted, not known; kept here until a sync says.
  sandbox.injectNext('malformed', 2)
  const error = await workspace.deleteSellRequest(second!.id).catch((e: unknown) => e)
  expect(error).toMatchObject({ kind: 'unconfirmed' })
  expect((error as Error).message).toMatch(/most likely deleted/)
  expect(sandbox.state.sellRequest(second!.id)).toBeUndefined()
})

it('an edit or delete whose answer never came is read back: made, it is done; not made, said as not changed with why; never read, said as maybe made', async () => {
  const [made, notMade, deleted, notDeleted, editUnchecked, deleteUnchecked] = workspace.listSellRequests({
    page: 1,
    take: 6,
    sortBy: 'updated',
    sortDir: 'ASC'
  }).rows
  // A lost connection puts the workspace offline, and the next answer back online with a sync: each fault
  // is queued once that sync has ended, for the request it is meant for.
  const next = async (fault: 'drop' | 'drop-after-handling', count: number) => {
    await workspace.sync.idle()
    sandbox.injectNext(fault, count)
  }
  // Made, then the connection lost before the answer: the edit is done, and the snapshot holds it.
  await next('drop-after-handling', 1)
  expect(await workspace.editSellRequest(made!.id, { priceCents: made!.priceCents + 300 })).toMatchObject({ id: made!.id, priceCents: made!.priceCents + 300 })
  expect(sandbox.state.sellRequest(made!.id)!.priceCents).toBe(made!.priceCents + 300)
  expect(workspace.snapshot.sellRequest(made!.id)!.priceCents).toBe(made!.priceCents + 300)

  // Lost before the marketplace made it: not changed, and why.
  await next('drop', 1)
  const error = await workspace.editSellRequest(notMade!.id, { quantity: notMade!.quantity + 7 }).catch((e: unknown) => e)
  expect(error).toMatchObject({ kind: 'server' })
  expect((error as Error).message).toMatch(
    /^The change was sent, but the marketplace's answer never came \(the connection was lost, it did not answer in time, or a gateway in front of it got no answer\)/
  )
  expect((error as Error).message).toMatch(/read back from the marketplace shows quantity [\d,]+, not the new value: it was not changed/)
  expect(sandbox.state.sellRequest(notMade!.id)!.quantity).toBe(notMade!.quantity)

  // A delete lost after it was made, or before: deleting is asked again, and either way it is gone.
  await next('drop-after-handling', 1)
  expect(await workspace.deleteSellRequest(deleted!.id)).toEqual({ id: deleted!.id, alreadyDeleted: false })
  expect(sandbox.state.sellRequest(deleted!.id)).toBeUndefined()
  expect(workspace.snapshot.sellRequest(deleted!.id)).toBeNull()
  await next('drop', 1)
  expect(await workspace.deleteSellRequest(notDeleted!.id)).toEqual({ id: notDeleted!.id, alreadyDeleted: false })
  expect(sandbox.state.sellRequest(notDeleted!.id)).toBeUndefined()

  // Lost, and the read-back unreadable (every answer garbled from then on): maybe made, as the failure it
  // was, never "most likely made" nor "not changed".
  await next('drop-after-handling', 1)
  sandbox.setFaults({ malformedRate: 1 })
  const notChecked = await workspace.editSellRequest(editUnchecked!.id, { quantity: editUnchecked!.quantity + 2 }).catch((e: unknown) => e)
  expect(notChecked).toMatchObject({ kind: 'network' })
  expect((notChecked as Error).message).toMatch(/answer never came .*, so it may or may not have been made\. Seller Desk could not read the listing back/)
  expect((notChecked as Error).message).not.toMatch(/most likely|not changed/)
  sandbox.setFaults({ malformedRate: 0 })
  await next('drop-after-handling', 1)
  sandbox.setFaults({ malformedRate: 1 })
  const deleteNotChecked = await workspace.deleteSellRequest(deleteUnchecked!.id).catch((e: unknown) => e)
  sandbox.setFaults({ malformedRate: 0 })
  expect(sandbox.state.sellRequest(deleteUnchecked!.id)).toBeUndefined()
  expect(deleteNotChecked).toMatchObject({ kind: 'network' })
  expect((deleteNotChecked as Error).message).toMatch(/answer never came .*, so the listing may or may not have been deleted\. Seller Desk could not check/)
})

it.each([
  {
    answer: 'a portal’s page in the way',
    type: 'text/html',
    body: '<html><title>Sign in to the network</title></html>',
    said: /^The marketplace accepted the change, but its answer could not be read, and the listing read back/
  },
  {
    answer: 'the marketplace refusing in its body (status 422)',
    type: 'application/json',
    body: JSON.stringify({ status: 422, message: 'Price must be at least $1.00', data: null }),
    said: /^The marketplace's answer said the change failed \(status 422: “Price must be at least \$1\.00”\), though it came as a success \(HTTP 200\), and the listing read back/
  }
])(
  'an edit answered 200 by $answer (nothing changed) is read back and said as not changed there, with the marketplace’s value and what the answer said',
  async ({ type, body, said }) => {
    // In front of the marketplace: lists pass through; a PATCH gets this answer and never arrives.
    const portal = createServer((request, response) => {
      if (request.method === 'PATCH') {
        request.resume()
        response.writeHead(200, { 'content-type': type })
        return void response.end(body)
      }
      void fetch(`${sandbox.baseUrl}${request.url}`, { headers: { 'x-api-key': KEY } }).then(async (upstream) => {
        response.writeHead(upstream.status, { 'content-type': 'application/json' })
        response.end(await upstream.text())
      })
    })
    await new Promise<void>((done) => portal.listen(0, '127.0.0.1', () => done()))
    const behind = openWorkspace({
      userDataDir: mkdtempSync(join(tmpdir(), 'seller-desk-workspace-')),
      account: { demo: false, baseUrl: `http://127.0.0.1:${(portal.address() as AddressInfo).port}`, sellerId: 'seller-1' },
      api: createSellerApi({ baseUrl: `http://127.0.0.1:${(portal.address() as AddressInfo).port}`, apiKey: KEY, retries: 0 }),
      settings: () => settings,
      emit: () => undefined
    })
    try {
      await behind.sync.sync()
      await behind.sync.idle() // and the look through older orders after it
      const listing = behind.listSellRequests({ page: 1, take: 1, sortBy: 'updated', sortDir: 'DESC' }).rows[0]!
      const error = await behind.editSellRequest(listing.id, { priceCents: listing.priceCents + 500 }).catch((e: unknown) => e)
      expect(error).toMatchObject({ kind: 'server' })
      expect((error as Error).message).toMatch(said)
      expect((error as Error).message).toMatch(/read back from the marketplace shows price \$[\d,]+\.\d\d, not the new value: it was not changed/)
      expect(sandbox.state.sellRequest(listing.id)!.priceCents).toBe(listing.priceCents)
      expect(behind.snapshot.sellRequest(listing.id)!.priceCents).toBe(listing.priceCents)
    } finally {
      await behind.close()
      portal.closeAllConnections()
      await new Promise<void>((done) => portal.close(() => done()))
    }
  }
)
