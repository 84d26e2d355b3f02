/**
 * Every page of a filtered list, early or late (a page past the middle is read from the other end and
 * turned back), holds the rows the whole list, sorted, puts there; a page past the end holds none. A
 * search (read in one pass, counted when its page is full) says the same total on every page, none included.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../sandbox'
import type { Order, Page, SellRequest } from '../../shared/domain'
import { syncedWorkspace } from '../bulkEdit/syncedWorkspace.fixture'
import type { Workspace } from '../workspace'

const KEY = 'sk_test_list_pages_123456'
let sandbox: Sandbox
let workspace: Workspace

beforeAll(async () => {
  sandbox = await startSandbox({ apiKey: KEY, orders: 400, sellRequests: 300, seed: 12, now: new Date() })
  workspace = await syncedWorkspace(sandbox, KEY, 'list-pages')
})
afterAll(async () => {
  await workspace.close()
  await sandbox.close()
})

const TAKE = 7

/** The `n` values found most often. */
function mostCommon(values: string[], n: number): string[] {
  const counts = new Map<string, number>()
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1)
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([value]) => value)
}

/**
 * The rows sorted by `key` (then id, in SQLite's BINARY order: code units, as for these ASCII ids) each
 * way, and each page `read` gives for that order, from the first to one past the last.
 */
