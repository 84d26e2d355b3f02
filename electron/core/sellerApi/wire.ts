/**
 * The Seller API's wire format (../shared/spec/seller-api.md): how a response is checked and how it
 * becomes domain types, once, here.
 *
 * Each format is a zod shape that only checks (types and formats, no transforms: zod compiles such
 * shapes to fast code) and a plain function that converts the checked object. Open where the spec says
 * "not shown": unknown status values, property keys and extra fields are accepted and kept (the
 * converter reads the original object, so nothing the server sent is lost); wrong types are rejected.
 */
import { z } from 'zod'
import type { Extra, Order, OrderItem, Properties, SellRequest, TrackingInformation } from '../../shared/domain'
import { isArrayOf } from '../../shared/checkedInOneLoop'
import { centsFromDecimalString, centsFromNumber } from '../../shared/money'
import { instantFromZoned, ZONED, ZONELESS_OR_ZONED } from '../../shared/time'
import { instantOfOrderTime } from './orderTime'

/** A shape to check a response with, and how to turn a checked response into what the app uses. */
export interface WireFormat<T> {
  shape: z.ZodType
  /**
   * The same check, written out for the lists a sync reads by the thousand: true only for what `shape`
   * accepts (it may refuse more; `shape` then decides and says what is wrong).
   */
  accepts?: (body: unknown) => boolean
  convert(checked: unknown): T
}

// ── Field checks ───────────────────────────────────────────────────────────────────────────────

const id = z.string().min(1, 'expected an id')
/** The spec's JSON integers; integral numeric strings are tolerated. */
const integer = z.union([z.number().int('expected an integer'), z.string().regex(/^-?\d{1,15}$/, 'expected an integer')])
/** The spec's numeric strings ("3"); plain integers are tolerated. */
const numericString = integer
/** The spec's dollars as JSON numbers (123.45); decimal strings are tolerated. */
const dollarsNumber = z.union([
  z.number().finite('expected an amount in dollars'),
  z.string().regex(/^-?\d{1,13}(\.\d{1,2})?$/, 'expected an amount in dollars')
])
/** The spec's dollars as two-decimal strings ("1240.00"); numbers are tolerated. */
const dollarsString = dollarsNumber
const zonedInstant = z.string().regex(ZONED, 'expected an ISO 8601 UTC timestamp')
/** The spec gives order dates no zone; a zone, if a server sends one anyway, is honoured. */
const zonelessInstant = z.string().regex(ZONELESS_OR_ZONED, 'expected an ISO 8601 timestamp')
const text = z.string().nullish()
const properties = z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).nullish()
/**
 * A list's rows. An empty list may come as null or not at all (a server in Go encodes an empty slice as
 * null, and `omitempty` drops it): both read as no rows. Anything else that is not an array is refused.
 */
const rowsOf = <T extends z.ZodType>(row: T) => z.array(row).nullish()

// ── Shapes ─────────────────────────────────────────────────────────────────────────────────────

const sellRequestShape = z.object({
  id,
  name: z.string(),
  category: text,
  brand: text,
  price: dollarsNumber,
  msrp: dollarsNumber.nullish(),
  sku: text,
  status: z.string(),
  quantity: integer,
  minQuantity: integer.nullish(),
  properties,
  seller: text,
  imgUrl: text,
  createdAt: zonedInstant,
  updatedAt: zonedInstant
})

const trackingShape = z.object({ slugId: text, carrier: text, trackerId: text, trackingUrl: text, trackingNumber: text }).nullish()

const orderItemShape = z.object({
  id,
  margin: dollarsNumber.nullish(),
  name: z.string(),
  quantity: integer,
  price: dollarsNumber,
  total: dollarsNumber,
  properties,
  status: z.string(),
  imageUrl: text,
  shippingMethod: text,
  shipment: text,
  possibleStatuses: z.array(z.string()).nullish(),
  sellrequestId: text,
  trackingInformation: trackingShape
})

const orderShape = z.object({
  id,
  orderDate: zonelessInstant,
  orderNo: z.union([z.string(), z.number()]),
  status: z.string(),
  quantity: numericString,
  products: numericString,
  totalPrice: dollarsString,
  amountPaid: dollarsString,
  // An order's lines as a list's rows: none may come as null or not at all (rowsOf).
  items: rowsOf(orderItemShape)
})

// ── The same checks, written out (see WireFormat.accepts) ─────────────────────────────────────────

