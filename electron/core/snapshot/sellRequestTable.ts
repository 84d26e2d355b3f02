/**
 * Sell requests in the snapshot: writing pages (live or staged; as for orders: values bound, rows
 * stored as received), deleting one after a delete, and the list query in SQLite.
 */
import type { Page, SellRequest, SortDir } from '../../shared/domain'
import type { WireRows } from '../sellerApi'
import { sellRequestFromWire } from '../sellerApi/wire'
import { allSteps, stepStartsAt, type Steps } from '../eventLoopTurns'
import { writeRows, type Db, type RowWrite } from './database'
import { containsPattern, readPage, searchText } from './listQuery'
import { GRID_PROPERTIES } from './migrations'
import { docBytesAt, docText, docWrite, rowsText } from './docRows'
import type { Tables } from './orderTable'
import { deletedHereAmong } from './deletedHere'

/** A page of sell requests: converted rows (for the columns) and the same rows as received (the documents). */
export interface SellRequestBatch {
  rows: SellRequest[]
  wire: WireRows
}

export interface SellRequestQuery {
  page: number
  take: number
  searchTerm?: string | undefined
  statuses?: string[] | undefined
  brands?: string[] | undefined
  categories?: string[] | undefined
  /** Price range in cents, both ends included. */
  minPriceCents?: number | undefined
  maxPriceCents?: number | undefined
  /** Quantity range, both ends included. */
  quantityAtLeast?: number | undefined
  quantityAtMost?: number | undefined
  sortBy: 'updated' | 'price' | 'quantity' | 'name'
  sortDir: SortDir
}

const SELL_REQUEST_COLUMNS = [
  'id',
  'name',
  'sku',
  'brand',
  'category',
  'status',
  'price_cents',
  'msrp_cents',
  'quantity',
  'min_quantity',
  'updated_ms',
  'search_text',
  ...GRID_PROPERTIES
] as const

/** The writes that store a page of sell requests (in `tables`), as data: either connection can run them. */
export const sellRequestWrites = (batch: SellRequestBatch, tables: Tables): RowWrite[] => allSteps(sellRequestWriteSteps(batch, tables))

/** sellRequestWrites in steps (eventLoopTurns.ts): a step per ROWS_PER_STEP rows' columns. */
export function* sellRequestWriteSteps({ rows: sellRequests, wire }: SellRequestBatch, tables: Tables): Steps<RowWrite[]> {
  if (sellRequests.length === 0) return []
  const rows: unknown[][] = []
  for (let k = 0; k < sellRequests.length; k++) {
    if (k > 0 && stepStartsAt(k)) yield
    const row = sellRequests[k]!
    rows.push([
      row.id,
      row.name,
      row.sku,
      row.brand,
      row.category,
      row.status,
      row.priceCents,
      row.msrpCents,
      row.quantity,
      row.minQuantity,
      Date.parse(row.updatedAt),
      searchText([row.name, row.sku, row.brand]),
      ...GRID_PROPERTIES.map((key) => row.properties[key] ?? '')
    ])
  }
  return [{ insert: `sell_requests${tables}`, columns: SELL_REQUEST_COLUMNS, rows }, docWrite(`sell_request_docs${tables}`, sellRequests, wire)]
}

/**
 * Writes a page of changed sell requests into the live tables, leaving out each row older (updated_ms)
 * than the one held for its id: the marketplace answers a page with the rows as they were when it was
 * asked, and an edit answered meanwhile (putSellRequest) holds a newer row that the page must not undo.
 * A row as new replaces, unless it is the held row to the byte (a catch-up or an incremental sync reads a
 * page of mostly unchanged listings, and rewriting each would redo its indexes for nothing); one not held
 * is inserted. A listing deleted here since is left out too (deletedHere.ts). Rows are left out of both
 * tables alike, so a listing's columns and document stay the same row. Runs on the core's connection, in the caller's transaction (which holds the write lock from its
 * start: inTransaction), so nothing writes between the read of what is held and the write. Returns how
 * many rows it wrote.
 */
export function writeSellRequestChanges(db: Db, batch: SellRequestBatch): number {
  const { rows } = batch
  if (rows.length === 0) return 0
  const held = new Map(
    (
      db
        .prepare(
          'SELECT s.id, s.updated_ms, d.json FROM sell_requests s LEFT JOIN sell_request_docs d ON d.id = s.id WHERE s.id IN (SELECT value FROM json_each(?))'
        )
        .raw()
        .all(JSON.stringify(rows.map((row) => row.id))) as [string, number, string | null][]
    ).map(([id, updatedMs, json]) => [id, { updatedMs, json }])
  )
  const deleted = deletedHereAmong(
    db,
    rows.map((row) => row.id)
  )
  const writes = sellRequestWrites(batch, '')
  const [columns, docs] = writes as [Extract<RowWrite, { rows: unknown }>, RowWrite]
  const kept: number[] = []
  for (const [i, row] of rows.entries()) {
    if (deleted.has(row.id)) continue
    const updatedMs = Date.parse(row.updatedAt)
    const was = held.get(row.id)
    if (was && (updatedMs < was.updatedMs || (updatedMs === was.updatedMs && was.json !== null && was.json === docText(docs, i)))) continue
    kept.push(i)
    held.set(row.id, { updatedMs, json: null }) // a later copy in the same page is held to this one
  }
  if (kept.length === 0) return 0
  if (kept.length === rows.length) {
    writeRows(db, writes)
    return kept.length
  }
  const { wire } = batch
  writeRows(db, [
    { ...columns, rows: kept.map((i) => columns.rows[i]!) },
    'bytes' in docs
      ? docBytesAt(docs, kept)
      : // The response could not be cut into rows: SQLite unpacks it, and keeps the documents of the rows
        // kept, by their place in the page (by id, an older copy of a row kept would be kept too).
        {
          run: `INSERT OR REPLACE INTO sell_request_docs (id, json) SELECT value->>'$.id', value FROM json_each(?, ?) WHERE key IN (SELECT value FROM json_each(?)) ORDER BY key`,
          params: 'bytes' in wire ? [rowsText(wire), '$', JSON.stringify(kept)] : [wire.json, wire.path, JSON.stringify(kept)]
        }
  ])
  return kept.length
}

