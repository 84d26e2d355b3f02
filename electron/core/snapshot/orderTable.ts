/**
 * Orders (with items and tracking) in the snapshot: writing pages (live or staged),
 * and the list query (search, dates, statuses, sort, paging) done in SQLite.
 *
 * A page is written with one native call per 100 rows for the columns (values bound as they are) and
 * as many for the documents: each row's text as the marketplace sent it (checked), as the client read
 * it a row at a time or cut from the response (docRows.ts). Nothing is serialised again and SQLite
 * parses no JSON. Documents are kept in the wire
 * format and converted when read (only a page at a time).
 */

/** A page of orders: converted rows (for the columns) and the same rows as received (the documents). */
export interface OrderBatch {
  rows: Order[]
  wire: WireRows
}
import type { OrderItemUnits } from '../../shared/contract'
import type { Order, Page, SortDir } from '../../shared/domain'
import type { WireRows } from '../sellerApi'
import { orderDateIn, orderFromWire } from '../sellerApi/wire'
import { scalar, writeRows, type Db, type RowWrite } from './database'
import { docWrite } from './docRows'
import { allSteps, stepStartsAt, type Steps } from '../eventLoopTurns'
import { containsPattern, readPage, searchNeedle, searchText } from './listQuery'
import { deleteRun, writeSyncState } from './syncBookkeeping'

export type Tables = '' | '_staged'

export interface OrderQuery {
  page: number
  take: number
  searchTerm?: string | undefined
  fromMs?: number | undefined
  toMs?: number | undefined
  statuses?: string[] | undefined
  itemStatuses?: string[] | undefined
  sortBy: 'date' | 'total'
  sortDir: SortDir
}

/**
 * What an order's columns say of its items, read in one walk over them (a full sync writes tens of
 * thousands of orders): the statuses as one searchable text ("|awaiting-shipment|ready-to-ship|", each
 * once, as first met), the units in the two statuses the dashboard sums, the units by status as a JSON
 * object (`{"delivered":2,"ready-to-ship":1}`), and the texts a search finds the order by.
 */
function itemColumns(order: Order): { statuses: string; awaiting: number; ready: number; units: string; search: string } {
  const statuses: string[] = []
  const units: Record<string, number> = Object.create(null) as Record<string, number>
  const searched: (string | null | undefined)[] = [order.orderNo]
  let awaiting = 0
  let ready = 0
  for (const item of order.items) {
    const { status, quantity } = item
    if (units[status] === undefined) {
      statuses.push(status)
      units[status] = quantity
    } else units[status] += quantity
    if (status === 'awaiting-shipment') awaiting += quantity
    else if (status === 'ready-to-ship') ready += quantity
    pushSearched(searched, item)
  }
  return { statuses: `|${statuses.join('|')}|`, awaiting, ready, units: JSON.stringify(units), search: searchText(searched) }
}

/** A status as the item statuses column holds it ("|status|"): the parameter of `instr(item_statuses, ?) > 0`. */
export const itemStatusParam = (status: string): string => `|${status}|`

/**
 * SQL true where an order holds an item in `status`: the item statuses column is "|status|status|". A
 * status named here is one of the app's (never a seller's or a marketplace's words); a filter's go as
 * parameters (itemStatusParam).
 */
export const holdsItemStatus = (status: string): string => `instr(item_statuses, '${itemStatusParam(status)}') > 0`

/** The texts of an item a search finds its order by (with the order's number), added to `searched`. */
function pushSearched(searched: (string | null | undefined)[], item: Order['items'][number]): void {
  searched.push(item.name, item.shipment, item.tracking?.trackingNumber)
}

/** An order's search text alone, as `itemColumns` writes it (for orders searched in memory). */
function searchTextOf(order: Order): string {
  const searched: (string | null | undefined)[] = [order.orderNo]
  for (const item of order.items) pushSearched(searched, item)
  return searchText(searched)
}

export const ORDER_COLUMNS = [
  'id',
  'order_no',
  'order_ms',
  'status',
  'item_statuses',
  'awaiting_shipment_units',
  'ready_to_ship_units',
  'quantity',
  'products',
  'total_cents',
  'amount_paid_cents',
  'search_text',
  'item_units'
] as const

