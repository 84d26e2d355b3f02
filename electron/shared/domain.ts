/**
 * The seller's things as Seller Desk holds them after the API edge: money in integer cents,
 * every instant an ISO string with `Z`. Plain data, safe to send to the renderer.
 * Fields the spec does not name are kept in `extra` and shown, never dropped.
 */

/** Product properties: the spec names color, grade, carrier and storage; any other key is kept. */
export type Properties = Record<string, string>

export type Extra = Record<string, unknown>

export interface SellRequest {
  id: string
  name: string
  category: string
  brand: string
  priceCents: number
  msrpCents: number | null
  sku: string
  /** `open` is the value in use; any other value is kept as sent. */
  status: string
  quantity: number
  minQuantity: number
  properties: Properties
  seller: string
  imgUrl: string | null
  createdAt: string
  updatedAt: string
  extra: Extra
}

export interface TrackingInformation {
  slugId: string
  carrier: string
  trackerId: string
  trackingUrl: string
  trackingNumber: string
}

export interface OrderItem {
  id: string
  name: string
  quantity: number
  priceCents: number
  totalCents: number
  marginCents: number | null
  properties: Properties
  /** `awaiting-shipment`, `ready-to-ship`, or any value the server sends. */
  status: string
  imageUrl: string | null
  warrantyTime: unknown
  shippingTime: unknown
  shippingMethod: string | null
  shipment: string | null
  /** Statuses the item may move to (information only: the API has no call to change them). */
  possibleStatuses: string[]
  sellRequestId: string | null
  tracking: TrackingInformation | null
  extra: Extra
}

export interface Order {
  id: string
  /** The order time as an instant (the API's zone-less time taken as UTC, see time.ts). */
  orderDate: string
  orderNo: string
  /** `payment-confirmed`, or any value the server sends. */
  status: string
  quantity: number
  products: number
  totalCents: number
  amountPaidCents: number
  items: OrderItem[]
  extra: Extra
}

export type SortDir = 'ASC' | 'DESC'

export interface Page<T> {
  total: number
  page: number
  take: number
  rows: T[]
}
