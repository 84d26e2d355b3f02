/**
 * The listings a bulk edit works on, as the snapshot holds them now: the narrow columns only (id, SKU,
 * name, brand, status, price, quantity, last update), read in one query however many are asked for.
 */
import type { GridListingRow } from '../../shared/contract'
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

/** What staging a change needs of a listing (see proposedChange). */
export type ListingBase = Pick<CurrentListing, 'id' | 'updatedAt' | 'priceCents' | 'quantity'>

export interface ListingsMemo {
  /** Keeps the values of the rows the grid was just handed, read at snapshot listings generation `generation`. */
  remember(rows: readonly GridListingRow[], generation: number): void
  /** The listings with these ids (unknown ids are absent). */
  byId(ids: Iterable<string>): Map<string, ListingBase>
}

/**
 * The listings' values as the bulk-edit grid last read them, used while the snapshot's listings are
 * unchanged since (its listings generation): a large paste looks them up in memory instead of one
 * SQLite lookup per cell (bench/bulkGrid.bench.ts). Otherwise, and before the grid was read, they come
 * from SQLite.
 */
export function createListingsMemo(db: Db, generation: () => number): ListingsMemo {
  let memo: { generation: number; byId: Map<string, ListingBase> } | null = null
  return {
    remember(rows, at) {
      const byId = new Map<string, ListingBase>()
      for (const row of rows) byId.set(row[0], { id: row[0], priceCents: row[9], quantity: row[10], updatedAt: row[11] })
      memo = { generation: at, byId }
    },
    byId(ids) {
      if (!memo || memo.generation !== generation()) {
        memo = null // stale for good: the grid reads the rows again
        return listingsById(db, ids)
      }
      const found = new Map<string, ListingBase>()
      for (const id of ids) {
        const listing = memo.byId.get(id)
        if (listing) found.set(id, listing)
      }
      return found
    }
  }
}