/** The writes that store a page of orders (in `tables`), as data: either connection can run them. */
export const orderWrites = (batch: OrderBatch, tables: Tables): RowWrite[] => allSteps(orderWriteSteps(batch, tables))

/** orderWrites in steps (eventLoopTurns.ts): a step per ROWS_PER_STEP rows' columns. */
export function* orderWriteSteps({ rows: orders, wire }: OrderBatch, tables: Tables): Steps<RowWrite[]> {
  if (orders.length === 0) return []
  const rows: unknown[][] = []
  for (let k = 0; k < orders.length; k++) {
    if (k > 0 && stepStartsAt(k)) yield
    const order = orders[k]!
    const items = itemColumns(order)
    rows.push([
      order.id,
      order.orderNo,
      Date.parse(order.orderDate),
      order.status,
      items.statuses,
      items.awaiting,
      items.ready,
      order.quantity,
      order.products,
      order.totalCents,
      order.amountPaidCents,
      items.search,
      items.units
    ])
  }
  return [{ insert: `orders${tables}`, columns: ORDER_COLUMNS, rows }, docWrite(`order_docs${tables}`, orders, wire)]
}

export function writeOrders(db: Db, batch: OrderBatch, tables: Tables): void {
  writeRows(db, orderWrites(batch, tables))
}

/** Orders the live table holds from before the synced window for their open items (olderOpenOrders.ts). */
export const OLDER_OPEN_IDS = 'SELECT id FROM older_open_orders'

/**
 * Ids among `ids` that the live table does not hold yet as orders of the synced window: an order kept
 * from before it for its open items (OLDER_OPEN_IDS) is new to the window's count when a sync reads it.
 */
export function unknownOrderIds(db: Db, ids: string[]): Set<string> {
  const rows = db
    .prepare(`SELECT value FROM json_each(?) WHERE value NOT IN (SELECT id FROM orders) OR value IN (${OLDER_OPEN_IDS})`)
    .raw()
    .all(JSON.stringify(ids)) as [string][]
  return new Set(rows.map(([id]) => id))
}

/**
 * Ids in the staged orders that the live table does not hold yet and that were placed in the synced
 * window (from `windowFromMs`; an older order is staged for an update in it, and is no new order): a
 * read over every row, which the snapshot's thread runs.
 */
export const newStagedOrderIds = (windowFromMs: number | null): string =>
  `SELECT DISTINCT id FROM orders_staged WHERE ${windowFromMs === null ? '' : `order_ms >= ${Math.floor(Number(windowFromMs))} AND `}id NOT IN (SELECT id FROM orders)`

/** The orders the marketplace's count of the synced window covers: all but those kept from before it for their open items. */
export function countOrders(db: Db): number {
  return scalar<number>(db, `SELECT COUNT(*) FROM orders WHERE id NOT IN (${OLDER_OPEN_IDS})`) ?? 0
}

/**
 * Whether an order passes a list's search and status filters, as orderFilter's SQL has them: for orders
 * that are not in the table (placed before the kept window, read from the marketplace for their dates).
 */
export function orderMatches(order: Order, query: Pick<OrderQuery, 'searchTerm' | 'statuses' | 'itemStatuses'>): boolean {
  const term = query.searchTerm ? searchNeedle(query.searchTerm) : ''
  if (term && !searchTextOf(order).includes(term)) return false
  if (query.statuses?.length && !query.statuses.includes(order.status)) return false
  const itemStatuses = query.itemStatuses
  return !itemStatuses?.length || order.items.some((item) => itemStatuses.includes(item.status))
}

/** The filters of a list query as SQL over the orders table (`o`). */
function orderFilter(query: Omit<OrderQuery, 'page' | 'take' | 'sortBy' | 'sortDir'>): { whereSql: string; params: unknown[] } {
  const where: string[] = []
  const params: unknown[] = []
  if (query.searchTerm?.trim()) {
    where.push("o.search_text LIKE ? ESCAPE '\\'")
    params.push(containsPattern(query.searchTerm))
  }
  if (query.fromMs !== undefined) {
    where.push('o.order_ms >= ?')
    params.push(query.fromMs)
  }
  if (query.toMs !== undefined) {
    where.push('o.order_ms <= ?')
    params.push(query.toMs)
  }
  if (query.statuses?.length) {
    where.push(`o.status IN (${query.statuses.map(() => '?').join(',')})`)
    params.push(...query.statuses)
  }
  if (query.itemStatuses?.length) {
    where.push(`(${query.itemStatuses.map(() => 'instr(o.item_statuses, ?) > 0').join(' OR ')})`)
    params.push(...query.itemStatuses.map(itemStatusParam))
  }
  return { whereSql: where.length ? `WHERE ${where.join(' AND ')}` : '', params }
}

