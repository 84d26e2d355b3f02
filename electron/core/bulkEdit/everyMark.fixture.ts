/** For tests: every pending change's mark, read page by page as the grid reads them. */
import type { StagedCell } from '../../shared/contract'
import type { BulkEdit } from './bulkEdit'

export function everyMark(bulk: Pick<BulkEdit, 'stagedCells'>): StagedCell[] {
  const first = bulk.stagedCells()
  const cells = [...first.cells]
  while (cells.length < first.total) cells.push(...bulk.stagedCells({ offset: cells.length, read: first.read }).cells)
  return cells
}
