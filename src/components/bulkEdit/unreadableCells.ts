/**
 * What a seller is told of the cells an edit, a paste or a fill could not read: how many were left
 * unchanged, on which listings (the first few by SKU, as names repeat across one model's listings, then
 * how many more), and that selecting one says why: each is marked in the grid, with why in its tooltip
 * and, once selected, in the status line (refusedCells). Read at a glance in the toasts' strip of the
 * narrowest window sellers use: the cells' own reasons can be as long as what was pasted, so they stay
 * with the cells, and the listings are named only as far as they fit.
 */
import { formatCount, formatNumber } from '@shared/formatCount'
import type { UnreadableCell } from '../../stores/bulkEdit'

/**
 * The most characters the words take: what the toasts' strip of the narrowest window sellers use holds
 * in the lines a toast may take (toastPlacement e2e), SKUs being mostly wide capitals.
 */
export const UNREADABLE_TEXT_MAX = 92
/** The most listings named; past them, and past what fits, they are counted. */
export const UNREADABLE_NAMED = 3

/** A listing as the toast names it: its SKU, or its quoted name when it has none. */
const shortName = (row: UnreadableCell['row']) => row.sku || `“${row.name}”`

/** Items said as a list: "A", "A and B", "A, B and C". */
function inWords(items: readonly string[]): string {
  return items.length > 1 ? `${items.slice(0, -1).join(', ')} and ${items.at(-1)!}` : (items[0] ?? '')
}

export function unreadableCellsText(cells: readonly UnreadableCell[]): string {
  const listings = [...new Map(cells.map((cell) => [cell.row.id, shortName(cell.row)])).values()]
  const head = `${formatCount(cells.length, 'cell was', 'cells were')} left unchanged, on `
  const tail = `: select ${cells.length === 1 ? 'it' : 'one'} to see why.`
  const said = (named: readonly string[]) => {
    const more = listings.length - named.length
    return `${head}${inWords(more > 0 ? [...named, `${formatNumber(more)} more`] : named)}${tail}`
  }
  for (let count = Math.min(UNREADABLE_NAMED, listings.length); count > 1; count--) {
    const text = said(listings.slice(0, count))
    if (text.length <= UNREADABLE_TEXT_MAX) return text
  }
  // One listing named, cut short when even it does not fit (a long name of a listing with no SKU).
  const first = listings[0] ?? ''
  const room = UNREADABLE_TEXT_MAX - said(['']).length
  return said([first.length <= room ? first : `${first.slice(0, Math.max(0, room - 1))}…`])
}