export function countSellRequests(db: Db): number {
  return (db.prepare('SELECT COUNT(*) FROM sell_requests').raw().get() as [number])[0]
}

/** Those of the ids no live sell request has. */
export function unknownSellRequestIds(db: Db, ids: string[]): string[] {
  const known = new Set(
    (db.prepare('SELECT id FROM sell_requests WHERE id IN (SELECT value FROM json_each(?))').raw().all(JSON.stringify(ids)) as [string][]).map(([id]) => id)
  )
  return ids.filter((id) => !known.has(id))
}

/** The price and quantity the snapshot holds for a listing; null when it has none with that id. */
export function sellRequestValues(db: Db, id: string): { priceCents: number; quantity: number } | null {
  const row = db.prepare('SELECT price_cents, quantity FROM sell_requests WHERE id = ?').raw().get(id) as [number, number] | undefined
  return row ? { priceCents: row[0], quantity: row[1] } : null
}

/** The listing the snapshot holds with this id, as synced; null when it has none. */
export function sellRequestWithId(db: Db, id: string): SellRequest | null {
  const row = db.prepare('SELECT json FROM sell_request_docs WHERE id = ?').raw().get(id) as [string] | undefined
  return row ? sellRequestFromDoc(row[0]) : null
}

export function deleteSellRequest(db: Db, id: string): void {
  db.prepare('DELETE FROM sell_requests WHERE id = ?').run(id)
  db.prepare('DELETE FROM sell_request_docs WHERE id = ?').run(id)
}

const SORT_COLUMN = { updated: 'updated_ms', price: 'price_cents', quantity: 'quantity', name: 'name' } as const

export function querySellRequests(db: Db, query: SellRequestQuery): Page<SellRequest> {
  const where: string[] = []
  const params: unknown[] = []
  if (query.searchTerm?.trim()) {
    where.push("s.search_text LIKE ? ESCAPE '\\'")
    params.push(containsPattern(query.searchTerm))
  }
  for (const [column, values] of [
    ['status', query.statuses],
    ['brand', query.brands],
    ['category', query.categories]
  ] as const) {
    if (!values?.length) continue
    where.push(`s.${column} IN (${values.map(() => '?').join(',')})`)
    params.push(...values)
  }
  for (const [condition, value] of [
    ['s.price_cents >= ?', query.minPriceCents],
    ['s.price_cents <= ?', query.maxPriceCents],
    ['s.quantity >= ?', query.quantityAtLeast],
    ['s.quantity <= ?', query.quantityAtMost]
  ] as const) {
    if (value === undefined) continue
    where.push(condition)
    params.push(value)
  }
  const whereSql = where.length ? `WHERE ${where.join(' AND ')}` : ''
  // As for orders: with a filter, count first and pick the plan by how many rows match (a search reads once).
  const { total, docs } = readPage(
    db,
    {
      table: 'sell_requests',
      as: 's',
      docs: 'sell_request_docs',
      whereSql,
      params,
      sortColumn: SORT_COLUMN[query.sortBy],
      collate: query.sortBy === 'name' ? ' COLLATE NOCASE' : '',
      filtered: where.length > 0,
      searched: Boolean(query.searchTerm?.trim())
    },
    query
  )
  return { total, page: query.page, take: query.take, rows: docs.map(sellRequestFromDoc) }
}

/** Every distinct brand and category in the snapshot (for filters). */
export function sellRequestFacets(db: Db): { brands: string[]; categories: string[] } {
  const distinct = (column: 'brand' | 'category') =>
    (db.prepare(`SELECT DISTINCT ${column} FROM sell_requests WHERE ${column} <> '' ORDER BY ${column} COLLATE NOCASE`).raw().all() as [string][]).map(
      ([value]) => value
    )
  return { brands: distinct('brand'), categories: distinct('category') }
}

export function sellRequestStatuses(db: Db): string[] {
  return (db.prepare('SELECT DISTINCT status FROM sell_requests ORDER BY status').raw().all() as [string][]).map(([s]) => s)
}

/** A stored document (checked when it was written) → the domain sell request. */
const sellRequestFromDoc = (json: string): SellRequest => sellRequestFromWire(JSON.parse(json) as Parameters<typeof sellRequestFromWire>[0])

export function allSellRequests(db: Db): SellRequest[] {
  return (db.prepare('SELECT json FROM sell_request_docs ORDER BY id').raw().all() as [string][]).map(([json]) => sellRequestFromDoc(json))
}
