/**
 * Every page of a filtered list, early or late (a page past the middle is read from the other end and
 * turned back), holds the rows the whole list, sorted, puts there; a page past the end holds none.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../sandbox'
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
/** Ids in SQLite's order (BINARY: code units, as for these ASCII ids). */
const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
const pagesOf = (total: number) => Array.from({ length: Math.ceil(total / TAKE) + 1 }, (_, i) => i + 1)

it('orders by total and by date, filtered by status, both ways', () => {
  const { orders } = workspace.snapshot.dump()
  const counts = new Map<string, number>()
  for (const order of orders) counts.set(order.status, (counts.get(order.status) ?? 0) + 1)
  const statuses = [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 2)
    .map(([status]) => status)
  const matching = orders.filter((order) => statuses.includes(order.status))
  expect(Math.ceil(matching.length / TAKE)).toBeGreaterThan(4)
  for (const [sortBy, key] of [
    ['total', (order: (typeof orders)[number]) => order.totalCents],
    ['date', (order: (typeof orders)[number]) => Date.parse(order.orderDate)]
  ] as const) {
    for (const sortDir of ['ASC', 'DESC'] as const) {
      const sorted = [...matching].sort((a, b) => key(a) - key(b) || byId(a, b))
      if (sortDir === 'DESC') sorted.reverse()
      for (const page of pagesOf(sorted.length)) {
        const answer = workspace.snapshot.queryOrders({ page, take: TAKE, sortBy, sortDir, statuses })
        expect(answer.total).toBe(sorted.length)
        expect(
          answer.rows.map((order) => order.id),
          `${sortBy} ${sortDir} page ${page}`
        ).toEqual(sorted.slice((page - 1) * TAKE, page * TAKE).map((order) => order.id))
      }
    }
  }
})

it('sell requests by price and by last update, filtered by brand, both ways', () => {
  const { sellRequests } = workspace.snapshot.dump()
  const counts = new Map<string, number>()
  for (const listing of sellRequests) counts.set(listing.brand, (counts.get(listing.brand) ?? 0) + 1)
  const brands = [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 2)
    .map(([brand]) => brand)
  const matching = sellRequests.filter((listing) => brands.includes(listing.brand))
  expect(Math.ceil(matching.length / TAKE)).toBeGreaterThan(4)
  for (const [sortBy, key] of [
    ['price', (listing: (typeof sellRequests)[number]) => listing.priceCents],
    ['updated', (listing: (typeof sellRequests)[number]) => Date.parse(listing.updatedAt)]
  ] as const) {
    for (const sortDir of ['ASC', 'DESC'] as const) {
      const sorted = [...matching].sort((a, b) => key(a) - key(b) || byId(a, b))
      if (sortDir === 'DESC') sorted.reverse()
      for (const page of pagesOf(sorted.length)) {
        const answer = workspace.snapshot.querySellRequests({ page, take: TAKE, sortBy, sortDir, brands })
        expect(answer.total).toBe(sorted.length)
        expect(
          answer.rows.map((listing) => listing.id),
          `${sortBy} ${sortDir} page ${page}`
        ).toEqual(sorted.slice((page - 1) * TAKE, page * TAKE).map((listing) => listing.id))
      }
    }
  }
})