type Fields = Record<string, unknown>
const isObject = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value)
const INTEGER_TEXT = /^-?\d{1,15}$/
const DOLLARS_TEXT = /^-?\d{1,13}(\.\d{1,2})?$/
const isId = (value: unknown) => typeof value === 'string' && value.length > 0
const isInteger = (value: unknown) => (typeof value === 'number' ? Number.isSafeInteger(value) : typeof value === 'string' && INTEGER_TEXT.test(value))
const isDollars = (value: unknown) => (typeof value === 'number' ? Number.isFinite(value) : typeof value === 'string' && DOLLARS_TEXT.test(value))
const isText = (value: unknown) => value === null || value === undefined || typeof value === 'string'
const orAbsent = (check: (value: unknown) => boolean) => (value: unknown) => value === null || value === undefined || check(value)
const isZoned = (value: unknown) => typeof value === 'string' && ZONED.test(value)
const isZonelessOrZoned = (value: unknown) => typeof value === 'string' && ZONELESS_OR_ZONED.test(value)
const isProperties = orAbsent((value) => {
  if (!isObject(value)) return false
  for (const key in value) {
    const v = value[key]
    if (v !== null && typeof v !== 'string' && typeof v !== 'boolean' && !(typeof v === 'number' && Number.isFinite(v))) return false
  }
  return true
})
const isTracking = orAbsent(
  (value) =>
    isObject(value) &&
    isText(value['slugId']) &&
    isText(value['carrier']) &&
    isText(value['trackerId']) &&
    isText(value['trackingUrl']) &&
    isText(value['trackingNumber'])
)
const isStrings = orAbsent((value) => isArrayOf(value, (item) => typeof item === 'string'))
/** A list's rows, or null or nothing for none (see rowsOf). */
const isRows = (value: unknown, check: (row: unknown) => boolean) => value === null || value === undefined || isArrayOf(value, check)

function isSellRequest(row: unknown): boolean {
  return (
    isObject(row) &&
    isId(row['id']) &&
    typeof row['name'] === 'string' &&
    isText(row['category']) &&
    isText(row['brand']) &&
    isDollars(row['price']) &&
    orAbsent(isDollars)(row['msrp']) &&
    isText(row['sku']) &&
    typeof row['status'] === 'string' &&
    isInteger(row['quantity']) &&
    orAbsent(isInteger)(row['minQuantity']) &&
    isProperties(row['properties']) &&
    isText(row['seller']) &&
    isText(row['imgUrl']) &&
    isZoned(row['createdAt']) &&
    isZoned(row['updatedAt'])
  )
}

function isOrderItem(item: unknown): boolean {
  return (
    isObject(item) &&
    isId(item['id']) &&
    orAbsent(isDollars)(item['margin']) &&
    typeof item['name'] === 'string' &&
    isInteger(item['quantity']) &&
    isDollars(item['price']) &&
    isDollars(item['total']) &&
    isProperties(item['properties']) &&
    typeof item['status'] === 'string' &&
    isText(item['imageUrl']) &&
    isText(item['shippingMethod']) &&
    isText(item['shipment']) &&
    isStrings(item['possibleStatuses']) &&
    isText(item['sellrequestId']) &&
    isTracking(item['trackingInformation'])
  )
}

function isOrder(row: unknown): boolean {
  if (!isObject(row)) return false
  const orderNo = row['orderNo']
  return (
    isId(row['id']) &&
    isZonelessOrZoned(row['orderDate']) &&
    (typeof orderNo === 'string' || (typeof orderNo === 'number' && Number.isFinite(orderNo))) &&
    typeof row['status'] === 'string' &&
    isInteger(row['quantity']) &&
    isInteger(row['products']) &&
    isDollars(row['totalPrice']) &&
    isDollars(row['amountPaid']) &&
    isRows(row['items'], isOrderItem)
  )
}

type WireSellRequest = z.infer<typeof sellRequestShape>
type WireOrderItem = z.infer<typeof orderItemShape>
type WireOrder = z.infer<typeof orderShape>
type WireTracking = z.infer<typeof trackingShape>

// ── Conversion (of checked objects) ────────────────────────────────────────────────────────────

/** A value the shape accepted but that still cannot be used (e.g. 2026-02-31): reported like a shape failure. */
export class WireValueError extends Error {}

