/**
 * The Seller API's wire format (../shared/spec/seller-api.md), as zod schemas that convert to the
 * domain types once, here. Open where the spec says "not shown": unknown status values, property keys
 * and extra fields are accepted and kept; wrong types are rejected.
 */
import { z } from 'zod'
import type { Extra, Order, OrderItem, Properties, SellRequest, TrackingInformation } from '../domain'
import { centsFromDecimalString, centsFromNumber } from '../money'
import { instantFromZoned, instantFromZonelessUtc } from '../time'

const id = z.string().min(1, 'expected an id')

/** An integer the spec types as a JSON number. Integral numeric strings are tolerated. */
const integer = z.union([z.number(), z.string().regex(/^-?\d+$/, 'expected an integer')]).transform((value, ctx) => {
  const n = Number(value)
  if (!Number.isSafeInteger(n)) {
    ctx.addIssue({ code: 'custom', message: 'expected an integer' })
    return z.NEVER
  }
  return n
})

/** A count the spec types as a numeric string ("3"). Plain integers are tolerated. */
const numericString = integer

/** Dollars the spec types as a JSON number (123.45). Decimal strings are tolerated. */
const dollarsNumber = z.union([z.number(), z.string()]).transform((value, ctx) => {
  const cents = typeof value === 'number' ? centsFromNumber(value) : centsFromDecimalString(value)
  if (cents === null) {
    ctx.addIssue({ code: 'custom', message: 'expected an amount in dollars' })
    return z.NEVER
  }
  return cents
})

/** Dollars the spec types as a decimal string with two places ("1240.00"). Numbers are tolerated. */
const dollarsString = dollarsNumber

const zonedInstant = z.string().transform((value, ctx) => {
  const instant = instantFromZoned(value)
  if (instant === null) {
    ctx.addIssue({ code: 'custom', message: 'expected an ISO 8601 UTC timestamp' })
    return z.NEVER
  }
  return instant
})

const zonelessInstant = z.string().transform((value, ctx) => {
  // The spec gives no zone; a zone, if a server sends one anyway, is honoured.
  const instant = instantFromZonelessUtc(value) ?? instantFromZoned(value)
  if (instant === null) {
    ctx.addIssue({ code: 'custom', message: 'expected an ISO 8601 timestamp' })
    return z.NEVER
  }
  return instant
})

/** Property values are strings; numbers and booleans are shown as text, null is dropped. */
const properties = z
  .record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]))
  .nullish()
  .transform((value): Properties => {
    const out: Properties = {}
    for (const [key, v] of Object.entries(value ?? {})) if (v !== null) out[key] = String(v)
    return out
  })

const optionalText = z.string().nullish().transform((v) => v ?? null)

function extraOf(raw: Record<string, unknown>, known: readonly string[]): Extra {
  const extra: Extra = {}
  for (const [key, value] of Object.entries(raw)) if (!known.includes(key)) extra[key] = value
  return extra
}

const SELL_REQUEST_KEYS = [
  'id', 'name', 'category', 'brand', 'price', 'msrp', 'sku', 'status', 'quantity', 'minQuantity',
  'properties', 'seller', 'imgUrl', 'createdAt', 'updatedAt'
] as const

export const sellRequestWire = z
  .looseObject({
    id,
    name: z.string(),
    category: z.string().nullish(),
    brand: z.string().nullish(),
    price: dollarsNumber,
    msrp: dollarsNumber.nullish(),
    sku: z.string().nullish(),
    status: z.string(),
    quantity: integer,
    minQuantity: integer.nullish(),
    properties,
    seller: z.string().nullish(),
    imgUrl: optionalText,
    createdAt: zonedInstant,
    updatedAt: zonedInstant
  })
  .transform(
    (w): SellRequest => ({
      id: w.id,
      name: w.name,
      category: w.category ?? '',
      brand: w.brand ?? '',
      priceCents: w.price,
      msrpCents: w.msrp ?? null,
      sku: w.sku ?? '',
      status: w.status,
      quantity: w.quantity,
      minQuantity: w.minQuantity ?? 1,
      properties: w.properties,
      seller: w.seller ?? '',
      imgUrl: w.imgUrl,
      createdAt: w.createdAt,
      updatedAt: w.updatedAt,
      extra: extraOf(w, SELL_REQUEST_KEYS)
    })
  )

