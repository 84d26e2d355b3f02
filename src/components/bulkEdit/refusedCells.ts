/**
 * The cells an edit, a paste or a fill could not read (no number at all): left unchanged, and marked in
 * the grid with why, so the seller finds each one where it is. A cell's mark goes when the seller
 * changes that cell again (a value, or Delete) and, for every cell, when the pending changes are
 * replaced (undo, redo, discard, Change many, an import, an apply). Pure: no bridge, no store.
 */
import type { ListingFieldKey } from '@shared/listingFieldKeys'
import type { CellEdit, UnreadableCell } from '../../stores/bulkEdit'

/** Why each refused cell was left unchanged, by refusedKey. */
export type RefusedCells = ReadonlyMap<string, string>

export const NO_REFUSED: RefusedCells = new Map()

/** A cell's key among the refused ones: its listing and its field. */
export const refusedKey = (id: string, field: ListingFieldKey): string => `${id}\n${field}`

/** The refused cells after an edit: the cells it reached lose the mark they had, those it could not read get one. */
export function afterEdit(refused: RefusedCells, edits: readonly CellEdit[], unreadable: readonly UnreadableCell[]): RefusedCells {
  if (refused.size === 0 && unreadable.length === 0) return refused
  const next = new Map(refused)
  for (const edit of edits) next.delete(refusedKey(edit.id, edit.field))
  for (const cell of unreadable) next.set(refusedKey(cell.row.id, cell.field), cell.message)
  return next
}
