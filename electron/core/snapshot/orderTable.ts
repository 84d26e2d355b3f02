/**
 * Orders (with items and tracking) in the snapshot: writing pages, swapping a staged full sync in,
 * and the list query (search, dates, statuses, sort, paging) done in SQLite.
 */
import type { Order, Page, SortDir } from '../domain'
import { scalar, type Db } from './database'
import { containsPattern, searchText } from './likePattern'

export type OrderTables = '' | '_staged'

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

export function writeOrders(db: Db, orders: Order[], tables: OrderTables): void {
  const upsert = db.prepare(
    `INSERT OR REPLACE INTO orders${tables} (id, order_no, order_ms, status, quantity, products, total_cents, amount_paid_cents, search_text, json)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
  )
  const clearItems = db.prepare(`DELETE FROM order_items${tables} WHERE order_id = ?`)
  const addItem = db.prepare(
    `INSERT INTO order_items${tables} (order_id, position, id, name, status, quantity, price_cents, total_cents, sell_request_id, shipment, tracking_number)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
  )
  for (const order of orders) {
    const text = searchText([
      order.orderNo,
      ...order.items.flatMap((item) => [item.name, item.shipment, item.tracking?.trackingNumber])
    ])
    upsert.run(order.id, order.orderNo, Date.parse(order.orderDate), order.status, order.quantity, order.products, order.totalCents, order.amountPaidCents, text, JSON.stringify(order))
    clearItems.run(order.id)
    order.items.forEach((item, position) =>
      addItem.run(order.id, position, item.id, item.name, item.status, item.quantity, item.priceCents, item.totalCents, item.sellRequestId, item.shipment, item.tracking?.trackingNumber ?? null)
    )
  }
}

/** Replaces the live orders with the staged ones (inside the caller's transaction). */
export function promoteStagedOrders(db: Db): void {
  db.exec(`
    DELETE FROM orders; DELETE FROM order_items;
    INSERT INTO orders SELECT * FROM orders_staged;
    INSERT INTO order_items SELECT * FROM order_items_staged;
    DELETE FROM orders_staged; DELETE FROM order_items_staged;`)
}

export function clearStagedOrders(db: Db): void {
  db.exec('DELETE FROM orders_staged; DELETE FROM order_items_staged;')
}

/** Ids among `ids` that the live table does not hold yet. */
export function unknownOrderIds(db: Db, ids: string[]): Set<string> {
  const known = db.prepare('SELECT 1 FROM orders WHERE id = ?').raw()
  return new Set(ids.filter((id) => known.get(id) === undefined))
}

export function countOrders(db: Db): number {
  return scalar<number>(db, 'SELECT COUNT(*) FROM orders') ?? 0
}

export function queryOrders(db: Db, query: OrderQuery): Page<Order> {
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
    where.push(`EXISTS (SELECT 1 FROM order_items i WHERE i.order_id = o.id AND i.status IN (${query.itemStatuses.map(() => '?').join(',')}))`)
    params.push(...query.itemStatuses)
  }
  const whereSql = where.length ? `WHERE ${where.join(' AND ')}` : ''
  const dir = query.sortDir === 'ASC' ? 'ASC' : 'DESC'
  const orderBy = query.sortBy === 'total' ? `o.total_cents ${dir}, o.id ${dir}` : `o.order_ms ${dir}, o.id ${dir}`
  const total = scalar<number>(db, `SELECT COUNT(*) FROM orders o ${whereSql}`, ...params) ?? 0
  const rows = db
    .prepare(`SELECT o.json FROM orders o ${whereSql} ORDER BY ${orderBy} LIMIT ? OFFSET ?`)
    .raw()
    .all(...params, query.take, (query.page - 1) * query.take) as [string][]
  return { total, page: query.page, take: query.take, rows: rows.map(([json]) => JSON.parse(json) as Order) }
}

/** Every distinct order and item status in the snapshot (for filters). */
export function orderStatuses(db: Db): { statuses: string[]; itemStatuses: string[] } {
  const list = (sql: string) => (db.prepare(sql).raw().all() as [string][]).map(([value]) => value)
  return {
    statuses: list('SELECT DISTINCT status FROM orders ORDER BY status'),
    itemStatuses: list('SELECT DISTINCT status FROM order_items ORDER BY status')
  }
}

export function allOrders(db: Db): Order[] {
  return (db.prepare('SELECT json FROM orders ORDER BY id').raw().all() as [string][]).map(([json]) => JSON.parse(json) as Order)
}

/** How many of these orders the snapshot holds and what they add up to. */
export function summarizeOrders(db: Db, ids: string[]): { count: number; totalCents: number } {
  if (ids.length === 0) return { count: 0, totalCents: 0 }
  let count = 0
  let totalCents = 0
  const one = db.prepare('SELECT total_cents FROM orders WHERE id = ?').raw()
  for (const id of ids) {
    const row = one.get(id) as [number] | undefined
    if (row) {
      count++
      totalCents += row[0]
    }
  }
  return { count, totalCents }
}
