/**
 * The listings a bulk edit works on, as the snapshot holds them now: the narrow columns only (id, SKU,
 * name, brand, status, price, quantity, last update), read in one query however many are asked for.
 */
import { rowsAsJson, type Db } from '../snapshot/database'

export interface CurrentListing {
  id: string
  sku: string
  name: string
  brand: string
  status: string
  priceCents: number
  quantity: number
  updatedAt: string
}

type Row = [string, string, string, string, string, number, number, number]

const COLUMNS = 'id, sku, name, brand, status, price_cents, quantity, updated_ms'

const fromRow = ([id, sku, name, brand, status, priceCents, quantity, updatedMs]: Row): CurrentListing => ({
  id, sku, name, brand, status, priceCents, quantity, updatedAt: new Date(updatedMs).toISOString()
})

/** The listings with these ids, by id (unknown ids are absent). */
export function listingsById(db: Db, ids: Iterable<string>): Map<string, CurrentListing> {
  const unique = [...new Set(ids)]
  const rows = rowsAsJson<Row>(db, COLUMNS, 'FROM sell_requests WHERE id IN (SELECT value FROM json_each(?))', null, JSON.stringify(unique))
  return new Map(rows.map((row) => [row[0], fromRow(row)]))
}

/** Every listing, ordered by name, or in no particular order (cheaper: for lookups, e.g. an import's). */
export function allListings(db: Db, order: 'name' | 'none' = 'name'): CurrentListing[] {
  return rowsAsJson<Row>(db, COLUMNS, 'FROM sell_requests', order === 'name' ? 'name COLLATE NOCASE, id' : null).map(fromRow)
}
