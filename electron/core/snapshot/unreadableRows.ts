/**
 * The rows of each list the marketplace sends in a form Seller Desk cannot read (sellerApi/wire.ts
 * UnreadableRow), as the last sync that checked the list found them: so the status can say which and
 * why, a bulk apply can refuse to change a listing whose marketplace copy it cannot see, and the next
 * sync's count check knows which rows it cannot hold. A row the snapshot held before it became
 * unreadable is kept as it was (the sync stages the held copy): "held" is read from the live table.
 */
import type { Db } from './database'
import type { Resource } from './syncBookkeeping'

/** A row of a list that could not be read. */
export interface UnreadableEntry {
  /** Its id, where it had one; null: a row with none, known only by `position`. */
  id: string | null
  /** What a seller knows it by, where the row said so (a listing's name and SKU, an order's number); null otherwise. */
  label: string | null
  /** Where the list held it when it was read (0: the first row of the list, newest first). */
  position: number
  /** What is wrong with it ("price: expected an amount in dollars"). */
  problem: string
}

/** The rows of a list that could not be read, in few words: how many, how many of them the snapshot does not hold, and the first few. */
export interface UnreadableSummary {
  count: number
  /** Of `count`, rows the snapshot holds no copy of (no id, or never read whole). */
  missing: number
  first: UnreadableEntry[]
}

const LIVE: Record<Resource, string> = { orders: 'orders', sellRequests: 'sell_requests' }

type Row = [string | null, string | null, number, string]
const entryOf = ([id, label, position, problem]: Row): UnreadableEntry => ({ id, label, position, problem })

/** A row's key in the table: its id, or, with none, where it was read. */
export const unreadableRowKey = (id: string | null, position: number): string => id ?? `\u0000@${position}`
/** Whether a key is a place, not an id: a row with no id, known only by where it was read. */
export const isPlaceKey = (key: string): boolean => key.startsWith('\u0000@')
const keyOf = (entry: UnreadableEntry) => unreadableRowKey(entry.id, entry.position)

/** Every unreadable row of a list, in list order. */
export function readUnreadable(db: Db, resource: Resource): UnreadableEntry[] {
  const rows = db.prepare('SELECT id, label, position, problem FROM unreadable_rows WHERE resource = ? ORDER BY position').raw().all(resource) as Row[]
  return rows.map(entryOf)
}

/** How many rows of a list could not be read, how many of them the snapshot lacks, and the first `first`. */
export function unreadableSummary(db: Db, resource: Resource, first: number): UnreadableSummary {
  const [count, missing] = db
    .prepare(
      `SELECT count(*), coalesce(sum(u.id IS NULL OR NOT EXISTS (SELECT 1 FROM ${LIVE[resource]} l WHERE l.id = u.id)), 0) FROM unreadable_rows u WHERE u.resource = ?`
    )
    .raw()
    .get(resource) as [number, number]
  if (count === 0) return { count: 0, missing: 0, first: [] }
  const rows = db
    .prepare('SELECT id, label, position, problem FROM unreadable_rows WHERE resource = ? ORDER BY position LIMIT ?')
    .raw()
    .all(resource, first) as Row[]
  return { count, missing, first: rows.map(entryOf) }
}

/** Replaces a list's unreadable rows with `entries`. */
export function writeUnreadable(db: Db, resource: Resource, entries: readonly UnreadableEntry[]): void {
  db.prepare('DELETE FROM unreadable_rows WHERE resource = ?').run(resource)
  const insert = db.prepare('INSERT OR REPLACE INTO unreadable_rows (resource, key, id, label, position, problem) VALUES (?, ?, ?, ?, ?, ?)')
  for (const entry of entries) insert.run(resource, keyOf(entry), entry.id, entry.label, entry.position, entry.problem)
}
