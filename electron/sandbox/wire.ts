/**
 * The marketplace state as the Seller API sends it (shared/spec/seller-api.md, section 2):
 * field names, field order and formats exactly as specified.
 *
 * - Sell request: money as numbers, timestamps ISO 8601 UTC with milliseconds and `Z`.
 * - Order: `orderDate` ISO 8601 with microseconds and no zone (the time is UTC); `orderNo`,
 *   `quantity`, `products` numeric strings; `totalPrice`, `amountPaid` two-decimal strings.
 * - Order item: money as numbers.
 * - Images point at the sandbox itself (`<baseUrl>/img/<name>.svg`), never at remote content.
 *
 * A `WireVariant` changes only what the spec leaves open or loosely stated: the digits of
 * `orderDate`, and fields and statuses the spec does not name; `withTotalForm` the JSON type of
 * list totals.
 */
import { decimalStringFromCents, dollarsFromCents } from '../shared/money'
import type { DeviceProperties, OrderItemRecord, OrderRecord, SellRequestRecord, TrackingInformation } from './marketplace'
import { withUnknownOrderFields, withUnknownSellRequestFields } from './unknownFields'
import { DEFAULT_VARIANT, type TotalForm, type Variant } from './variant'

export type WireVariant = Pick<Variant, 'orderDateDigits' | 'orderTimeOffsetMinutes' | 'unknownFields' | 'variantSeed'>

export interface WireSellRequest {
  id: string
  name: string
  category: string
  brand: string
  price: number
  msrp: number
  sku: string
  status: string
  quantity: number
  minQuantity: number
  properties: Record<string, string>
  seller: string
  imgUrl: string
  createdAt: string
  updatedAt: string
}

export interface WireOrderItem {
  id: string
  margin: number
  name: string
  quantity: number
  price: number
  total: number
  properties: Record<string, string>
  status: string
  imageUrl: string
  warrantyTime: null
  shippingTime: null
  shippingMethod: string
  shipment: string
  possibleStatuses: string[]
  sellrequestId: string
  trackingInformation: TrackingInformation
}

export interface WireOrder {
  id: string
  orderDate: string
  orderNo: string
  status: string
  quantity: string
  products: string
  totalPrice: string
  amountPaid: string
  items: WireOrderItem[]
}

export interface WireOrderList {
  total: string
  data: WireOrder[]
}

export interface WireSellRequestList {
  status: number
  description: string
  data: { total: number; data: WireSellRequest[] }
}

export interface WireSellRequestEdited {
  description: string
  data: WireSellRequest
}

export interface WireSellRequestDeleted {
  description: string
  data: { id: string }
}

/** The NestJS-style error body every failure carries. */
export interface WireError {
  statusCode: number
  error: string
  message: string
}

/** Epoch ms → "2026-11-19T14:03:22.123Z". */
export function isoMillisUtc(ms: number): string {
  return new Date(ms).toISOString()
}

/**
 * Epoch µs → "2026-11-19T14:03:22.123456" (UTC, no zone suffix), with `digits` fractional-second
 * digits (truncated; 0 leaves out the dot too).
 */
export function isoMicrosZoneless(micros: number, digits = 6): string {
  const ms = Math.floor(micros / 1000)
  const extra = micros - ms * 1000
  const full = `${new Date(ms).toISOString().slice(0, -1)}${String(extra).padStart(3, '0')}`
  return digits >= 6 ? full : full.slice(0, full.length - 6 + digits - (digits === 0 ? 1 : 0))
}

export function imageUrl(baseUrl: string, image: string): string {
  return `${baseUrl}/img/${image}.svg`
}

function propertiesOf(properties: DeviceProperties): Record<string, string> {
  return { color: properties.color, grade: properties.grade, carrier: properties.carrier, storage: properties.storage }
}

