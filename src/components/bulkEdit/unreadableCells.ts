/**
 * What a seller is told of the cells an edit, a paste or a fill could not read: each of the first few
 * by its listing's SKU (names repeat: five "Apple Watch Series 9") and column, with the reason, then how
 * many more. Nothing else in the grid marks them (they were left unchanged), so the words must find them.
 */
import { formatCount } from '@shared/formatCount'
import { LISTING_FIELD_SET } from '@shared/listingFields'
import type { UnreadableCell } from '../../stores/bulkEdit'

/** Cells named one by one; the rest are counted. */
export const UNREADABLE_NAMED = 3

export function unreadableCellsText(cells: readonly UnreadableCell[]): string {
  const named = cells
    .slice(0, UNREADABLE_NAMED)
    .map(({ row, field, message }) => `${row.sku ? `SKU ${row.sku}` : row.name}, ${LISTING_FIELD_SET.get(field).gridTitle}: ${message.replace(/\.$/, '')}`)
  const more = cells.length - named.length
  return `${formatCount(cells.length, 'cell was', 'cells were')} left unchanged. ${named.join('; ')}${more ? `; and ${formatCount(more, 'other', 'others')}` : ''}.`
}
