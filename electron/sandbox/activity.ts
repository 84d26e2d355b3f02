/**
 * Simulated marketplace activity while the sandbox runs: buyers placing new orders, and existing
 * orders moving along (an item getting ready to ship). Drawn from its own seeded generator, so the
 * same sequence of calls gives the same data; only the timestamps follow the sandbox clock.
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
  const pool: OrderRecord[] = [...state.orders]
  const n = Math.min(count, pool.length)
  const ids: string[] = []
  for (let i = 0; i < n; i++) {
    const j = random.int(i, pool.length - 1)
    const order = pool[j] as OrderRecord
    pool[j] = pool[i] as OrderRecord
    state.updateOrder(order.id, clock(), readyOneItem)
    ids.push(order.id)
  }
  return ids
}

function readyOneItem(order: OrderRecord): void {
  const item = order.items.find((candidate) => candidate.status === 'awaiting-shipment')
  if (!item) return
  item.status = 'ready-to-ship'
  item.possibleStatuses = ['seller-shipped', 'canceled']
}
