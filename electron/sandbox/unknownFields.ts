/**
 * What a marketplace that grew past the spec sends: fields the spec does not name, an unknown
 * property key, and status values outside the ones the spec lists (its complete sets are "not
 * shown"). Drawn from the row's id and the variant seed, so a row looks the same on every read.
 */
import { Random } from './random'
import type { WireOrder, WireOrderItem, WireSellRequest } from './wire'

const WAREHOUSES = ['WH-1', 'WH-2', 'WH-3'] as const
const TAGS = ['bulk', 'fast-ship', 'clearance', 'new-arrival'] as const
const REGIONS = ['EU', 'US', 'APAC'] as const
const CHANNELS = ['api', 'web', 'mobile'] as const
const SELL_REQUEST_STATUSES = ['paused', 'pending-review', 'suspended'] as const
const ORDER_STATUSES = ['partially-shipped', 'on-hold'] as const
const ITEM_STATUSES = ['in-transit', 'delivered'] as const
/** Share of rows whose status is one the spec does not list. */
const UNKNOWN_STATUS_SHARE = 0.3

export function withUnknownSellRequestFields(sellRequest: WireSellRequest, seed: number): WireSellRequest {
  const random = rowRandom(sellRequest.id, seed)
  const tags = TAGS.filter(() => random.chance(0.4))
  return {
    ...sellRequest,
    status: random.chance(UNKNOWN_STATUS_SHARE) ? random.pick(SELL_REQUEST_STATUSES) : sellRequest.status,
    properties: { ...sellRequest.properties, region: random.pick(REGIONS) },
    warehouse: random.pick(WAREHOUSES),
    tags
  } as WireSellRequest
}

export function withUnknownOrderFields(order: WireOrder, seed: number): WireOrder {
  const random = rowRandom(order.id, seed)
  return {
    ...order,
    status: random.chance(UNKNOWN_STATUS_SHARE) ? random.pick(ORDER_STATUSES) : order.status,
    channel: random.pick(CHANNELS),
    items: order.items.map((item) => withUnknownItemFields(item, seed))
  } as WireOrder
}

function withUnknownItemFields(item: WireOrderItem, seed: number): WireOrderItem {
  const random = rowRandom(item.id, seed)
  const serialNumbers = Array.from({ length: Math.min(item.quantity, 3) }, () => `SN${random.digits(10)}`)
  return {
    ...item,
    status: random.chance(UNKNOWN_STATUS_SHARE) ? random.pick(ITEM_STATUSES) : item.status,
    properties: { ...item.properties, region: random.pick(REGIONS) },
    serialNumbers
  } as WireOrderItem
}

/** A generator for one row: FNV-1a of its id, mixed with the seed. */
function rowRandom(id: string, seed: number): Random {
  let hash = 0x811c9dc5
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193) >>> 0
  return new Random((hash ^ Math.imul(Math.trunc(seed) | 0, 0x9e3779b1)) >>> 0)
}
