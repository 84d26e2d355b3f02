/**
 * Every listing of the snapshot as the bulk-edit grid shows it: the narrow columns plus the
 * properties sellers sort and filter by (grade, color, storage, carrier), read from the rows as the
 * marketplace sent them. One query; the grid sorts and filters in the renderer.
 */
import type { GridListingRow } from '../../shared/contract'
import { gridRowReader } from '../../shared/gridRow'
import { LISTING_FIELD_SET, type FieldSet } from '../../shared/listingFields'
import { statusLabel } from '../../shared/plainWords'
import { rowsAsJson, scalar, type Db } from '../snapshot/database'

/** Property keys the spec names; other keys stay visible in Sell requests. */
const GRID_PROPERTIES = ['grade', 'color', 'storage', 'carrier'] as const

const property = (key: string) => `coalesce(CAST(json_extract(d.json, '$.properties.${key}') AS TEXT), '')`

const COLUMNS = `s.id, s.name, s.sku, s.brand, ${GRID_PROPERTIES.map(property).join(', ')}, s.status, s.updated_ms`

type Row = [string, string, string, string, string, string, string, string, string, number, ...number[]]

/** The status as the grid shows it, in words: listings share a handful of statuses, so each is named once. */
export function gridListings(db: Db, fields: FieldSet = LISTING_FIELD_SET): GridListingRow[] {
  const reader = gridRowReader(fields.all.map((field) => field.key))
  const columns = `${COLUMNS}, ${fields.all.map((field) => field.column).join(', ')}`
  const rows = rowsAsJson<Row>(db, columns, 'FROM sell_requests s LEFT JOIN sell_request_docs d ON d.id = s.id', 's.name COLLATE NOCASE, s.id')
  const words = new Map<string, string>()
  const label = (status: string) => words.get(status) ?? words.set(status, statusLabel(status)).get(status)!
  const at = new Map(fields.all.map((field, i) => [field.key, i]))
  return rows.map(([id, name, sku, brand, grade, color, storage, carrier, status, updatedMs, ...values]) =>
    reader.make({ id, name, sku, brand, grade, color, storage, carrier, status: label(status), updatedAt: new Date(updatedMs).toISOString() }, (key) => values[at.get(key)!]!)
  )
}

export type ListingProperties = Record<(typeof GRID_PROPERTIES)[number], string>

/** The grid's properties of the listings with these ids, by id (for exports). */
export function listingProperties(db: Db, ids: Iterable<string>): Map<string, ListingProperties> {
  const rows = rowsAsJson<[string, string, string, string, string]>(
    db,
    `d.id, ${GRID_PROPERTIES.map(property).join(', ')}`,
    'FROM sell_request_docs d WHERE d.id IN (SELECT value FROM json_each(?))',
    null,
    JSON.stringify([...new Set(ids)])
  )
  return new Map(rows.map(([id, grade, color, storage, carrier]) => [id, { grade, color, storage, carrier }]))
}

/**
 * A fingerprint of the listings: how many, and the sums of their last-update times and of each
 * editable field (prices, quantities) (any edit, arrival or deletion changes it, also an edit the marketplace answers without
 * moving `updatedAt`, which the spec leaves open; a sync that brought nothing new leaves it). One scan
 * of the narrow table.
 */
export function gridVersion(db: Db, fields: FieldSet = LISTING_FIELD_SET): string {
  const sums = fields.all.map((field) => ` || ':' || total(${field.column})`).join('')
  return scalar<string>(db, `SELECT count(*) || ':' || total(s.updated_ms)${sums} FROM sell_requests s`) ?? '0:0'
}
