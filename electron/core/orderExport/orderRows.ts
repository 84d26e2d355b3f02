/**
 * The orders export's rows, typed cell by cell, for both its files (orderCsv.ts, orderWorkbook.ts): one
 * row per item with its order's columns repeated (an order without items still gets one row). The
 * order number, properties, shipment and tracking number are text, whatever digits they hold; counts
 * are numbers; money is an amount; the order date is an instant on the wall clock of the seller's zone,
 * which the header names. Statuses and shipping methods in words (plainWords).
 */
import type { Order, OrderItem, Properties } from '../../shared/domain'
import { shippingMethodLabel, statusLabel } from '../../shared/plainWords'
import type { FormulaGuard } from '../spreadsheetFile/formulaGuard'
import type { Cell } from '../spreadsheetFile/sheetFile'

const KNOWN_PROPERTIES = ['color', 'storage', 'grade', 'carrier'] as const

const ORDER_DATE = 'Order date'

/** Each column's title and its width in characters (XLSX). */
const COLUMNS: readonly (readonly [title: string, width: number])[] = [
  ['Order no.', 14],
  [ORDER_DATE, 22],
  ['Order status', 20],
  ['Order units', 11],
  ['Order total', 12],
  ['Amount paid', 12],
  ['Item', 40],
  ['Color', 12],
  ['Storage', 10],
  ['Grade', 8],
  ['Network carrier', 16],
  ['Other properties', 30],
  ['Quantity', 9],
  ['Unit price', 11],
  ['Line total', 11],
  ['Margin', 10],
  ['Item status', 20],
  ['Shipping method', 18],
  ['Shipment', 18],
  ['Shipping carrier', 16],
  ['Tracking number', 26],
  ['Tracking link', 40]
]

/** People read the orders files; no import reads them back (formulaGuard.ts). */
export const ORDERS_GUARD: FormulaGuard = { roundTrip: false }

/** The column titles; the order date's names the zone its times are in. */
export const ordersHeader = (timeZone: string): string[] => COLUMNS.map(([title]) => (title === ORDER_DATE ? `${ORDER_DATE} (${timeZone})` : title))

export const ORDERS_WIDTHS: readonly number[] = COLUMNS.map(([, width]) => width)

const money = (cents: number | null): Cell => (cents === null ? null : { cents })

function otherProperties(properties: Properties): string {
  return Object.entries(properties)
    .filter(([key]) => !(KNOWN_PROPERTIES as readonly string[]).includes(key))
    .map(([key, value]) => `${key}: ${value}`)
    .join('; ')
}

function row(order: Order, item: OrderItem | null, timeZone: string): Cell[] {
  const p = item?.properties ?? {}
  return [
    order.orderNo,
    { at: order.orderDate, timeZone },
    statusLabel(order.status),
    order.quantity,
    money(order.totalCents),
    money(order.amountPaidCents),
    item?.name ?? null,
    p['color'] ?? null,
    p['storage'] ?? null,
    p['grade'] ?? null,
    p['carrier'] ?? null,
    otherProperties(p) || null,
    item ? item.quantity : null,
    item ? money(item.priceCents) : null,
    item ? money(item.totalCents) : null,
    item ? money(item.marginCents) : null,
    item ? statusLabel(item.status) : null,
    shippingMethodLabel(item?.shippingMethod ?? null) || null,
    item?.shipment ?? null,
    item?.tracking?.carrier ?? null,
    item?.tracking?.trackingNumber ?? null,
    item?.tracking?.trackingUrl ?? null
  ]
}

/** The orders' rows, in their order. */
export function orderRows(orders: readonly Order[], timeZone: string): Cell[][] {
  return orders.flatMap((order) => (order.items.length ? order.items.map((item) => row(order, item, timeZone)) : [row(order, null, timeZone)]))
}
