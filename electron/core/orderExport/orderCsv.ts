/**
 * Orders as a CSV file for a spreadsheet: one row per item with its order's columns repeated (an order
 * without items still gets one row). Money as plain decimals with two places ("1299.99"), so Excel and
 * LibreOffice read numbers; dates as "2026-11-20 00:30:00" in the seller's zone, named in the header, a
 * form both read as a date-time in any locale (with an offset or a "T" they keep it as text). Statuses
 * and shipping methods in words (plainWords). Text that a spreadsheet would run as a formula (= + - @
 * tab CR first) gets a leading apostrophe (formulaGuard.ts), so opening the file never executes
 * anything a buyer or the marketplace typed.
 */
import Papa from 'papaparse'
import { localIsoWithOffset } from '../dashboard/localCalendar'
import type { Order, OrderItem, Properties } from '../../shared/domain'
import { decimalStringFromCents } from '../../shared/money'
import { shippingMethodLabel, statusLabel } from '../../shared/plainWords'
import { neutralizeFormula } from '../spreadsheetFile/formulaGuard'

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

/** People read this file; no import reads it back (formulaGuard.ts). */
const GUARD = { roundTrip: false }

/** An instant as a spreadsheet reads a local date-time: "2026-11-20 00:30:00". */
export function csvLocalDateTime(ms: number, timeZone: string): string {
  return localIsoWithOffset(ms, timeZone).slice(0, 19).replace('T', ' ')
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
  ].map((cell) => neutralizeFormula(cell, GUARD))
}

/** CRLF: what spreadsheet apps expect (with the byte-order mark, to read UTF-8 text correctly). */
const UNPARSE = { newline: '\r\n', quotes: false } as const

/**
 * The CSV file written a part of the orders at a time (an export of many orders takes several turns of
 * the core: see the workspace's export): `add` each part in order, then `done`.
 */
export function ordersCsvWriter(timeZone: string) {
  const parts = ['\uFEFF' + Papa.unparse([header(timeZone)], UNPARSE)]
  let rows = 0
  return {
    add(orders: readonly Order[]): void {
      const data = orders.flatMap((order) => (order.items.length ? order.items.map((item) => row(order, item, timeZone)) : [row(order, null, timeZone)]))
      if (data.length === 0) return
      parts.push(UNPARSE.newline + Papa.unparse(data, UNPARSE))
      rows += data.length
    },
    /** The file's text in parts (joined, the file) and its rows below the header. */
    done(): { parts: string[]; rows: number } {
      return { parts, rows }
    }
  }
}

/** The orders as one CSV text. */
export function ordersCsv(orders: readonly Order[], timeZone: string): { text: string; rows: number } {
  const writer = ordersCsvWriter(timeZone)
  writer.add(orders)
  const { parts, rows } = writer.done()
  return { text: parts.join(''), rows }
}