export function wireSellRequest(sellRequest: SellRequestRecord, baseUrl: string, variant: WireVariant = DEFAULT_VARIANT): WireSellRequest {
  const wire: WireSellRequest = {
    id: sellRequest.id,
    name: sellRequest.name,
    category: sellRequest.category,
    brand: sellRequest.brand,
    price: dollarsFromCents(sellRequest.priceCents),
    msrp: dollarsFromCents(sellRequest.msrpCents),
    sku: sellRequest.sku,
    status: sellRequest.status,
    quantity: sellRequest.quantity,
    minQuantity: sellRequest.minQuantity,
    properties: propertiesOf(sellRequest.properties),
    seller: sellRequest.seller,
    imgUrl: imageUrl(baseUrl, sellRequest.image),
    createdAt: isoMillisUtc(sellRequest.createdAt),
    updatedAt: isoMillisUtc(sellRequest.updatedAt),
    ...sellRequest.extra
  }
  return variant.unknownFields ? withUnknownSellRequestFields(wire, variant.variantSeed) : wire
}

export function wireOrderItem(item: OrderItemRecord, baseUrl: string): WireOrderItem {
  return {
    id: item.id,
    margin: dollarsFromCents(item.marginCents),
    name: item.name,
    quantity: item.quantity,
    price: dollarsFromCents(item.priceCents),
    total: dollarsFromCents(item.priceCents * item.quantity),
    properties: propertiesOf(item.properties),
    status: item.status,
    imageUrl: imageUrl(baseUrl, item.image),
    warrantyTime: item.warrantyTime,
    shippingTime: item.shippingTime,
    shippingMethod: item.shippingMethod,
    shipment: item.shipment,
    possibleStatuses: [...item.possibleStatuses],
    sellrequestId: item.sellrequestId,
    trackingInformation: { ...item.trackingInformation }
  }
}

export function wireOrder(order: OrderRecord, baseUrl: string, variant: WireVariant = DEFAULT_VARIANT): WireOrder {
  let units = 0
  let totalCents = 0
  for (const item of order.items) {
    units += item.quantity
    totalCents += item.priceCents * item.quantity
  }
  const wire: WireOrder = {
    id: order.id,
    orderDate: isoMicrosZoneless(order.orderDateMicros + variant.orderTimeOffsetMinutes * 60_000_000, variant.orderDateDigits),
    orderNo: order.orderNo,
    status: order.status,
    quantity: String(units),
    products: String(new Set(order.items.map((item) => item.sellrequestId)).size),
    totalPrice: decimalStringFromCents(totalCents),
    amountPaid: decimalStringFromCents(order.amountPaidCents),
    items: order.items.map((item) => wireOrderItem(item, baseUrl))
  }
  return variant.unknownFields ? withUnknownOrderFields(wire, variant.variantSeed) : wire
}

export function wireOrderList(total: number, orders: readonly OrderRecord[], baseUrl: string, variant: WireVariant = DEFAULT_VARIANT): WireOrderList {
  return { total: String(total), data: orders.map((order) => wireOrder(order, baseUrl, variant)) }
}

export function wireSellRequestList(
  total: number,
  sellRequests: readonly SellRequestRecord[],
  baseUrl: string,
  variant: WireVariant = DEFAULT_VARIANT
): WireSellRequestList {
  return {
    status: 200,
    description: 'Sell requests retrieved successfully',
    data: { total, data: sellRequests.map((sellRequest) => wireSellRequest(sellRequest, baseUrl, variant)) }
  }
}

/**
 * A list answer with its `total` spelled as `form` says: 'number' and 'string' give both lists the
 * same JSON type, where the spec has a numeric string for orders and an integer for sell requests.
 */
export function withTotalForm(list: WireOrderList | WireSellRequestList, form: TotalForm): unknown {
  if ('total' in list) return form === 'number' ? { ...list, total: Number(list.total) } : list
  return form === 'string' ? { ...list, data: { ...list.data, total: String(list.data.total) } } : list
}

export function wireSellRequestEdited(sellRequest: SellRequestRecord, baseUrl: string, variant: WireVariant = DEFAULT_VARIANT): WireSellRequestEdited {
  return { description: 'Sell request updated successfully', data: wireSellRequest(sellRequest, baseUrl, variant) }
}

export function wireSellRequestDeleted(id: string): WireSellRequestDeleted {
  return { description: 'Sell request deleted successfully', data: { id } }
}
