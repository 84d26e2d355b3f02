/**
 * Orders as a CSV file for a spreadsheet: one row per item with its order's columns repeated (an order
 * without items still gets one row). Money as plain decimals with two places ("1299.99"), so Excel and
 * LibreOffice read numbers; dates as "2026-11-20 00:30:00" in the seller's zone, named in the header, a
 * form both read as a date-time in any locale (with an offset or a "T" they keep it as text). Statuses
 * and shipping methods in words (plainWords). Text that a spreadsheet would run as a formula (= + - @
 * tab CR first) gets a leading apostrophe, so opening the file never executes anything a buyer or the
 * marketplace typed.
 */
import Papa from 'papaparse'
import { localIsoWithOffset } from '../dashboard/localCalendar'
import type { Order, OrderItem, Properties } from '../../shared/domain'
import { decimalStringFromCents } from '../../shared/money'
import { shippingMethodLabel, statusLabel } from '../../shared/plainWords'

const KNOWN_PROPERTIES = ['color', 'storage', 'grade', 'carrier'] as const

const header = (timeZone: string) => [
  'Order no.',
  `Order date (${timeZone})`,
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

/** An instant as a spreadsheet reads a local date-time: "2026-11-20 00:30:00". */
export function csvLocalDateTime(ms: number, timeZone: string): string {
  return localIsoWithOffset(ms, timeZone).slice(0, 19).replace('T', ' ')
}

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
    csvLocalDateTime(Date.parse(order.orderDate), timeZone),
    statusLabel(order.status),
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
    item ? statusLabel(item.status) : '',
    shippingMethodLabel(item?.shippingMethod ?? null),
    item?.shipment ?? '',
    item?.tracking?.carrier ?? '',
    item?.tracking?.trackingNumber ?? '',
    item?.tracking?.trackingUrl ?? ''
  ].map(neutralizeFormula)
}

export function ordersCsv(orders: Order[], timeZone: string): { text: string; rows: number } {
  const rows = orders.flatMap((order) => (order.items.length ? order.items.map((item) => row(order, item, timeZone)) : [row(order, null, timeZone)]))
  // CRLF and a byte-order mark: what spreadsheet apps expect to read UTF-8 text correctly.
  const text = '\uFEFF' + Papa.unparse({ fields: header(timeZone), data: rows }, { newline: '\r\n', quotes: false })
  return { text, rows: rows.length }
}
