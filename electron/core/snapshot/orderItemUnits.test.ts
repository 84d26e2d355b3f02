/**
 * The Orders list's item units (all pages) agree with the dashboard's "units awaiting shipment / ready
 * to ship", and with the items of the orders the list shows, whatever else narrows the list.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../sandbox'
import { everyListedOrder, syncedWorkspace } from '../bulkEdit/syncedWorkspace.fixture'
import type { Order } from '../../shared/domain'
import type { Workspace } from '../workspace'

const KEY = 'sk_test_item_units_123456'
const ZONE = 'Europe/Berlin'
let sandbox: Sandbox
let workspace: Workspace

beforeAll(async () => {
  sandbox = await startSandbox({ apiKey: KEY, orders: 140, sellRequests: 40, seed: 23, now: new Date() })
  // An item status the spec does not name, on two orders in different order statuses.
  sandbox.state.orders.slice(0, 2).forEach((order, i) => {
    sandbox.state.updateOrder(order.id, Date.now() - 1_000, (o) => {
      o.items[0]!.status = 'partially-shipped'
      o.status = i === 0 ? 'on-hold' : 'payment-confirmed'
    })
  })
  workspace = await syncedWorkspace(sandbox, KEY, 'item-units')
})
afterAll(async () => {
  await workspace.close()
  await sandbox.close()
})

const unitsIn = (orders: Order[], status: string) =>
  orders.flatMap((order) => order.items).reduce((sum, item) => (item.status === status ? sum + item.quantity : sum), 0)

const base = { page: 1, take: 25, sortBy: 'date', sortDir: 'DESC' } as const

it('filtered by one item status, the list says the dashboard’s units and orders for it', async () => {
  const dashboard = workspace.dashboard(ZONE)
  for (const figure of [dashboard.awaitingShipment, dashboard.readyToShip]) {
    const { itemUnits, total } = await workspace.listOrders({ ...base, itemStatuses: [figure.status] })
    expect(figure.units).toBeGreaterThan(0)
    expect(itemUnits).toEqual({ orders: figure.orders, units: [{ status: figure.status, units: figure.units }] })
    expect(total).toBe(figure.orders)
  }
})

it('adds up to the items of the listed orders, for several statuses, an unknown one, and other filters', async () => {
  const queries = [
    { itemStatuses: ['awaiting-shipment', 'ready-to-ship'] },
    { itemStatuses: ['partially-shipped'] },
    { itemStatuses: ['ready-to-ship', 'partially-shipped'], searchTerm: 'a' },
    { itemStatuses: ['awaiting-shipment'], fromDate: new Date(Date.now() - 7 * 86_400_000).toISOString(), toDate: new Date().toISOString() }
  ]
  for (const query of queries) {
    const listed = await everyListedOrder(workspace, { ...base, ...query })
    const { itemUnits } = await workspace.listOrders({ ...base, ...query })
    expect(itemUnits, JSON.stringify(query)).toEqual({
      orders: listed.length,
      units: query.itemStatuses.map((status) => ({ status, units: unitsIn(listed, status) }))
    })
  }
  expect(unitsIn(await everyListedOrder(workspace, { ...base, itemStatuses: ['partially-shipped'] }), 'partially-shipped')).toBeGreaterThan(0)
})

it('says nothing of units when the list is not filtered by item status', async () => {
  expect((await workspace.listOrders(base)).itemUnits).toBeNull()
})