const cents = (value: number | string): number => {
  const result = typeof value === 'number' ? centsFromNumber(value) : centsFromDecimalString(value)
  if (result === null) throw new WireValueError(`expected an amount in dollars, got ${JSON.stringify(value)}`)
  return result
}
const count = (value: number | string): number => (typeof value === 'number' ? value : Number(value))

/** The instant a timestamp was read as (`read`), refused when it was not a real date and time (null). */
function realInstant(read: string | null, value: string): string {
  if (read === null) throw new WireValueError(`expected a real date and time, got ${JSON.stringify(value)}`)
  return read
}

function propertiesOf(value: WireSellRequest['properties']): Properties {
  const out: Properties = {}
  for (const key in value ?? {}) {
    const v = value![key]
    if (v !== null && v !== undefined) out[key] = String(v)
  }
  return out
}

/** Fields the spec does not name, kept for display. */
function extraOf(raw: object, known: ReadonlySet<string>): Extra {
  const extra: Extra = {}
  for (const key in raw) if (!known.has(key)) extra[key] = (raw as Record<string, unknown>)[key]
  return extra
}

const keysOf = (shape: { shape: Record<string, unknown> }) => new Set(Object.keys(shape.shape))
const SELL_REQUEST_KEYS = keysOf(sellRequestShape)
/** warrantyTime and shippingTime are named by the spec but not checked (their type is not shown). */
const ORDER_ITEM_KEYS = new Set([...keysOf(orderItemShape), 'warrantyTime', 'shippingTime'])
const ORDER_KEYS = keysOf(orderShape)

export function sellRequestFromWire(w: WireSellRequest): SellRequest {
  return {
    id: w.id,
    name: w.name,
    category: w.category ?? '',
    brand: w.brand ?? '',
    priceCents: cents(w.price),
    msrpCents: w.msrp === null || w.msrp === undefined ? null : cents(w.msrp),
    sku: w.sku ?? '',
    status: w.status,
    quantity: count(w.quantity),
    minQuantity: w.minQuantity === null || w.minQuantity === undefined ? 1 : count(w.minQuantity),
    properties: propertiesOf(w.properties),
    seller: w.seller ?? '',
    imgUrl: w.imgUrl ?? null,
    createdAt: realInstant(instantFromZoned(w.createdAt), w.createdAt),
    updatedAt: realInstant(instantFromZoned(w.updatedAt), w.updatedAt),
    extra: extraOf(w, SELL_REQUEST_KEYS)
  }
}

function trackingFromWire(w: WireTracking): TrackingInformation | null {
  if (!w) return null
  return {
    slugId: w.slugId ?? '',
    carrier: w.carrier ?? '',
    trackerId: w.trackerId ?? '',
    trackingUrl: w.trackingUrl ?? '',
    trackingNumber: w.trackingNumber ?? ''
  }
}

function orderItemFromWire(w: WireOrderItem): OrderItem {
  const raw = w as WireOrderItem & { warrantyTime?: unknown; shippingTime?: unknown }
  return {
    id: w.id,
    name: w.name,
    quantity: count(w.quantity),
    priceCents: cents(w.price),
    totalCents: cents(w.total),
    marginCents: w.margin === null || w.margin === undefined ? null : cents(w.margin),
    properties: propertiesOf(w.properties),
    status: w.status,
    imageUrl: w.imageUrl ?? null,
    warrantyTime: raw.warrantyTime ?? null,
    shippingTime: raw.shippingTime ?? null,
    shippingMethod: w.shippingMethod ?? null,
    shipment: w.shipment ?? null,
    possibleStatuses: w.possibleStatuses ?? [],
    sellRequestId: w.sellrequestId ?? null,
    tracking: trackingFromWire(w.trackingInformation),
    extra: extraOf(w, ORDER_ITEM_KEYS)
  }
}

/** An order's `orderDate` as it came → the instant, a time without a zone read in `orderTimeZone` (null: UTC). */
export const orderDateIn = (value: string, orderTimeZone: string | null): string => realInstant(instantOfOrderTime(value, orderTimeZone), value)

/** `orderTimeZone`: the zone the marketplace writes order times in (null: UTC). */
export function orderFromWire(w: WireOrder, orderTimeZone: string | null): Order {
  return {
    id: w.id,
    orderDate: orderDateIn(w.orderDate, orderTimeZone),
    orderNo: String(w.orderNo),
    status: w.status,
    quantity: count(w.quantity),
    products: count(w.products),
    totalCents: cents(w.totalPrice),
    amountPaidCents: cents(w.amountPaid),
    items: (w.items ?? []).map(orderItemFromWire),
    extra: extraOf(w, ORDER_KEYS)
  }
}

