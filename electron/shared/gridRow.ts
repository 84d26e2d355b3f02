/**
 * The bulk-edit grid's row as it crosses the bridge (`GridListingRow`): a tuple, since the grid loads
 * every listing (page by page), read only through the accessors here, so no file knows a column's position.
 * The listing's text columns come first, then one value per editable field in the order of the field list.
 */
import type { GridListingRow } from './contract'
import { LISTING_FIELD_KEYS } from './listingFieldKeys'

const TEXT_COLUMNS = ['id', 'name', 'sku', 'brand', 'grade', 'color', 'storage', 'carrier', 'status', 'updatedAt'] as const
export type GridTextColumn = (typeof TEXT_COLUMNS)[number]

export interface GridRowReader {
  /** A row's columns in order: the text columns, then the fields' keys (the snapshot selects them so). */
  readonly columns: readonly string[]
  /** A text column: the id, name, status in words, last update (ISO), … */
  text(row: GridListingRow, column: GridTextColumn): string
  id(row: GridListingRow): string
  updatedAt(row: GridListingRow): string
  /** A field's value, by the field's key. */
  value(row: GridListingRow, field: string): number
  /** A row from its text columns and its fields' values by key (for the snapshot's side). */
  make(text: Record<GridTextColumn, string>, values: (field: string) => number): GridListingRow
}

/** The reader for rows carrying these fields' values, by key, in this order. */
export function gridRowReader(fieldKeys: readonly string[] = LISTING_FIELD_KEYS): GridRowReader {
  const textAt = new Map<string, number>(TEXT_COLUMNS.map((column, i) => [column, i]))
  const valueAt = new Map(fieldKeys.map((key, i) => [key, TEXT_COLUMNS.length + i]))
  return {
    columns: [...TEXT_COLUMNS, ...fieldKeys],
    text: (row, column) => row[textAt.get(column)!] as string,
    id: (row) => row[0],
    updatedAt: (row) => row[TEXT_COLUMNS.length - 1] as string,
    value(row, field) {
      const at = valueAt.get(field)
      if (at === undefined) throw new Error(`No listing field “${field}” in the grid's rows.`)
      return row[at] as number
    },
    make: (text, values) => [...TEXT_COLUMNS.map((column) => text[column]), ...fieldKeys.map(values)] as GridListingRow
  }
}

/** The grid's rows with Seller Desk's fields. */
export const gridRow: GridRowReader = gridRowReader()