/** A list query's order: its sort column and direction (ties by id, the same way). */
function listOrder(query: Pick<OrderQuery, 'sortBy' | 'sortDir'>): { sortColumn: string; dir: 'ASC' | 'DESC' } {
  return { sortColumn: query.sortBy === 'total' ? 'total_cents' : 'order_ms', dir: query.sortDir === 'ASC' ? 'ASC' : 'DESC' }
}

/** The ids of every order a list query matches, in its order (all pages: an export reads them in parts). */
export function orderIds(db: Db, query: Omit<OrderQuery, 'page' | 'take'>): string[] {
  const { whereSql, params } = orderFilter(query)
  const { sortColumn, dir } = listOrder(query)
  const rows = db
    .prepare(`SELECT o.id FROM orders o ${whereSql} ORDER BY o.${sortColumn} ${dir}, o.id ${dir}`)
    .raw()
    .all(...params) as [string][]
  return rows.map(([id]) => id)
}

/** The orders with these ids, in the order given; an id the snapshot no longer holds is left out. */
export function ordersWithIds(db: Db, ids: readonly string[], zone: string | null): Order[] {
  const rows = db.prepare('SELECT id, json FROM order_docs WHERE id IN (SELECT value FROM json_each(?))').raw().all(JSON.stringify(ids)) as [string, string][]
  const docs = new Map(rows)
  return ids.flatMap((id) => {
    const json = docs.get(id)
    return json === undefined ? [] : [orderFromDoc(json, zone)]
  })
}

/** A page of the orders a list query matches; `total`: how many it matches, when the caller has counted them (orderItemUnits). */
export function queryOrders(db: Db, query: OrderQuery, zone: string | null, total?: number): Page<Order> {
  const { whereSql, params } = orderFilter(query)
  const searched = Boolean(query.searchTerm?.trim())
  // A date range walks the date index; a search or status filter without one counts first.
  const filtered = (searched || Boolean(query.statuses?.length || query.itemStatuses?.length)) && query.fromMs === undefined && query.toMs === undefined
  const { sortColumn } = listOrder(query)
  const read = readPage(
    db,
    { table: 'orders', as: 'o', docs: 'order_docs', whereSql, params, sortColumn, collate: '', filtered, searched, ...(total === undefined ? {} : { total }) },
    query
  )
  return { total: read.total, page: query.page, take: query.take, rows: read.docs.map((json) => orderFromDoc(json, zone)) }
}

/** Units per item status held in their own columns, summed as the dashboard sums them. */
const UNIT_COLUMNS: Record<string, string> = { 'awaiting-shipment': 'awaiting_shipment_units', 'ready-to-ship': 'ready_to_ship_units' }

/**
 * The orders a list query matches, and the units of their items in each of `statuses`, over all pages:
 * the two statuses the dashboard counts from the same columns it sums, any other from each order's
 * units by status (item_units, written at sync: a few bytes per order, not its whole document).
 */
export function orderItemUnits(db: Db, query: Omit<OrderQuery, 'page' | 'take' | 'sortBy' | 'sortDir'>, statuses: string[]): OrderItemUnits {
  const { whereSql, params } = orderFilter(query)
  const known = statuses.filter((status) => Object.prototype.hasOwnProperty.call(UNIT_COLUMNS, status))
  const others = statuses.filter((status) => !known.includes(status))
  const sums = known.map((status) => `COALESCE(SUM(o.${UNIT_COLUMNS[status]}), 0)`)
  const row = db
    .prepare(`SELECT ${['COUNT(*)', ...sums].join(', ')} FROM orders o ${whereSql}`)
    .raw()
    .get(...params) as number[]
  const units = new Map<string, number>(known.map((status, i) => [status, row[i + 1]!]))
  if (others.length) {
    const rows = db
      .prepare(
        `SELECT u.key, SUM(u.value) FROM orders o, json_each(o.item_units) u
         ${whereSql ? `${whereSql} AND` : 'WHERE'} u.key IN (${others.map(() => '?').join(',')})
         GROUP BY u.key`
      )
      .raw()
      .all(...params, ...others) as [string, number][]
    for (const [status, sum] of rows) units.set(status, sum)
  }
  return { orders: row[0]!, units: statuses.map((status) => ({ status, units: units.get(status) ?? 0 })) }
}

