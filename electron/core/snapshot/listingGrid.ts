/**
 * The listings as the bulk-edit grid reads them: a page at a time in the grid's order (name, then id),
 * each page one walk of the name index, so no read holds the core for long; the properties the grid
 * shows come from their own columns (written at sync), not from the documents.
 */
import type { GridListingRow } from '../../shared/contract'
import { gridRowReader, type GridTextColumn } from '../../shared/gridRow'
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

/**
 * The listings at these positions of the grid's order. SQLite builds each row in the order the grid's
 * row reader gives, so only the status (into words) and the last update (into ISO text) change after.
 */
export function gridRowsPage(db: Db, { offset, limit }: GridPage, fields: FieldSet): GridListingRow[] {
  const { columns } = gridRowReader(fields.all.map((field) => field.key))
  const sql = columns.map((column) => (Object.hasOwn(TEXT_SQL, column) ? TEXT_SQL[column as GridTextColumn] : fields.get(column).column))
  const rows = rowsAsJson<unknown[]>(
    db,
    sql.join(', '),
    // The page's rows are found in the name index alone (skipping the offset reads no listing), then
    // read by rowid.
    `FROM sell_requests s WHERE s.rowid IN (SELECT rowid FROM sell_requests ORDER BY name COLLATE NOCASE, id LIMIT ? OFFSET ?)`,
    's.name COLLATE NOCASE, s.id',
    limit,
    offset
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
