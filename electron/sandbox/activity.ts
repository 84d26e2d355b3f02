/**
 * Simulated marketplace activity while the sandbox runs: buyers placing new orders, existing
 * orders moving along (an item getting ready to ship), and, as churn, the seller's other tools
 * adding, editing and withdrawing sell requests. Drawn from a seeded generator, so the same
 * sequence of calls gives the same data; only the timestamps follow the sandbox clock.
 */
import type { MarketplaceState, OrderRecord, SellRequestRecord } from './marketplace'
import type { Random } from './random'
import { newOrder, newSellRequest } from './seed'

/** Places `count` new orders, each stamped with a fresh instant from `clock` (epoch ms). Returns their ids. */
export function placeOrders(state: MarketplaceState, random: Random, count: number, clock: () => number): string[] {
  const ids: string[] = []
  for (let i = 0; i < count; i++) {
    const at = clock()
    const listings = state.sellRequests
    const listing = (): SellRequestRecord =>
      listings.length > 0
        ? (listings[Math.floor(random.next() * listings.length)] as SellRequestRecord)
        : // Every sell request has been deleted: the order names a listing that no longer exists.
          newSellRequest(random, state.sellerId, at)
    const order = newOrder(random, listing, {
      orderNo: String(state.latestOrderNo + random.int(1, 37)),
      // Placed within the millisecond before it was recorded, so orderDate ≤ updatedAt.
      orderDateMicros: at * 1000 - random.int(0, 999),
      updatedAt: at
    })
    state.addOrder(order)
    ids.push(order.id)
  }
  return ids
}

/**
 * Updates `count` distinct existing orders (all of them when there are fewer), chosen at random:
 * each is stamped with a fresh instant from `clock`, and its first item awaiting shipment, if any,
 * becomes ready to ship. Returns their ids.
 */
export function advanceOrders(state: MarketplaceState, random: Random, count: number, clock: () => number): string[] {
  return distinctPicks(state.orders, count, random).map((order) => {
    state.updateOrder(order.id, clock(), readyOneItem)
    return order.id
  })
}

/**
 * A bulk change made on the marketplace's website (a price change across listings, a CSV upload, a
 * batch of orders moved on at once): `count` distinct sell requests or orders (all of them when there
 * are fewer), chosen at random, every one stamped with the same instant `at`. A sell request's price is
 * cut by 5%; an order's first item awaiting shipment, if any, becomes ready to ship. Returns their ids.
 */
export function changeTogether(state: MarketplaceState, random: Random, resource: 'sellRequests' | 'orders', count: number, at: number): string[] {
  if (resource === 'orders') {
    const orders = distinctPicks(state.orders, count, random)
    for (const order of orders) state.updateOrder(order.id, at, readyOneItem)
    return orders.map((order) => order.id)
  }
  const sellRequests = distinctPicks(state.sellRequests, count, random)
  for (const { id, priceCents } of sellRequests) {
    const cut = Math.max(100, Math.round(priceCents * 0.95))
    // A price at the floor goes up a cent instead: every row changes.
    state.editSellRequest(id, { priceCents: cut !== priceCents ? cut : priceCents + 1 }, at)
  }
  return sellRequests.map((sellRequest) => sellRequest.id)
}

/** `count` distinct rows of the list (all of them when there are fewer), drawn before any is changed. */
function distinctPicks<T>(list: readonly T[], count: number, random: Random): T[] {
  const pool = [...list]
  const n = Math.min(count, pool.length)
  for (let i = 0; i < n; i++) {
    const j = random.int(i, pool.length - 1)
    ;[pool[i], pool[j]] = [pool[j] as T, pool[i] as T]
  }
  return pool.slice(0, n)
}

function readyOneItem(order: OrderRecord): void {
  const item = order.items.find((candidate) => candidate.status === 'awaiting-shipment')
  if (!item) return
  item.status = 'ready-to-ship'
  item.possibleStatuses = ['seller-shipped', 'canceled']
}

/** What one round of churn changed, by id. */
export interface ChurnSummary {
  ordersPlaced: string[]
  ordersUpdated: string[]
  sellRequestsAdded: string[]
  sellRequestsEdited: string[]
  sellRequestsDeleted: string[]
}

type Change = keyof ChurnSummary

/**
 * Makes `count` random changes of every kind in ChurnSummary, each stamped with a fresh instant
 * from `clock`, as a busy marketplace changes while a client pages through it. A kind that has
 * nothing to act on (no orders to update, no sell requests to edit or delete) is not drawn.
 */
export function churn(state: MarketplaceState, random: Random, count: number, clock: () => number): ChurnSummary {
  const summary: ChurnSummary = { ordersPlaced: [], ordersUpdated: [], sellRequestsAdded: [], sellRequestsEdited: [], sellRequestsDeleted: [] }
  for (let i = 0; i < count; i++) {
    const changes: Change[] = ['ordersPlaced', 'sellRequestsAdded']
    if (state.orders.length > 0) changes.push('ordersUpdated')
    if (state.sellRequests.length > 0) changes.push('sellRequestsEdited', 'sellRequestsDeleted')
    const change = random.pick(changes)
    switch (change) {
      case 'ordersPlaced':
        summary.ordersPlaced.push(...placeOrders(state, random, 1, clock))
        break
      case 'ordersUpdated':
        summary.ordersUpdated.push(...advanceOrders(state, random, 1, clock))
        break
      case 'sellRequestsAdded':
        summary.sellRequestsAdded.push(addSellRequest(state, random, clock()))
        break
      case 'sellRequestsEdited':
        summary.sellRequestsEdited.push(editSellRequest(state, random, random.pick(state.sellRequests), clock()))
        break
      case 'sellRequestsDeleted': {
        const { id } = random.pick(state.sellRequests)
        state.deleteSellRequest(id)
        summary.sellRequestsDeleted.push(id)
        break
      }
    }
  }
  return summary
}

/** A sell request listed just now. Returns its id. */
function addSellRequest(state: MarketplaceState, random: Random, at: number): string {
  const sellRequest = { ...newSellRequest(random, state.sellerId, at), createdAt: at, updatedAt: at }
  state.addSellRequest(sellRequest)
  return sellRequest.id
}

/** A new price (within 10% of the old, at most the MSRP), a new quantity, or both. Returns the id. */
function editSellRequest(state: MarketplaceState, random: Random, sellRequest: SellRequestRecord, at: number): string {
  const what = random.int(0, 2)
  const priceCents = Math.min(sellRequest.msrpCents, Math.max(100, Math.round(sellRequest.priceCents * (0.9 + 0.2 * random.next()))))
  const quantity = random.int(0, 500)
  state.editSellRequest(sellRequest.id, what === 0 ? { priceCents } : what === 1 ? { quantity } : { priceCents, quantity }, at)
  return sellRequest.id
}