function expectEveryPage<T extends { id: string }>(rows: T[], key: (row: T) => number, read: (page: number, sortDir: 'ASC' | 'DESC') => Page<T>) {
  expect(Math.ceil(rows.length / TAKE)).toBeGreaterThan(4)
  for (const sortDir of ['ASC', 'DESC'] as const) {
    const sorted = [...rows].sort((a, b) => key(a) - key(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    if (sortDir === 'DESC') sorted.reverse()
    for (let page = 1; page <= Math.ceil(sorted.length / TAKE) + 1; page++) {
      const answer = read(page, sortDir)
      expect(answer.total).toBe(sorted.length)
      expect(
        answer.rows.map((row) => row.id),
        `${sortDir} page ${page}`
      ).toEqual(sorted.slice((page - 1) * TAKE, page * TAKE).map((row) => row.id))
    }
  }
}

it('orders by total and by date, filtered by status, both ways', () => {
  const { orders } = workspace.snapshot.dump()
  const statuses = mostCommon(
    orders.map((order) => order.status),
    2
  )
  const matching = orders.filter((order) => statuses.includes(order.status))
  expectEveryPage(
    matching,
    (order) => order.totalCents,
    (page, sortDir) => workspace.snapshot.queryOrders({ page, take: TAKE, sortBy: 'total', sortDir, statuses })
  )
  expectEveryPage(
    matching,
    (order) => Date.parse(order.orderDate),
    (page, sortDir) => workspace.snapshot.queryOrders({ page, take: TAKE, sortBy: 'date', sortDir, statuses })
  )
})

it('orders with items in a status, as the list reads them (counted with their units), by total and by date, both ways', async () => {
  const { orders } = workspace.snapshot.dump()
  const itemStatuses = mostCommon(
    orders.flatMap((order) => order.items.map((item) => item.status)),
    1
  )
  const matching = orders.filter((order) => order.items.some((item) => itemStatuses.includes(item.status)))
  expect(matching.length).toBeLessThan(orders.length)
  const units = matching.flatMap((order) => order.items.filter((item) => itemStatuses.includes(item.status))).reduce((sum, item) => sum + item.quantity, 0)
  for (const sortBy of ['total', 'date'] as const) {
    const pages = new Map<string, Awaited<ReturnType<Workspace['listOrders']>>>()
    for (const sortDir of ['ASC', 'DESC'] as const)
      for (let page = 1; page <= Math.ceil(matching.length / TAKE) + 1; page++)
        pages.set(`${sortDir} ${page}`, await workspace.listOrders({ page, take: TAKE, sortBy, sortDir, itemStatuses }))
    for (const answer of pages.values()) expect(answer.itemUnits).toEqual({ orders: matching.length, units: [{ status: itemStatuses[0], units }] })
    expectEveryPage(
      matching,
      (order) => (sortBy === 'total' ? order.totalCents : Date.parse(order.orderDate)),
      (page, sortDir) => pages.get(`${sortDir} ${page}`)!
    )
  }
})

it('sell requests by price and by last update, filtered by brand, both ways', () => {
  const { sellRequests } = workspace.snapshot.dump()
  const brands = mostCommon(
    sellRequests.map((listing) => listing.brand),
    2
  )
  const matching = sellRequests.filter((listing) => brands.includes(listing.brand))
  expectEveryPage(
    matching,
    (listing) => listing.priceCents,
    (page, sortDir) => workspace.snapshot.querySellRequests({ page, take: TAKE, sortBy: 'price', sortDir, brands })
  )
  expectEveryPage(
    matching,
    (listing) => Date.parse(listing.updatedAt),
    (page, sortDir) => workspace.snapshot.querySellRequests({ page, take: TAKE, sortBy: 'updated', sortDir, brands })
  )
})

/** The texts a seller's search looks in, lowercased (orderTable's and sellRequestTable's searchText). */
const orderTexts = (order: Order) =>
  [order.orderNo, ...order.items.flatMap((item) => [item.name, item.shipment, item.tracking?.trackingNumber])]
    .filter((text): text is string => Boolean(text))
    .map((text) => text.toLowerCase())

it('orders searched by a word of their products, alone and with a status, both ways', () => {
  const { orders } = workspace.snapshot.dump()
  const [word] = mostCommon(
    orders.flatMap((order) => order.items.map((item) => item.name.split(' ')[0]!.toLowerCase())),
    1
  )
  const matching = orders.filter((order) => orderTexts(order).some((text) => text.includes(word!)))
  expect(matching.length).toBeLessThan(orders.length)
  expectEveryPage(
    matching,
    (order) => order.totalCents,
    (page, sortDir) => workspace.snapshot.queryOrders({ page, take: TAKE, sortBy: 'total', sortDir, searchTerm: word!.toUpperCase() })
  )
  const [status] = mostCommon(
    matching.map((order) => order.status),
    1
  )
  expectEveryPage(
    matching.filter((order) => order.status === status),
    (order) => Date.parse(order.orderDate),
    (page, sortDir) => workspace.snapshot.queryOrders({ page, take: TAKE, sortBy: 'date', sortDir, searchTerm: ` ${word!} `, statuses: [status!] })
  )
})

it('a search for one order number finds it on the first page and says so on the next; a search for nothing says 0', () => {
  const { orders } = workspace.snapshot.dump()
  const order = orders[Math.floor(orders.length / 2)]!
  const holders = orders.filter((other) => orderTexts(other).some((text) => text.includes(order.orderNo.toLowerCase())))
  expect(holders.length).toBeLessThan(TAKE)
  const first = workspace.snapshot.queryOrders({ page: 1, take: TAKE, sortBy: 'date', sortDir: 'DESC', searchTerm: order.orderNo })
  expect(first.total).toBe(holders.length)
  expect(first.rows.map((row) => row.id)).toContain(order.id)
  const second = workspace.snapshot.queryOrders({ page: 2, take: TAKE, sortBy: 'date', sortDir: 'DESC', searchTerm: order.orderNo })
  expect(second).toMatchObject({ total: holders.length, rows: [] })
  for (const page of [1, 2]) {
    expect(workspace.snapshot.queryOrders({ page, take: TAKE, sortBy: 'total', sortDir: 'ASC', searchTerm: 'no such text 7f3e' })).toMatchObject({
      total: 0,
      rows: []
    })
    expect(workspace.snapshot.querySellRequests({ page, take: TAKE, sortBy: 'price', sortDir: 'ASC', searchTerm: 'no such text 7f3e' })).toMatchObject({
      total: 0,
      rows: []
    })
  }
})

it('sell requests searched by a word of their names, alone and with a price range, both ways', () => {
  const { sellRequests } = workspace.snapshot.dump()
  const [word] = mostCommon(
    sellRequests.map((listing) => listing.name.split(' ')[0]!.toLowerCase()),
    1
  )
  const named = (listing: SellRequest) => [listing.name, listing.sku, listing.brand].some((text) => text.toLowerCase().includes(word!))
  const matching = sellRequests.filter(named)
  expect(matching.length).toBeLessThan(sellRequests.length)
  expectEveryPage(
    matching,
    (listing) => listing.priceCents,
    (page, sortDir) => workspace.snapshot.querySellRequests({ page, take: TAKE, sortBy: 'price', sortDir, searchTerm: word! })
  )
  const prices = matching.map((listing) => listing.priceCents).sort((a, b) => a - b)
  const minPriceCents = prices[Math.floor(prices.length / 4)]!
  expectEveryPage(
    matching.filter((listing) => listing.priceCents >= minPriceCents),
    (listing) => listing.quantity,
    (page, sortDir) => workspace.snapshot.querySellRequests({ page, take: TAKE, sortBy: 'quantity', sortDir, searchTerm: word!, minPriceCents })
  )
})
