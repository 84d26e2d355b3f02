/**
 * Seeded demo data: a seller's sell requests, then orders that bought from them, each as far along its
 * life as its age makes likely: the newest paid and waiting to be prepared or shipped, then shipped,
 * then delivered, with some canceled or refunded (see `settleOrder`). An order's hidden last update is
 * when it last moved, so "created or updated since" (the API's `fromDate`) picks what a seller expects.
 * The same options (seed, counts, now, sellerId) always give the same marketplace.
 */
import { BRAND_CODES, CATEGORY_BY_KIND, DEVICE_MODELS, GRADES, NETWORK_CARRIERS, SHIPPING_CARRIERS, slugOf, type DeviceModel } from './catalog'
import { MarketplaceState, type OrderItemRecord, type OrderRecord, type SellRequestRecord } from './marketplace'
import { Random } from './random'

/** The default "now" of generated data, fixed so that a seed always gives the same dates. */
export const DEFAULT_NOW = new Date('2026-11-20T12:00:00.000Z')

export interface MarketplaceOptions {
  seed: number
  orders: number
  sellRequests: number
  /** Default: a UUID drawn from the seed. */
  sellerId?: string
  /** Default: DEFAULT_NOW. Every generated instant is at least a minute before it. */
  now?: Date
}

const MINUTE = 60_000
const DAY = 24 * 60 * MINUTE
const ORDER_HISTORY = 120 * DAY
const SELL_REQUEST_HISTORY = 365 * DAY
/** The youngest generated order, so that even its later updates stay before "now". */
const YOUNGEST_ORDER = 30 * MINUTE

export function generateMarketplace(options: MarketplaceOptions): MarketplaceState {
  const { seed } = options
  const orderCount = count(options.orders, 'orders')
  const sellRequestCount = count(options.sellRequests, 'sellRequests')
  const now = options.now ?? DEFAULT_NOW
  const nowMs = now.getTime()
  if (Number.isNaN(nowMs)) throw new RangeError('now must be a valid date')

  const random = new Random(seed)
  const sellerId = options.sellerId ?? random.uuid()

  const sellRequests: SellRequestRecord[] = new Array(sellRequestCount)
  for (let i = 0; i < sellRequestCount; i++) sellRequests[i] = newSellRequest(random, sellerId, nowMs)

  // Order dates over the last ORDER_HISTORY, denser towards now (age ∝ u²), then numbered in date order.
  const orderDates: number[] = new Array(orderCount)
  for (let i = 0; i < orderCount; i++) {
    const ageMs = YOUNGEST_ORDER + Math.floor((ORDER_HISTORY - YOUNGEST_ORDER) * random.next() ** 2)
    orderDates[i] = (nowMs - ageMs) * 1000 - random.int(0, 999)
  }
  orderDates.sort((a, b) => a - b)

  const listing = (): SellRequestRecord =>
    sellRequestCount > 0 ? (sellRequests[Math.floor(random.next() * sellRequestCount)] as SellRequestRecord) : newSellRequest(random, sellerId, nowMs)

  // Where each order is in its life comes from a stream of its own, so ids, items and dates stay those
  // every seed gave before orders had a life.
  const lives = new Random(seed ^ 0x6c1fe)
  const orders: OrderRecord[] = new Array(orderCount)
  let orderNo = random.int(1_000_000, 8_000_000)
  for (let i = 0; i < orderCount; i++) {
    const orderDateMicros = orderDates[i] as number
    orderNo += random.int(1, 37)
    const placedMs = Math.ceil(orderDateMicros / 1000)
    const updatedAt = placedMs + random.int(30_000, 20 * MINUTE)
    // Drawn and unused (a late update at random): keeps the draws of the orders after this one.
    if (random.chance(0.35)) random.next()
    const order = newOrder(random, listing, { orderNo: String(orderNo), orderDateMicros, updatedAt: Math.min(updatedAt, nowMs - MINUTE) })
    orders[i] = settleOrder(order, lives, nowMs)
  }

  return new MarketplaceState({ sellerId, generatedAt: now, sellRequests, orders })
}

