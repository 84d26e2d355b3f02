/**
 * The orders a sync stored as new that the seller has not been told of yet (migration 20). They are
 * noted in the transaction that stores them, and taken once the sync ends, whether it ended well or not:
 * a sync that stored new orders and then failed (its check stopped by a rate limit, its listings part
 * offline) still has them announced, and the sync after it does not announce them again.
 */
import type { Db } from './database'

/** Notes orders just stored as new, to be announced. */
export function noteOrdersToAnnounce(db: Db, ids: readonly string[]): void {
  if (ids.length === 0) return
  db.prepare('INSERT OR IGNORE INTO orders_to_announce (id) SELECT value FROM json_each(?)').run(JSON.stringify(ids))
}

/** The orders noted and not announced yet, forgotten as they are answered (call in a transaction). */
export function takeOrdersToAnnounce(db: Db): string[] {
  const ids = (db.prepare('SELECT id FROM orders_to_announce').raw().all() as [string][]).map(([id]) => id)
  if (ids.length) db.prepare('DELETE FROM orders_to_announce').run()
  return ids
}
