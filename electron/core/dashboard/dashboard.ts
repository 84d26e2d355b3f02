/**
 * The dashboard's figures, summed in SQLite over the snapshot: orders and revenue today, over the last 7
 * days and per day over the synced window; item units awaiting shipment and ready to ship; listings low
 * on stock. Days are the seller's local days (their IANA zone), so every figure matches what the Orders
 * and Sell requests lists show when the seller follows its link.
 */
import type { Dashboard, OrderFigure } from '../../shared/contract'
import type { Db } from '../snapshot/database'
import { addDays, dateOfDayNumber, localDateOf, localDaysBetween, offsetSpans, startOfLocalDate, type OffsetSpan } from './localCalendar'

const DAY_MS = 86_400_000

export interface DashboardQuery {
  timeZone: string
  nowMs: number
  /** The first instant the snapshot holds orders for (the synced window). */
  windowFromMs: number
  lowStockThreshold: number
  syncedAt: string | null
}

const iso = (ms: number) => new Date(ms).toISOString()

/** Orders placed in [fromMs, toMs] (both included, as the Orders list's date filter). */
function orderFigure(db: Db, fromMs: number, toMs: number): OrderFigure {
  const [orders, revenueCents] = db
    .prepare('SELECT COUNT(*), COALESCE(SUM(total_cents), 0) FROM orders WHERE order_ms >= ? AND order_ms <= ?')
    .raw()
    .get(fromMs, toMs) as [number, number]
  return { fromDate: iso(fromMs), toDate: iso(toMs), orders, revenueCents }
}

/**
 * Units of items awaiting shipment and ready to ship, and the orders holding at least one such item (as
 * the Orders list's item-status filter matches them), in one pass.
 */
function shippingFigures(db: Db): Record<'awaiting-shipment' | 'ready-to-ship', { units: number; orders: number }> {
  const [awaitingUnits, awaitingOrders, readyUnits, readyOrders] = db
    .prepare(
      `SELECT COALESCE(SUM(awaiting_shipment_units), 0), COALESCE(SUM(instr(item_statuses, '|awaiting-shipment|') > 0), 0),
              COALESCE(SUM(ready_to_ship_units), 0), COALESCE(SUM(instr(item_statuses, '|ready-to-ship|') > 0), 0)
       FROM orders`
    )
    .raw()
    .get() as [number, number, number, number]
  return { 'awaiting-shipment': { units: awaitingUnits, orders: awaitingOrders }, 'ready-to-ship': { units: readyUnits, orders: readyOrders } }
}

/**
 * Orders and revenue per local day, in one pass over the orders table (the snapshot holds the synced
 * window, so reading it straight beats walking the date index and looking each row up): each order's
 * local day number is its instant plus the zone's offset in force then (`spans`: one per clock change).
 */
function ordersPerDay(db: Db, spans: OffsetSpan[]): Map<string, { orders: number; revenueCents: number }> {
  // Numbers are bound as reals: the offsets are cast so the division below stays an integer one.
  const changes = spans
    .slice(0, -1)
    .map(() => 'WHEN order_ms < ? THEN CAST(? AS INTEGER)')
    .join(' ')
  const offset = changes ? `CASE ${changes} ELSE CAST(? AS INTEGER) END` : 'CAST(? AS INTEGER)'
  const params = spans.slice(0, -1).flatMap((span) => [span.endMs, span.offsetMs])
  const rows = db
    .prepare(
      `SELECT (order_ms + ${offset}) / ${DAY_MS} AS day, COUNT(*), SUM(total_cents)
       FROM orders NOT INDEXED
       WHERE order_ms >= ? AND order_ms < ?
       GROUP BY day`
    )
    .raw()
    .all(...params, spans[spans.length - 1]!.offsetMs, spans[0]!.startMs, spans[spans.length - 1]!.endMs) as [number, number, number][]
  return new Map(rows.map(([day, orders, revenueCents]) => [dateOfDayNumber(day), { orders, revenueCents }]))
}

export function computeDashboard(db: Db, query: DashboardQuery): Dashboard {
  const { timeZone, nowMs } = query
  const today = localDateOf(nowMs, timeZone)
  const endOfToday = startOfLocalDate(addDays(today, 1), timeZone) - 1
  const startOfToday = startOfLocalDate(today, timeZone)
  const startOfWeek = startOfLocalDate(addDays(today, -6), timeZone)

  const days = localDaysBetween(Math.min(query.windowFromMs, startOfToday), nowMs, timeZone)
  const first = days[0]!
  const perDay = ordersPerDay(db, offsetSpans(first.startMs, days[days.length - 1]!.endMs, timeZone))
  const shipping = shippingFigures(db)

  const [lowStock] = db.prepare('SELECT COUNT(*) FROM sell_requests WHERE quantity < ?').raw().get(query.lowStockThreshold) as [number]

  return {
    timeZone,
    today: orderFigure(db, startOfToday, endOfToday),
    week: orderFigure(db, startOfWeek, endOfToday),
    awaitingShipment: { status: 'awaiting-shipment', ...shipping['awaiting-shipment'] },
    readyToShip: { status: 'ready-to-ship', ...shipping['ready-to-ship'] },
    lowStock: { threshold: query.lowStockThreshold, listings: lowStock },
    days: days.map((day) => ({
      date: day.date,
      fromDate: iso(day.startMs),
      toDate: iso(day.endMs - 1),
      orders: perDay.get(day.date)?.orders ?? 0,
      revenueCents: perDay.get(day.date)?.revenueCents ?? 0
    })),
    windowFrom: iso(query.windowFromMs),
    syncedAt: query.syncedAt
  }
}
