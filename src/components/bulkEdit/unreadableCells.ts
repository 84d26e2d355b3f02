/**
 * What a seller is told of the cells an edit, a paste or a fill could not read: how many were left
 * unchanged, and where to find them: each is marked in the grid, with why in its tooltip and, once
 * selected, in the status line (refusedCells). Short enough to read at a glance in the toasts' strip
 * of a narrow window: the cells' own reasons can be as long as what was pasted, so they stay with the cells.
 */
import { formatCount } from '@shared/formatCount'
import type { UnreadableCell } from '../../stores/bulkEdit'

export function unreadableCellsText(cells: readonly UnreadableCell[]): string {
  const one = cells.length === 1
  return `${formatCount(cells.length, 'cell was', 'cells were')} left unchanged, marked in the grid: select ${one ? 'it' : 'one'} to see why.`
}