function count(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be a non-negative integer`)
  return value
}

const MODEL_WEIGHT_TOTAL = DEVICE_MODELS.reduce((sum, model) => sum + model.popularity, 0)

function pickModel(random: Random): DeviceModel {
  let target = random.next() * MODEL_WEIGHT_TOTAL
  for (const model of DEVICE_MODELS) {
    target -= model.popularity
    if (target < 0) return model
  }
  return DEVICE_MODELS[DEVICE_MODELS.length - 1] as DeviceModel
}

const MIN_QUANTITIES = [1, 1, 1, 1, 1, 2, 2, 3, 5, 10] as const

/** A new sell request listed by `seller` some time before `nowMs`. */
export function newSellRequest(random: Random, seller: string, nowMs: number): SellRequestRecord {
  const model = pickModel(random)
  const storageIndex = random.int(0, model.storages.length - 1)
  const storage = model.storages[storageIndex] as string
  const color = random.pick(model.colors)
  const grade = random.pickWeighted(GRADES, (g) => g.weight)
  const carrier = random.pick(NETWORK_CARRIERS[model.kind])

  const msrpCents = model.msrpCents + storageIndex * model.storageStepCents
  let priceCents = Math.round(msrpCents * grade.priceFactor * (0.85 + 0.15 * random.next()))
  if (random.chance(0.35)) priceCents = Math.floor(priceCents / 100) * 100
  priceCents = Math.min(msrpCents, Math.max(100, priceCents))

  const stock = random.next()
  const quantity = stock < 0.05 ? 0 : stock < 0.15 ? random.int(1, 4) : random.int(5, 500)
  const minQuantity = random.pick(MIN_QUANTITIES)

  const state = random.next()
  const status = state < 0.97 ? 'open' : state < 0.99 ? 'paused' : 'closed'

  const createdAt = nowMs - random.int(10 * MINUTE, SELL_REQUEST_HISTORY)
  const updatedAt = random.chance(0.4) ? createdAt : createdAt + Math.floor((nowMs - MINUTE - createdAt) * random.next())

  const sku = `${BRAND_CODES[model.brand] ?? 'GEN'}-${model.code}-${storageCode(storage)}-${colorCode(color)}-${grade.code}-${random.hex(2).toUpperCase()}`

  return {
    id: random.uuid(),
    name: productName(model, storageIndex),
    category: CATEGORY_BY_KIND[model.kind],
    brand: model.brand,
    priceCents,
    msrpCents,
    sku,
    status,
    quantity,
    minQuantity,
    properties: { color, grade: grade.name, carrier, storage },
    seller,
    image: imageName(model, color),
    createdAt,
    updatedAt
  }
}

// Names and image names repeat across sell requests: one shared string each, built once.
const PRODUCT_NAMES = new Map(
  DEVICE_MODELS.map((model) => [model, model.storages.map((storage) => (model.kind === 'watch' ? model.name : `${model.name} ${storage}`))])
)
const IMAGE_NAMES = new Map(DEVICE_MODELS.map((model) => [model, new Map(model.colors.map((color) => [color, `${model.slug}--${slugOf(color)}`]))]))

/** "iPhone 15 Pro" with its 2nd storage option → "iPhone 15 Pro 256GB"; watches go by model name alone. */
function productName(model: DeviceModel, storageIndex: number): string {
  return PRODUCT_NAMES.get(model)?.[storageIndex] ?? model.name
}

/** The product image name, "<model-slug>--<color-slug>" (see productImage.ts). */
function imageName(model: DeviceModel, color: string): string {
  return IMAGE_NAMES.get(model)?.get(color) ?? `${model.slug}--${slugOf(color)}`
}

/** "256GB" → "256", "1TB" → "1T". */
function storageCode(storage: string): string {
  return storage.replace(/GB$/, '').replace(/TB$/, 'T')
}

const COLOR_CODES = new Map<string, string>()

/** "Natural Titanium" → "NATTIT". */
function colorCode(color: string): string {
  let code = COLOR_CODES.get(color)
  if (code === undefined) {
    code = color
      .split(' ')
      .map((word) => word.slice(0, 3).toUpperCase())
      .join('')
    COLOR_CODES.set(color, code)
  }
  return code
}

const ITEM_QUANTITIES = [1, 1, 1, 2, 2, 3, 4, 5, 10, 20, 25, 50] as const

/** A new order buying from sell requests chosen by `listing` (distinct where possible). */
export function newOrder(random: Random, listing: () => SellRequestRecord, at: { orderNo: string; orderDateMicros: number; updatedAt: number }): OrderRecord {
  const size = random.next()
  const itemCount = size < 0.7 ? 1 : size < 0.88 ? 2 : size < 0.95 ? 3 : random.int(4, 6)

  const shipping = random.pickWeighted(SHIPPING_CARRIERS, (c) => c.weight)
  const trackingNumber = shipping.trackingNumber(random)
  const shipment = `shp_${random.hex(16)}`
  const trackerId = `trk_${random.hex(16)}`

  const chosen = new Set<string>()
  const items: OrderItemRecord[] = []
  for (let i = 0; i < itemCount; i++) {
    let sellRequest = listing()
    for (let attempt = 0; attempt < 8 && chosen.has(sellRequest.id); attempt++) sellRequest = listing()
    if (chosen.has(sellRequest.id)) continue
    chosen.add(sellRequest.id)

    const quantity = Math.max(sellRequest.minQuantity, random.pick(ITEM_QUANTITIES))
    const totalCents = sellRequest.priceCents * quantity
    const ready = random.chance(0.45)
    const moves = random.next()
    const possibleStatuses = ready
      ? moves < 0.9
        ? ['seller-shipped', 'canceled']
        : []
      : moves < 0.8
        ? ['canceled']
        : moves < 0.9
          ? ['seller-shipped', 'canceled']
          : []
    items.push({
      id: random.uuid(),
      marginCents: Math.round(totalCents * (0.04 + 0.06 * random.next())),
      name: sellRequest.name,
      quantity,
      priceCents: sellRequest.priceCents,
      properties: { ...sellRequest.properties },
      status: ready ? 'ready-to-ship' : 'awaiting-shipment',
      image: sellRequest.image,
      warrantyTime: null,
      shippingTime: null,
      shippingMethod: 'PLATFORM_SHIPPING',
      shipment,
      possibleStatuses,
      sellrequestId: sellRequest.id,
      trackingInformation: {
        slugId: shipping.slugId,
        carrier: shipping.carrier,
        trackerId,
        trackingUrl: shipping.trackingUrl(trackingNumber),
        trackingNumber
      }
    })
  }

  return {
    id: random.uuid(),
    orderNo: at.orderNo,
    orderDateMicros: at.orderDateMicros,
    status: 'payment-confirmed',
    amountPaidCents: items.reduce((sum, item) => sum + item.priceCents * item.quantity, 0),
    items,
    updatedAt: at.updatedAt
  }
}

const HOUR = 60 * MINUTE

/**
 * Moves a just-placed order along its life as far as its age allows: prepared (some items ready to ship)
 * within a day, shipped 6 hours to 3 days after it was placed, delivered 2 to 6 days later; a few are
 * canceled within two days, refunded within three weeks, or left unshipped by a slow seller. Multi-item
 * orders are sometimes partly shipped (one item still ready) or delivered with one item canceled. The
 * order's last update is its last move.
 */
export function settleOrder(order: OrderRecord, random: Random, nowMs: number): OrderRecord {
  const placedMs = Math.ceil(order.orderDateMicros / 1000)
  const ageMs = nowMs - placedMs
  const latest = nowMs - MINUTE
  const shippedAfter = random.int(6 * HOUR, 3 * DAY)
  const deliveredAfter = shippedAfter + random.int(2 * DAY, 6 * DAY)
  const fate = random.next()
  const partly = order.items.length > 1 && random.chance(0.2)
  const set = (item: OrderItemRecord, status: string) => {
    item.status = status
    item.possibleStatuses = status === 'ready-to-ship' ? ['seller-shipped', 'canceled'] : []
  }
  const last = order.items.length - 1

  if (fate < 0.04) {
    const canceledAfter = random.int(HOUR, 2 * DAY)
    if (ageMs > canceledAfter) {
      for (const item of order.items) set(item, 'canceled')
      return { ...order, status: 'canceled', updatedAt: Math.min(placedMs + canceledAfter, latest) }
    }
  } else if (fate < 0.07) {
    const refundedAfter = deliveredAfter + random.int(DAY, 14 * DAY)
    if (ageMs > refundedAfter) {
      for (const item of order.items) set(item, 'canceled')
      return { ...order, status: 'refunded', updatedAt: Math.min(placedMs + refundedAfter, latest) }
    }
  }
  // A slow seller: still paid and waiting, days later (the dashboard's older units to ship).
  const slow = fate >= 0.07 && fate < 0.12
  if (!slow && ageMs > deliveredAfter) {
    order.items.forEach((item, i) => set(item, partly && i === last ? 'canceled' : 'delivered'))
    return { ...order, status: 'delivered', updatedAt: Math.min(placedMs + deliveredAfter, latest) }
  }
  if (!slow && ageMs > shippedAfter) {
    order.items.forEach((item, i) => set(item, partly && i === last ? 'ready-to-ship' : 'seller-shipped'))
    // Partly shipped: the order stays paid until its last item leaves.
    return { ...order, status: partly ? 'payment-confirmed' : 'shipped', updatedAt: Math.min(placedMs + shippedAfter, latest) }
  }
  // Still waiting: its items as placed (awaiting shipment or prepared), prepared within the day.
  const preparedMs = order.items.some((item) => item.status === 'ready-to-ship')
    ? placedMs + random.int(HOUR, Math.max(HOUR, Math.min(DAY, ageMs)))
    : order.updatedAt
  return { ...order, updatedAt: Math.min(Math.max(order.updatedAt, preparedMs), latest) }
}
