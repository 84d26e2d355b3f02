/**
 * The listings a bulk edit works on, as the snapshot holds them now: the narrow columns only (id, SKU,
 * name, brand, status, last update) and each editable field's value (read by its descriptor's column),
 * read in one query however many are asked for.
 */
import type { GridListingRow } from '../../shared/contract'
import { gridRowReader } from '../../shared/gridRow'
import { LISTING_FIELD_SET, type FieldSet } from '../../shared/listingFields'
import { rowsAsJson, type Db } from '../snapshot/database'

/** What staging a change needs of a listing: its id, its last update, and each field's value under the field's key. */
export interface ListingBase {
  id: string
  updatedAt: string
  readonly [field: string]: string | number
}

export interface CurrentListing extends ListingBase {
  sku: string
  name: string
  brand: string
  status: string
}

const FIXED = ['s.id', 's.sku', 's.name', 's.brand', 's.status', 's.updated_ms']

type Row = [string, string, string, string, string, number, ...number[]]

function reader(fields: FieldSet) {
  const columns = [...FIXED, ...fields.all.map((field) => field.column)].join(', ')
  const fromRow = ([id, sku, name, brand, status, updatedMs, ...values]: Row): CurrentListing => {
    const listing: Record<string, string | number> = { id, sku, name, brand, status, updatedAt: new Date(updatedMs).toISOString() }
    fields.all.forEach((field, i) => (listing[field.key] = values[i]!))
    return listing as CurrentListing
  }
  return { columns, fromRow }
}

/** The listings with these ids, by id (unknown ids are absent). */
export function listingsById(db: Db, ids: Iterable<string>, fields: FieldSet = LISTING_FIELD_SET): Map<string, CurrentListing> {
  const unique = [...new Set(ids)]
  const { columns, fromRow } = reader(fields)
  const rows = rowsAsJson<Row>(db, columns, 'FROM sell_requests s WHERE s.id IN (SELECT value FROM json_each(?))', null, JSON.stringify(unique))
  return new Map(rows.map((row) => [row[0], fromRow(row)]))
}

/** Every listing, ordered by name, or in no particular order (cheaper: for lookups, e.g. an import's). */
export function allListings(db: Db, order: 'name' | 'none' = 'name', fields: FieldSet = LISTING_FIELD_SET): CurrentListing[] {
  const { columns, fromRow } = reader(fields)
  return rowsAsJson<Row>(db, columns, 'FROM sell_requests s', order === 'name' ? 's.name COLLATE NOCASE, s.id' : null).map(fromRow)
}

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
export function createListingsMemo(db: Db, generation: () => number, fields: FieldSet = LISTING_FIELD_SET): ListingsMemo {
  let memo: { generation: number; byId: Map<string, ListingBase> } | null = null
  const gridRow = gridRowReader(fields.all.map((field) => field.key))
  return {
    remember(rows, at) {
      const byId = new Map<string, ListingBase>()
      for (const row of rows) {
        const listing: Record<string, string | number> = { id: gridRow.id(row), updatedAt: gridRow.updatedAt(row) }
        for (const field of fields.all) listing[field.key] = gridRow.value(row, field.key)
        byId.set(listing.id as string, listing as ListingBase)
      }
      memo = { generation: at, byId }
    },
    byId(ids) {
      if (!memo || memo.generation !== generation()) {
        memo = null // stale for good: the grid reads the rows again
        return listingsById(db, ids, fields)
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
