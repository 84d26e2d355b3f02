/**
 * The dashboard's figures, summed in SQLite over the snapshot: orders and revenue today, over the last 7
 * days and per day over the synced window (from its first whole day); item units awaiting shipment and ready to ship (unshipped
 * orders placed before the window included: see olderOpenOrders.ts); listings low on stock. Days are the seller's local days (their IANA zone), so every figure matches what the Orders
 * and Sell requests lists show when the seller follows its link.
 */
import type { Dashboard, OrderFigure } from '../../shared/contract'
import type { Db } from '../snapshot/database'
import { readOlderOpenCheck, type OlderOpenCheck } from '../snapshot/olderOpenOrders'
import { holdsItemStatus } from '../snapshot/orderTable'
import { addDays, dateOfDayNumber, localDateOf, localDaysBetween, offsetSpans, startOfLocalDate, type OffsetSpan } from '../localCalendar'

const DAY_MS = 86_400_000

export interface DashboardQuery {
  timeZone: string
  nowMs: number
  /** The first instant the snapshot holds orders for (the synced window). */
  windowFromMs: number
  lowStockThreshold: number
  syncedAt: string | null
  /** What to say of the marketplace's order times (see Dashboard.orderTimesNote). */
  orderTimesNote?: string | null
}

const iso = (ms: number) => new Date(ms).toISOString()

type Shipping = Record<'awaiting-shipment' | 'ready-to-ship', { units: number; orders: number }>

/**
 * In one pass over the orders table (the snapshot holds the synced window, so reading it straight beats
 * walking the date index and looking each row up):
 * - orders and revenue per local day of `spans`' range: each order's local day number is its instant
 *   plus the zone's offset in force then (`spans`: one per clock change);
 * - over every order, the units of items awaiting shipment and ready to ship, and the orders holding at
 *   least one such item (as the Orders list's item-status filter matches them).
 * An order outside the range (kept from before it, or dated ahead) falls on a day outside it: its day
 * counts nothing shown, its items count for shipping.
 */
function ordersPass(db: Db, spans: OffsetSpan[]): { perDay: Map<string, { orders: number; revenueCents: number }>; shipping: Shipping } {
  // Numbers are bound as reals: the offsets are cast so the division below stays an integer one.
  const changes = spans
    .slice(0, -1)
    .map(() => 'WHEN order_ms < ? THEN CAST(? AS INTEGER)')
    .join(' ')
  const offset = changes ? `CASE ${changes} ELSE CAST(? AS INTEGER) END` : 'CAST(? AS INTEGER)'
  const params = spans.slice(0, -1).flatMap((span) => [span.endMs, span.offsetMs])
  const rows = db
    .prepare(
      `SELECT (order_ms + ${offset}) / ${DAY_MS} AS day, COUNT(*), SUM(total_cents),
              SUM(awaiting_shipment_units), SUM(${holdsItemStatus('awaiting-shipment')}),
              SUM(ready_to_ship_units), SUM(${holdsItemStatus('ready-to-ship')})
       FROM orders NOT INDEXED
       GROUP BY day`
    )
    .raw()
    .all(...params, spans[spans.length - 1]!.offsetMs) as number[][]
  const perDay = new Map<string, { orders: number; revenueCents: number }>()
  const shipping: Shipping = { 'awaiting-shipment': { units: 0, orders: 0 }, 'ready-to-ship': { units: 0, orders: 0 } }
  for (const [day, orders, revenueCents, awaitingUnits, awaitingOrders, readyUnits, readyOrders] of rows) {
    perDay.set(dateOfDayNumber(day!), { orders: orders!, revenueCents: revenueCents! })
    shipping['awaiting-shipment'].units += awaitingUnits!
    shipping['awaiting-shipment'].orders += awaitingOrders!
    shipping['ready-to-ship'].units += readyUnits!
    shipping['ready-to-ship'].orders += readyOrders!
  }
  return { perDay, shipping }
}

function olderOpenFigure(check: OlderOpenCheck | null): Dashboard['olderOpen'] {
  if (!check) return null
  const { beforeMs, checkedMs, kept: orders, listed, answered, complete, error } = check
  return { before: beforeMs === null ? null : iso(beforeMs), checkedAt: iso(checkedMs), orders, listed, answered, complete, error }
}

/**
 * The first day the chart shows: the first local day the synced window holds from its start, so that no
 * point counts only the part of a day after the window began (a bar too low, and one day more than the
 * window's length in days). Today is always shown, however short the window.
 */
function firstWholeDay(windowFromMs: number, today: string, timeZone: string): string {
  const date = localDateOf(windowFromMs, timeZone)
  const first = startOfLocalDate(date, timeZone) < windowFromMs ? addDays(date, 1) : date
  return first < today ? first : today
}

export function computeDashboard(db: Db, query: DashboardQuery): Dashboard {
  const { timeZone, nowMs } = query
  const today = localDateOf(nowMs, timeZone)
  const endOfToday = startOfLocalDate(addDays(today, 1), timeZone) - 1
  const startOfToday = startOfLocalDate(today, timeZone)
  const startOfWeek = startOfLocalDate(addDays(today, -6), timeZone)

  const days = localDaysBetween(startOfLocalDate(firstWholeDay(query.windowFromMs, today, timeZone), timeZone), nowMs, timeZone)
  const first = days[0]!
  // The days counted reach back to the week's start when the window is shorter than the week.
  const { perDay, shipping } = ordersPass(db, offsetSpans(Math.min(first.startMs, startOfWeek), days[days.length - 1]!.endMs, timeZone))
  /** Orders placed on the local days from `from` to today. */
  const sinceDay = (from: string, fromMs: number): OrderFigure => {
    const figure = { fromDate: iso(fromMs), toDate: iso(endOfToday), orders: 0, revenueCents: 0 }
    for (let date = from; date <= today; date = addDays(date, 1)) {
      figure.orders += perDay.get(date)?.orders ?? 0
      figure.revenueCents += perDay.get(date)?.revenueCents ?? 0
    }
    return figure
  }

  const [lowStock] = db.prepare('SELECT COUNT(*) FROM sell_requests WHERE quantity < ?').raw().get(query.lowStockThreshold) as [number]

  return {
    timeZone,
    today: sinceDay(today, startOfToday),
    week: sinceDay(addDays(today, -6), startOfWeek),
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
    syncedAt: query.syncedAt,
    olderOpen: olderOpenFigure(readOlderOpenCheck(db)),
    orderTimesNote: query.orderTimesNote ?? null
  }
}