/** Every distinct order and item status in the snapshot (for filters). */
export function orderStatuses(db: Db): { statuses: string[]; itemStatuses: string[] } {
  const statuses = (db.prepare('SELECT DISTINCT status FROM orders ORDER BY status').raw().all() as [string][]).map(([value]) => value)
  const sets = (db.prepare('SELECT DISTINCT item_statuses FROM orders').raw().all() as [string][]).map(([value]) => value)
  const itemStatuses = [...new Set(sets.flatMap((set) => set.split('|').filter(Boolean)))].sort()
  return { statuses, itemStatuses }
}

/** A stored document (checked when it was written) → the domain order, its time read in `zone` (null: UTC). */
const orderFromDoc = (json: string, zone: string | null): Order => orderFromWire(JSON.parse(json) as Parameters<typeof orderFromWire>[0], zone)

export function allOrders(db: Db, zone: string | null): Order[] {
  return (db.prepare('SELECT json FROM order_docs ORDER BY id').raw().all() as [string][]).map(([json]) => orderFromDoc(json, zone))
}

/** The zone the marketplace writes order times in, where the seller named one (null: UTC), and whether every order's time column is written in it. */
export function readOrderTimeZone(db: Db): { zone: string | null; columnsWritten: boolean } {
  const row = db.prepare('SELECT zone, columns_written FROM order_time_zone WHERE id = 1').raw().get() as [string | null, number] | undefined
  return { zone: row?.[0] ?? null, columnsWritten: row === undefined || row[1] === 1 }
}

/**
 * Keeps the zone, its columns not yet written in it: a snapshot opened with them so (a crash while they
 * were written) writes them all (writeOrderTimes) before it is read. A run staging orders is dropped (its
 * rows were written in the zone before): the next full sync starts over. Whether new orders show the
 * times to be read right, and the clock's offset, are seen again from the start.
 */
export function beginOrderTimeZone(db: Db, zone: string | null): void {
  db.prepare(
    'INSERT INTO order_time_zone (id, zone, columns_written) VALUES (1, ?, 0) ON CONFLICT (id) DO UPDATE SET zone = excluded.zone, columns_written = 0'
  ).run([zone])
  deleteRun(db, 'orders')
  writeSyncState(db, 'orders', { orderTimesReadRight: null, clockOffsetMs: null })
}

/**
 * Writes the time columns of up to `limit` orders after the document at `afterRowid`, in document
 * order, their times as they came (the documents' `orderDate`) read in `zone`. Returns where the next
 * part starts, or null when none is left.
 */
export function writeOrderTimes(db: Db, afterRowid: number, limit: number, zone: string | null): number | null {
  const rows = db
    .prepare("SELECT rowid, id, json_extract(json, '$.orderDate') FROM order_docs WHERE rowid > ? ORDER BY rowid LIMIT ?")
    .raw()
    .all(afterRowid, limit) as [number, string, unknown][]
  const update = db.prepare('UPDATE orders SET order_ms = ? WHERE id = ?')
  for (const [, id, orderDate] of rows) if (typeof orderDate === 'string') update.run(Date.parse(orderDateIn(orderDate, zone)), id)
  return rows.length < limit ? null : rows[rows.length - 1]![0]
}

/** Says every order's time column is written in the zone kept. */
export function endOrderTimeZone(db: Db): void {
  db.prepare('UPDATE order_time_zone SET columns_written = 1 WHERE id = 1').run()
}

/** How many of these orders the snapshot holds and what they add up to. */
export function summarizeOrders(db: Db, ids: string[]): { count: number; totalCents: number } {
  if (ids.length === 0) return { count: 0, totalCents: 0 }
  const row = db
    .prepare('SELECT COUNT(*), COALESCE(SUM(total_cents), 0) FROM orders WHERE id IN (SELECT value FROM json_each(?))')
    .raw()
    .get(JSON.stringify(ids)) as [number, number]
  return { count: row[0], totalCents: row[1] }
}