/** What is wrong with a value, as zod's issues say it: at most three, each at its path below the value (or at `root`). */
function problemOf(issues: z.ZodError['issues'], root: string): string {
  return issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length ? issue.path.join('.') : root}: ${issue.message}`)
    .join('; ')
}

/**
 * Checks a parsed response against a format and converts it: the value, or what is wrong with it
 * ("data.total: expected an integer").
 */
export function readWire<T>(format: WireFormat<T>, body: unknown): { ok: true; value: T } | { ok: false; problem: string } {
  const checked = format.accepts?.(body) ? { success: true as const } : format.shape.safeParse(body)
  if (!checked.success) return { ok: false, problem: problemOf(checked.error.issues, 'body') }
  try {
    return { ok: true, value: format.convert(body) } // the original object: fields the shape does not name are kept
  } catch (error) {
    if (error instanceof WireValueError) return { ok: false, problem: error.message }
    throw error
  }
}

// ── Lists, a row at a time ─────────────────────────────────────────────────────────────────────

/**
 * A row of a list answer that cannot be read (a listing whose price is "abc", an order with no id):
 * skipped, and said, while the rest of its page is used. The spec asks to be tolerant in what we accept
 * and clear in what we report: one such row on the marketplace must not fail every page it is on, and
 * with them every sync and every bulk apply (which syncs first).
 */
export interface UnreadableRow {
  /** Its id, where it has one that reads as an id (text, not empty); null otherwise. */
  id: string | null
  /** What a seller knows it by, where the row says so in text: a listing's name and SKU, an order's number; null otherwise. */
  label: string | null
  /** Where it is on its page (0: the first row). */
  place: number
  /** What is wrong with it, at paths below the row ("price: expected an amount in dollars"). */
  problem: string
  /** Its update time as written, where that is text: where a sync of what changed places it. */
  updatedAt?: string
}

/** A list answer read: its count, the rows that could be read, and those that could not. */
export interface ListRead<Row> {
  total: number
  rows: Row[]
  unreadable: UnreadableRow[]
}

/** Checks and converts one row; its problem when it cannot be read. */
function readRow<Row>(format: WireFormat<Row>, row: unknown): { ok: true; value: Row } | { ok: false; problem: string } {
  const checked = format.accepts?.(row) ? { success: true as const } : format.shape.safeParse(row)
  if (!checked.success) return { ok: false, problem: problemOf(checked.error.issues, 'row') }
  try {
    return { ok: true, value: format.convert(row) }
  } catch (error) {
    if (error instanceof WireValueError) return { ok: false, problem: error.message }
    throw error
  }
}

/**
 * A list's format: its envelope (the count, and the rows as an array) is checked whole, each row on its
 * own. A row that cannot be read is skipped and said (UnreadableRow); an envelope that is wrong is a
 * malformed answer, as is a page of two rows or more none of which can be read: that is far likelier
 * an answer that is not the list asked for (another version of the API, a server answering something
 * else in the same envelope) than bad data on every row, and read as a page of no rows it would empty
 * the snapshot of them. A page of one row alone cannot tell the two apart, and refusing it would fail a
 * sync again for one row (the last page may hold only it; a count is read as a page of one).
 */
function listFormat<Row, T>(
  envelope: z.ZodType,
  acceptsEnvelope: (body: unknown) => boolean,
  partsOf: (checked: unknown) => { total: number | string; rows: readonly unknown[] | null | undefined },
  row: WireFormat<Row>,
  /** What a seller knows a row by, from its fields as sent (for a row that cannot be read). */
  labelOf: (fields: Record<string, unknown>) => string | null,
  make: (read: ListRead<Row>) => T
): WireFormat<T> {
  return {
    shape: envelope,
    accepts: acceptsEnvelope,
    convert: (checked) => {
      const parts = partsOf(checked)
      const rows: Row[] = []
      const unreadable: UnreadableRow[] = []
      const raw = parts.rows ?? []
      for (let place = 0; place < raw.length; place++) {
        const read = readRow(row, raw[place])
        if (read.ok) rows.push(read.value)
        else unreadable.push(unreadableRow(raw[place], place, read.problem, labelOf))
      }
      if (raw.length > 1 && rows.length === 0) throw new WireValueError(`none of its ${raw.length} rows can be read (the first: ${unreadable[0]!.problem})`)
      return make({ total: count(parts.total), rows, unreadable })
    }
  }
}

function unreadableRow(row: unknown, place: number, problem: string, labelOf: (fields: Record<string, unknown>) => string | null): UnreadableRow {
  const fields = isObject(row) ? row : {}
  const id = isId(fields['id']) ? (fields['id'] as string) : null
  const updatedAt = fields['updatedAt']
  return { id, label: labelOf(fields), place, problem, ...(typeof updatedAt === 'string' ? { updatedAt } : {}) }
}

/** A field of a row as text, where it reads as some (a name, a number): null otherwise. */
const textOf = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, 120) : typeof value === 'number' ? String(value) : null

/** A listing as a seller knows it: its name with its SKU, or what of those it has. */
function listingLabel(fields: Record<string, unknown>): string | null {
  const [name, sku] = [textOf(fields['name']), textOf(fields['sku'])]
  const skuWords = sku === null ? null : `SKU ${sku}`
  return name !== null && skuWords !== null ? `${name} (${skuWords})` : (name ?? skuWords)
}

/** An order as a seller knows it: by its order number. */
function orderLabel(fields: Record<string, unknown>): string | null {
  const orderNo = textOf(fields['orderNo'])
  return orderNo === null ? null : `order ${orderNo}`
}

// ── Response formats ───────────────────────────────────────────────────────────────────────────

/** Where a list response keeps its rows, as a JSON path (the snapshot stores rows as received). */
export const ORDER_ROWS_PATH = '$.data'
export const SELL_REQUEST_ROWS_PATH = '$.data.data'

/** A listing, as a list's row or an edit's answer. */
export const sellRequestFormat: WireFormat<SellRequest> = {
  shape: sellRequestShape,
  accepts: isSellRequest,
  convert: (checked) => sellRequestFromWire(checked as WireSellRequest)
}

/** An order, as a list's row, its times read in `orderTimeZone` (null: UTC). */
export function orderFormatIn(orderTimeZone: string | null): WireFormat<Order> {
  return { shape: orderShape, accepts: isOrder, convert: (checked) => orderFromWire(checked as WireOrder, orderTimeZone) }
}

/** An envelope's rows as any array, or null or nothing for none (rowsOf): each row is checked on its own. */
const anyRows = rowsOf(z.unknown())
const isAnyRows = (value: unknown) => value === null || value === undefined || Array.isArray(value)

/** GET /v1/orders/seller, its order times read in `orderTimeZone` (null: UTC). */
export function orderListFormatIn(orderTimeZone: string | null): WireFormat<{ total: number; orders: Order[]; unreadable: UnreadableRow[] }> {
  return listFormat(
    z.object({ total: numericString, data: anyRows }),
    (body) => isObject(body) && isInteger(body['total']) && isAnyRows(body['data']),
    (checked) => {
      const body = checked as { total: number | string; data?: unknown[] | null }
      return { total: body.total, rows: body.data }
    },
    orderFormatIn(orderTimeZone),
    orderLabel,
    ({ total, rows, unreadable }) => ({ total, orders: rows, unreadable })
  )
}

/** GET /v1/orders/seller, order times in UTC. */
export const orderListFormat = orderListFormatIn(null)

/** GET /v1/sell-requests */
export const sellRequestListFormat: WireFormat<{ total: number; sellRequests: SellRequest[]; unreadable: UnreadableRow[] }> = listFormat(
  z.object({ data: z.object({ total: integer, data: anyRows }) }),
  (body) => {
    const data = isObject(body) ? body['data'] : null
    return isObject(data) && isInteger(data['total']) && isAnyRows(data['data'])
  },
  (checked) => {
    const body = checked as { data: { total: number | string; data?: unknown[] | null } }
    return { total: body.data.total, rows: body.data.data }
  },
  sellRequestFormat,
  listingLabel,
  ({ total, rows, unreadable }) => ({ total, sellRequests: rows, unreadable })
)

/** PATCH /v1/sell-requests/:id */
export const sellRequestEditFormat: WireFormat<SellRequest> = {
  shape: z.object({ data: sellRequestShape }),
  convert: (checked) => sellRequestFromWire((checked as { data: WireSellRequest }).data)
}

/** DELETE /v1/sell-requests/:id */
export const sellRequestDeleteFormat: WireFormat<{ id: string }> = {
  shape: z.object({ data: z.object({ id }) }),
  convert: (checked) => ({ id: (checked as { data: { id: string } }).data.id })
}
