/**
 * Sell requests in the snapshot: writing pages, swapping a staged full sync in, single-row updates
 * after an edit or delete, and the list query done in SQLite.
 */
import type { Page, SellRequest, SortDir } from '../domain'
import { scalar, type Db } from './database'
import { containsPattern, searchText } from './likePattern'

export type SellRequestTables = '' | '_staged'

export interface SellRequestQuery {
  page: number
  take: number
  searchTerm?: string | undefined
  statuses?: string[] | undefined
  sortBy: 'updated' | 'price' | 'quantity' | 'name'
  sortDir: SortDir
}

export function writeSellRequests(db: Db, rows: SellRequest[], tables: SellRequestTables): void {
  const upsert = db.prepare(
    `INSERT OR REPLACE INTO sell_requests${tables} (id, name, sku, brand, category, status, price_cents, msrp_cents, quantity, min_quantity, updated_ms, search_text, json)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
  )
  for (const row of rows) {
    upsert.run(
      row.id, row.name, row.sku, row.brand, row.category, row.status, row.priceCents, row.msrpCents, row.quantity, row.minQuantity,
      Date.parse(row.updatedAt), searchText([row.name, row.sku, row.brand]), JSON.stringify(row)
    )
  }
}

export function deleteSellRequest(db: Db, id: string): void {
  db.prepare('DELETE FROM sell_requests WHERE id = ?').run(id)
}

export function promoteStagedSellRequests(db: Db): void {
  db.exec(`
    DELETE FROM sell_requests;
    INSERT INTO sell_requests SELECT * FROM sell_requests_staged;
    DELETE FROM sell_requests_staged;`)
}

export function clearStagedSellRequests(db: Db): void {
  db.exec('DELETE FROM sell_requests_staged')
}

const SORT_COLUMN = { updated: 'updated_ms', price: 'price_cents', quantity: 'quantity', name: 'name COLLATE NOCASE' } as const

export function querySellRequests(db: Db, query: SellRequestQuery): Page<SellRequest> {
  const where: string[] = []
  const params: unknown[] = []
  if (query.searchTerm?.trim()) {
    where.push("search_text LIKE ? ESCAPE '\\'")
    params.push(containsPattern(query.searchTerm))
  }
  if (query.statuses?.length) {
    where.push(`status IN (${query.statuses.map(() => '?').join(',')})`)
    params.push(...query.statuses)
  }
  const whereSql = where.length ? `WHERE ${where.join(' AND ')}` : ''
  const dir = query.sortDir === 'ASC' ? 'ASC' : 'DESC'
  const total = scalar<number>(db, `SELECT COUNT(*) FROM sell_requests ${whereSql}`, ...params) ?? 0
  const rows = db
    .prepare(`SELECT json FROM sell_requests ${whereSql} ORDER BY ${SORT_COLUMN[query.sortBy]} ${dir}, id ${dir} LIMIT ? OFFSET ?`)
    .raw()
    .all(...params, query.take, (query.page - 1) * query.take) as [string][]
  return { total, page: query.page, take: query.take, rows: rows.map(([json]) => JSON.parse(json) as SellRequest) }
}

export function sellRequestStatuses(db: Db): string[] {
  return (db.prepare('SELECT DISTINCT status FROM sell_requests ORDER BY status').raw().all() as [string][]).map(([s]) => s)
}

export function allSellRequests(db: Db): SellRequest[] {
  return (db.prepare('SELECT json FROM sell_requests ORDER BY id').raw().all() as [string][]).map(([json]) => JSON.parse(json) as SellRequest)
}
