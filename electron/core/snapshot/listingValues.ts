/**
 * The listings a bulk edit works on, as the snapshot holds them now: the narrow columns only (id, SKU,
 * name, brand, status, last update) and each editable field's value (read by its descriptor's column),
 * read in one query however many are asked for. An import reads fewer: what it finds a listing by and
 * stages on it, and only for the listings its file names.
 */
import { LISTING_FIELD_SET, type FieldSet } from '../../shared/listingFields'
import { rowsAsJson, type Db } from './database'

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

/** What an import finds a listing by (id or SKU) and stages on it. */
export interface ImportListing extends ListingBase {
  sku: string
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

/** Every listing, ordered by name. */
export function allListings(db: Db, fields: FieldSet = LISTING_FIELD_SET): CurrentListing[] {
  const { columns, fromRow } = reader(fields)
  return rowsAsJson<Row>(db, columns, 'FROM sell_requests s', 's.name COLLATE NOCASE, s.id').map(fromRow)
}

/**
 * The listings `wanted` keeps (by id and SKU) among at most `limit` rows (Infinity: every row) in the
 * table's own order after the row `afterRow` (0: from the start), with `read`, how many rows were read,
 * and the last row read. Only the columns an import needs are read, and only the listings it keeps are
 * built (an import holds them until it ends, and full listings of every row kept the core's collector busy).
 */
export function importListingsAfter(
  db: Db,
  afterRow: number,
  limit: number,
  wanted: (id: string, sku: string) => boolean,
  fields: FieldSet = LISTING_FIELD_SET
): { listings: ImportListing[]; read: number; lastRow: number } {
  const columns = ['s.id', 's.sku', 's.updated_ms', ...fields.all.map((field) => field.column)].join(', ')
  const rows = rowsAsJson<[number, string, string, number, ...number[]]>(
    db,
    `s.row_number, ${columns}`,
    `FROM (SELECT s.rowid AS row_number, ${columns} FROM sell_requests s WHERE s.rowid > ? ORDER BY s.rowid LIMIT ?) s`,
    's.row_number',
    afterRow,
    limit === Infinity ? -1 : limit
  )
  const listings: ImportListing[] = []
  for (const [, id, sku, updatedMs, ...values] of rows) {
    if (!wanted(id, sku)) continue
    const listing: Record<string, string | number> = { id, sku, updatedAt: new Date(updatedMs).toISOString() }
    for (let i = 0; i < fields.all.length; i++) listing[fields.all[i]!.key] = values[i]!
    listings.push(listing as ImportListing)
  }
  return { listings, read: rows.length, lastRow: rows.at(-1)?.[0] ?? afterRow }
}
