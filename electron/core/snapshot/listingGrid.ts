/**
 * The listings as the bulk-edit grid reads them: a page at a time in the grid's order (name, then id),
 * each page one walk of the name index, so no read holds the core for long; the properties the grid
 * shows come from their own columns (written at sync), not from the documents.
 */
import type { GridListingRow } from '../../shared/contract'
import { gridRow, gridRowReader, type GridTextColumn } from '../../shared/gridRow'
import type { FieldSet } from '../../shared/listingFields'
import { statusLabel } from '../../shared/plainWords'
import { rowsAsJson, type Db } from './database'
import { GRID_PROPERTIES } from './migrations'

export type ListingProperties = Record<(typeof GRID_PROPERTIES)[number], string>

export interface GridPage {
  offset: number
  limit: number
}

/** Where each text column of a grid row comes from; the last update is turned into ISO text after. */
const TEXT_SQL: Record<GridTextColumn, string> = {
  id: 's.id',
  name: 's.name',
  sku: 's.sku',
  brand: 's.brand',
  grade: 's.grade',
  color: 's.color',
  storage: 's.storage',
  carrier: 's.carrier',
  status: 's.status',
  updatedAt: 's.updated_ms'
}

/** Statuses in words: listings share a handful of statuses, so each is worded once. */
const labels = new Map<string, string>()
const label = (status: string) => labels.get(status) ?? labels.set(status, statusLabel(status)).get(status)!

/** Where the grid's order stands between two listings: the name and id of the listing before. */
export interface GridKey {
  name: string
  id: string
}

/** The key of a grid row (text columns come first in every field set's rows). */
export const gridKeyOf = (row: GridListingRow): GridKey => ({ name: gridRow.text(row, 'name'), id: gridRow.id(row) })

/**
 * The listings at these positions of the grid's order. SQLite builds each row in the order the grid's
 * row reader gives, so only the status (into words) and the last update (into ISO text) change after.
 *
 * With `after` (the key of the listing at `offset - 1`, as the page before ended), the page starts
 * right after that listing in the name index: no listing before it is stepped over, so the grid's last
 * page costs what its first does. Without it, the offset is skipped in the index.
 */
export function gridRowsPage(db: Db, { offset, limit }: GridPage, fields: FieldSet, after?: GridKey): GridListingRow[] {
  const { columns } = gridRowReader(fields.all.map((field) => field.key))
  const sql = columns.map((column) => (Object.hasOwn(TEXT_SQL, column) ? TEXT_SQL[column as GridTextColumn] : fields.get(column).column))
  // The page's rows are found in the name index alone, then read by rowid (the CROSS JOIN keeps the
  // index walk as the outer loop); the page is put in order once more, a sort of its own rows only.
  const positions = after
    ? `SELECT rowid AS at FROM sell_requests WHERE name >= ?1 COLLATE NOCASE AND (name COLLATE NOCASE, id) > (?1, ?2) ORDER BY name COLLATE NOCASE, id LIMIT ?3`
    : `SELECT rowid AS at FROM sell_requests ORDER BY name COLLATE NOCASE, id LIMIT ?3 OFFSET ?4`
  const rows = rowsAsJson<unknown[]>(
    db,
    sql.join(', '),
    `FROM (${positions}) page CROSS JOIN sell_requests s ON s.rowid = page.at`,
    's.name COLLATE NOCASE, s.id',
    ...(after ? [after.name, after.id, limit] : [null, null, limit, offset])
  )
  const statusAt = columns.indexOf('status')
  const updatedAt = columns.indexOf('updatedAt')
  for (const row of rows) {
    row[statusAt] = label(row[statusAt] as string)
    row[updatedAt] = new Date(row[updatedAt] as number).toISOString()
  }
  return rows as GridListingRow[]
}

/**
 * A fingerprint of the listings: how many, and the sums of their last-update times and of each
 * editable field (any edit, arrival or deletion changes it, also an edit the marketplace answers without
 * moving `updatedAt`, which the spec leaves open; a sync that brought nothing new leaves it). One scan
 * of the narrow table.
 */
export function gridVersion(db: Db, fields: FieldSet): { version: string; total: number } {
  const sums = fields.all.map((field) => ` || ':' || total(${field.column})`).join('')
  const [total, version] = db.prepare(`SELECT count(*), count(*) || ':' || total(s.updated_ms)${sums} FROM sell_requests s`).raw().get() as [number, string]
  return { version, total }
}

/** The grid's properties of the listings with these ids, by id (for exports). */
export function listingProperties(db: Db, ids: Iterable<string>): Map<string, ListingProperties> {
  const rows = rowsAsJson<[string, string, string, string, string]>(
    db,
    `s.id, ${GRID_PROPERTIES.map((key) => `s.${key}`).join(', ')}`,
    'FROM sell_requests s WHERE s.id IN (SELECT value FROM json_each(?))',
    null,
    JSON.stringify([...new Set(ids)])
  )
  return new Map(rows.map(([id, grade, color, storage, carrier]) => [id, { grade, color, storage, carrier }]))
}
