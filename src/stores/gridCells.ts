/**
 * The bulk-edit grid's row as the store fills it and the grid, its filters and the status line read it:
 * the listing's text columns and, for each editable field, the value shown (pending, else current), the
 * current value and the mark of a pending change. Pure: no bridge, no store.
 */
import type { WarningRules } from '@shared/contract'
import type { ListingFieldKey } from '@shared/listingFieldKeys'
import type { ListingField } from '@shared/listingFields'

/**
 * What the grid shows of a pending change on a cell: why it cannot be applied; the value staged; and,
 * when it deserves a second look, the listing's value the warning rules judged it against (StagedCell).
 */
export interface CellMark {
  invalid: string | null
  after: number
  warnsFrom: number | null
}

/**
 * One grid row. Plain (not reactive): the grid reads it directly and is told when rows change. A row
 * not read yet (a first read under way) has an empty id and empty cells, and is filled in place.
 */
export interface GridRow {
  id: string
  name: string
  sku: string
  brand: string
  grade: string
  color: string
  storage: string
  carrier: string
  status: string
  updatedAt: string
  /** The listing's price now, as a decimal ("129.99"). */
  priceNow: string
  quantityNow: number
  /** The price the grid shows and edits: the pending one, else the current one. */
  price: string
  quantity: number
  priceMark: CellMark | null
  quantityMark: CellMark | null
}

/**
 * Where each editable field's cells are on a grid row (the grid's columns): the value shown and edited
 * (the pending one, else the current one), the listing's current value, and the mark. Keyed by the
 * field's key; what a value looks like comes from the field's descriptor.
 */
export const GRID_CELLS = {
  priceCents: { shown: 'price', now: 'priceNow', mark: 'priceMark' },
  quantity: { shown: 'quantity', now: 'quantityNow', mark: 'quantityMark' }
} as const satisfies Record<ListingFieldKey, { shown: keyof GridRow; now: keyof GridRow; mark: keyof GridRow }>

export type CellSlots = (typeof GRID_CELLS)[ListingFieldKey]

/** What a marked cell's change is to the grid (its class and `data-mark`) and to the words about it. */
export type MarkKind = 'invalid' | 'warning' | 'staged'

/**
 * A marked cell's verdict, chosen once for the grid's cell (its kind, its title) and the focus text under
 * it: its kind, and its words, why it cannot be applied or its warning. A warning is worded from the
 * values the change was judged by, the listing's value then and the one staged (a sync may have moved
 * the listing's value since: the words stay the change's, as Review says them). Marks carry no words (see
 * StagedCell), so a paste's 10,000 warnings are worded as their cells are shown. A warned cell has no
 * words when the rules the page holds no longer find a warning (new rules whose marks are on their way).
 * Null for a cell with no pending change.
 */
export function markVerdict(field: ListingField, row: GridRow, rules: WarningRules): { kind: MarkKind; words: string | null } | null {
  const mark = row[GRID_CELLS[field.key as ListingFieldKey].mark]
  if (!mark) return null
  if (mark.invalid) return { kind: 'invalid', words: mark.invalid }
  if (mark.warnsFrom !== null) return { kind: 'warning', words: field.warning(mark.warnsFrom, mark.after, rules) }
  return { kind: 'staged', words: null }
}
