/**
 * Orders as a CSV file for a spreadsheet: one row per item with its order's columns repeated (an order
 * without items still gets one row). Money as plain decimals ("1299.99"), dates in the seller's zone with
 * the offset written out. Text that a spreadsheet would run as a formula (= + - @ tab CR first) gets a
 * leading apostrophe, so opening the file never executes anything a buyer or the marketplace typed.
 */
import Papa from 'papaparse'
import { localIsoWithOffset } from '../dashboard/localCalendar'
import type { Order, OrderItem, Properties } from '../domain'
import { decimalStringFromCents } from '../money'

const KNOWN_PROPERTIES = ['color', 'storage', 'grade', 'carrier'] as const

const HEADER = [
  'Order no.',
  'Order date',
  'Order status',
  'Order units',
  'Order total',
  'Amount paid',
  'Item',
  'Color',
  'Storage',
  'Grade',
  'Network carrier',
  'Other properties',
  'Quantity',
  'Unit price',
  'Line total',
  'Margin',
  'Item status',
  'Shipping method',
  'Shipment',
  'Shipping carrier',
  'Tracking number',
  'Tracking link'
]

const FORMULA_START = /^[=+\-@\t\r]/
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/

/** A text cell a spreadsheet would take for a formula gets a leading `'`; plain numbers ("-12.50") stay numbers. */
export function neutralizeFormula(cell: string): string {
  return FORMULA_START.test(cell) && !PLAIN_NUMBER.test(cell) ? `'${cell}` : cell
}

const money = (cents: number | null) => (cents === null ? '' : decimalStringFromCents(cents))

function otherProperties(properties: Properties): string {
  return Object.entries(properties)
    .filter(([key]) => !(KNOWN_PROPERTIES as readonly string[]).includes(key))
    .map(([key, value]) => `${key}: ${value}`)
    .join('; ')
}

function row(order: Order, item: OrderItem | null, timeZone: string): string[] {
  const p = item?.properties ?? {}
  return [
    order.orderNo,
    localIsoWithOffset(Date.parse(order.orderDate), timeZone),
    order.status,
    String(order.quantity),
    money(order.totalCents),
    money(order.amountPaidCents),
    item?.name ?? '',
    p['color'] ?? '',
    p['storage'] ?? '',
    p['grade'] ?? '',
    p['carrier'] ?? '',
    otherProperties(p),
    item ? String(item.quantity) : '',
    item ? money(item.priceCents) : '',
    item ? money(item.totalCents) : '',
    item ? money(item.marginCents) : '',
    item?.status ?? '',
    item?.shippingMethod ?? '',
    item?.shipment ?? '',
    item?.tracking?.carrier ?? '',
    item?.tracking?.trackingNumber ?? '',
    item?.tracking?.trackingUrl ?? ''
  ].map(neutralizeFormula)
}

export function ordersCsv(orders: Order[], timeZone: string): { text: string; rows: number } {
  const rows = orders.flatMap((order) => (order.items.length ? order.items.map((item) => row(order, item, timeZone)) : [row(order, null, timeZone)]))
  // CRLF and a byte-order mark: what spreadsheet apps expect to read UTF-8 text correctly.
  const text = '\uFEFF' + Papa.unparse({ fields: HEADER, data: rows }, { newline: '\r\n', quotes: false })
  return { text, rows: rows.length }
}
