/**
 * The bulk-edit grid's filter for its number columns (prices and quantities, now and new): =, ≠, >, ≥,
 * <, ≤ against a value the seller types the way every price and quantity is typed in the app ("300",
 * "$1,299.50"). RevoGrid's own number filters compare only cells holding numbers, and a price cell holds
 * the decimal text the seller edits ("306.00"), so they matched nothing there; their "=" also compared
 * text ("306" is not "306.00"), and they offered "Is blank" for cells that never are.
 */
import type { ColumnFilterConfig, CustomFilter, FilterEvaluationContext, LogicFunction } from '@revolist/revogrid'
import type { ListingField } from '@shared/listingFields'
import { LISTING_FIELD_SET } from '@shared/listingFields'
import { problemMessage } from '@shared/valueProblem'
import { GRID_CELLS } from '../../stores/gridCells'

/** The filter type a column names (`filter: AMOUNT_FILTER`) to get these conditions and no others. */
export const AMOUNT_FILTER = 'amount'

/** Each number column's field: its prices or quantities, now or new. */
const FIELD_OF_COLUMN = new Map<string, ListingField>(
  Object.entries(GRID_CELLS).flatMap(([key, cells]) => {
    const field = LISTING_FIELD_SET.get(key)
    return [
      [cells.shown, field],
      [cells.now, field]
    ]
  })
)

/** What the seller typed as a filter's value, as text (RevoGrid keeps undefined until something is). */
const typedText = (extra: unknown) => (extra === null || extra === undefined ? '' : String(extra))

/**
 * What the seller typed as the number a cell holds (dollars for a price), null when blank (the condition
 * is not set yet: every row passes, as with RevoGrid's own filters while typing), NaN when it is no
 * number (no row passes). The last text read is kept: a filter is evaluated once per row.
 */
function typedValue(field: ListingField, extra: unknown): number | null {
  const text = typedText(extra)
  if (lastTyped && lastTyped.field === field && lastTyped.text === text) return lastTyped.value
  const read = field.read(text)
  const value = read === null ? null : 'problem' in read ? NaN : field.unit === 'cents' ? read.value / 100 : read.value
  lastTyped = { field, text, value }
  return value
}
let lastTyped: { field: ListingField; text: string; value: number | null } | null = null

function condition(name: string, test: (cell: number, typed: number) => boolean): CustomFilter {
  const func: LogicFunction = (value: unknown, extra: unknown, context?: FilterEvaluationContext) => {
    const field = FIELD_OF_COLUMN.get(String(context?.property ?? ''))
    if (!field) return true
    const typed = typedValue(field, extra)
    if (typed === null) return true
    if (Number.isNaN(typed)) return false
    // A row not read yet has an empty price: it matches no condition.
    if (value === '' || value === null || value === undefined) return false
    const cell = Number(value)
    return Number.isFinite(cell) && test(cell, typed)
  }
  func.extra = 'input'
  return { columnFilterType: AMOUNT_FILTER, name, func }
}

/** The grid's filter settings: RevoGrid's text filters, and these for the number columns. */
export const GRID_FILTER: ColumnFilterConfig = {
  customFilters: {
    amountEq: condition('=', (cell, typed) => cell === typed),
    amountNotEq: condition('≠', (cell, typed) => cell !== typed),
    amountGt: condition('>', (cell, typed) => cell > typed),
    amountGte: condition('≥', (cell, typed) => cell >= typed),
    amountLt: condition('<', (cell, typed) => cell < typed),
    amountLte: condition('≤', (cell, typed) => cell <= typed)
  }
}

/**
 * What the number filters set on the grid's columns hold that is no number (or not a value the field
 * takes), in words for the status line: "Qty now filter: Not a number: “lots”." Such a condition matches
 * no row, and a grid emptied by it would not say why. `filters` are the grid's, by column (RevoGrid's
 * multiFilterItems); `name` gives a column's header. Null when every value typed reads.
 */
export function unreadableAmountFilters(filters: Record<string, readonly { type: string; value?: unknown }[]>, name: (prop: string) => string): string | null {
  const said: string[] = []
  for (const [prop, items] of Object.entries(filters)) {
    const field = FIELD_OF_COLUMN.get(prop)
    if (!field) continue
    for (const item of items) {
      if (!(item.type in GRID_FILTER.customFilters!)) continue
      const read = field.read(typedText(item.value))
      if (read && 'problem' in read) said.push(`${name(prop)} filter: ${problemMessage(read.problem)}`)
    }
  }
  return said.length > 0 ? said.join(' ') : null
}
