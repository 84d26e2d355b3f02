/**
 * The rows of a list a sync could not read (sellerApi/wire.ts UnreadableRow), as it reads them.
 *
 * Such a row still fills its place in the list: it counts as read where the sync tracks positions (the
 * page walks, rowPlaces.ts), so a page holding one is no page cut short and its stretch is not read
 * again and again; it is not stored (its bytes are left out of the page's rows: client.ts), and a copy
 * the snapshot held from before is kept (snapshot/unreadableRows.ts). The count check counts the rows
 * the snapshot holds no copy of as accounted for, and the sync's outcome names them.
 */
import type { UnreadableRow } from '../sellerApi'
import type { UnreadableEntry } from '../snapshot/snapshot'
import { unreadableRowKey } from '../snapshot/unreadableRows'

/** A page's rows: those read whole (in order) and those that could not be read, each at its place. */
export interface PageRows {
  batch: { rows: readonly { id: string }[] }
  unreadable: readonly UnreadableRow[]
}

/** How many rows a page holds, read or not: the places it fills in the list. */
export const rowsOn = (page: PageRows): number => page.batch.rows.length + page.unreadable.length

/** The place on its page of each row read whole (by its index among them): the unreadable rows' places are skipped. */
export function readPlaces(page: PageRows): (index: number) => number {
  if (page.unreadable.length === 0) return (index) => index
  const left = new Set(page.unreadable.map((row) => row.place))
  const places: number[] = []
  for (let place = 0; places.length < page.batch.rows.length; place++) if (!left.has(place)) places.push(place)
  return (index) => places[index]!
}

/**
 * What a row that could not be read is known by where a sync tells rows apart (rowPlaces.ts, the ids a
 * walk saw): its id, or, with none, the list position it was read at (a character no id starts with
 * keeps the two apart).
 */
export const unreadableKey = (row: UnreadableRow, position: number): string => unreadableRowKey(row.id, position)

/** Whether every row of a page is one read already (none: an empty page is no repeat). */
export function repeats(page: PageRows, seen: { has(id: string): boolean }): boolean {
  return rowsOn(page) > 0 && page.batch.rows.every((row) => seen.has(row.id)) && page.unreadable.every((row) => row.id !== null && seen.has(row.id))
}

const entryKey = (entry: UnreadableEntry) => unreadableRowKey(entry.id, entry.position)

/** The unreadable rows a sync found, by id (or, with none, by position): a row read whole later is no longer one. */
export class UnreadableFound {
  private readonly byKey = new Map<string, UnreadableEntry>()

  /** `before`: those found already (by the earlier attempts of a pass this one resumes). */
  constructor(before: readonly UnreadableEntry[] = []) {
    for (const entry of before) this.byKey.set(entryKey(entry), entry)
  }

  /** A page's rows, the page starting at list position `start`. */
  page(page: PageRows, start: number): void {
    if (this.byKey.size > 0) for (const row of page.batch.rows) this.byKey.delete(row.id)
    for (const row of page.unreadable) {
      const entry = { id: row.id, label: row.label, position: start + row.place, problem: row.problem }
      this.byKey.set(entryKey(entry), entry)
    }
  }

  /** The ids of the unreadable rows on a page, for the snapshot to keep its copies of. */
  static ids(page: PageRows): string[] {
    return page.unreadable.flatMap((row) => (row.id === null ? [] : [row.id]))
  }

  /** The rows found, in list order. */
  entries(): UnreadableEntry[] {
    return [...this.byKey.values()].sort((a, b) => a.position - b.position)
  }
}

/**
 * The unreadable rows after a walk of what changed: those recorded before, less the rows the walk read
 * (whole or not: `readIds`, and the keys of `found`), with those it found. A row with no id recorded
 * before stays (the walk cannot tell it from one it found): if it was among the rows read again, the
 * counts disagree, and the sync reads the whole list.
 */
export function unreadableAfterWalk(before: readonly UnreadableEntry[], readIds: ReadonlySet<string>, found: readonly UnreadableEntry[]): UnreadableEntry[] {
  const foundKeys = new Set(found.map(entryKey))
  const kept = before.filter((entry) => !foundKeys.has(entryKey(entry)) && !(entry.id !== null && readIds.has(entry.id)))
  return [...kept, ...found].sort((a, b) => a.position - b.position)
}

/** The entries of `after` that were not in `before` (by id; one with no id is always new). */
export function newUnreadable(before: readonly UnreadableEntry[], after: readonly UnreadableEntry[]): UnreadableEntry[] {
  const ids = new Set(before.flatMap((entry) => (entry.id === null ? [] : [entry.id])))
  return after.filter((entry) => entry.id === null || !ids.has(entry.id))
}