const trackingWire = z
  .looseObject({
    slugId: z.string().nullish(),
    carrier: z.string().nullish(),
    trackerId: z.string().nullish(),
    trackingUrl: z.string().nullish(),
    trackingNumber: z.string().nullish()
  })
  .nullish()
  .transform(
    (w): TrackingInformation | null =>
      w
        ? {
            slugId: w.slugId ?? '',
            carrier: w.carrier ?? '',
            trackerId: w.trackerId ?? '',
            trackingUrl: w.trackingUrl ?? '',
            trackingNumber: w.trackingNumber ?? ''
          }
        : null
  )

const ORDER_ITEM_KEYS = [
  'id', 'margin', 'name', 'quantity', 'price', 'total', 'properties', 'status', 'imageUrl', 'warrantyTime',
  'shippingTime', 'shippingMethod', 'shipment', 'possibleStatuses', 'sellrequestId', 'trackingInformation'
] as const

export const orderItemWire = z
  .looseObject({
    id,
    margin: dollarsNumber.nullish(),
    name: z.string(),
    quantity: integer,
    price: dollarsNumber,
    total: dollarsNumber,
    properties,
    status: z.string(),
    imageUrl: optionalText,
    warrantyTime: z.unknown(),
    shippingTime: z.unknown(),
    shippingMethod: optionalText,
    shipment: optionalText,
    possibleStatuses: z.array(z.string()).nullish(),
    sellrequestId: optionalText,
    trackingInformation: trackingWire
  })
  .transform(
    (w): OrderItem => ({
      id: w.id,
      name: w.name,
      quantity: w.quantity,
      priceCents: w.price,
      totalCents: w.total,
      marginCents: w.margin ?? null,
      properties: w.properties,
      status: w.status,
      imageUrl: w.imageUrl,
      warrantyTime: w.warrantyTime ?? null,
      shippingTime: w.shippingTime ?? null,
      shippingMethod: w.shippingMethod,
      shipment: w.shipment,
      possibleStatuses: w.possibleStatuses ?? [],
      sellRequestId: w.sellrequestId,
      tracking: w.trackingInformation,
      extra: extraOf(w, ORDER_ITEM_KEYS)
    })
  )

const ORDER_KEYS = ['id', 'orderDate', 'orderNo', 'status', 'quantity', 'products', 'totalPrice', 'amountPaid', 'items'] as const

export const orderWire = z
  .looseObject({
    id,
    orderDate: zonelessInstant,
    orderNo: z.union([z.string(), z.number()]).transform(String),
    status: z.string(),
    quantity: numericString,
    products: numericString,
    totalPrice: dollarsString,
    amountPaid: dollarsString,
    items: z.array(orderItemWire)
  })
  .transform(
    (w): Order => ({
      id: w.id,
      orderDate: w.orderDate,
      orderNo: w.orderNo,
      status: w.status,
      quantity: w.quantity,
      products: w.products,
      totalCents: w.totalPrice,
      amountPaidCents: w.amountPaid,
      items: w.items,
      extra: extraOf(w, ORDER_KEYS)
    })
  )

/** GET /v1/orders/seller */
export const orderListWire = z.looseObject({ total: numericString, data: z.array(orderWire) })

/** GET /v1/sell-requests */
export const sellRequestListWire = z.looseObject({
  data: z.looseObject({ total: integer, data: z.array(sellRequestWire) })
})

/** PATCH /v1/sell-requests/:id */
export const sellRequestEditWire = z.looseObject({ data: sellRequestWire })

/** DELETE /v1/sell-requests/:id */
export const sellRequestDeleteWire = z.looseObject({ data: z.looseObject({ id }) })

/** An error body as servers commonly send it; every field optional (the spec does not show one). */
export const errorBodyWire = z.looseObject({
  message: z.union([z.string(), z.array(z.string())]).optional(),
  error: z.string().optional(),
  description: z.string().optional()
})
