/**
 * Listings deleted through this app, kept out of what the syncs under way write. A page the marketplace
 * answered before the delete still holds the listing, and a sync writes its pages after reading them: an
 * incremental sync's changes (writeSellRequestChanges) and a full sync's staged rows
 * (dropStagedDeletedHere, before the swap) would otherwise bring a deleted listing back, until the next
 * full sync. A delete is forgotten once no sync can hold a page read before it: when a walk of the
 * listings begins after it (syncs run one at a time), unless a full sync's run begun before it is still
 * open, and when such a run is committed. Pages read after the delete no longer hold the listing; a
 * marketplace that lists it again then is shown as it lists it.
 */
import type { Db } from './database'

const TABLE = 'sell_requests_deleted_here'

/** Notes a listing deleted here at `atMs` (the computer's clock). */
export function noteDeletedHere(db: Db, id: string, atMs: number): void {
  db.prepare(`INSERT OR REPLACE INTO ${TABLE} (id, deleted_ms) VALUES (?, ?)`).run(id, atMs)
}

/** Those of the ids deleted here and not forgotten yet. */
export function deletedHereAmong(db: Db, ids: readonly string[]): Set<string> {
  if (ids.length === 0) return new Set()
  const rows = db.prepare(`SELECT id FROM ${TABLE} WHERE id IN (SELECT value FROM json_each(?))`).raw().all(JSON.stringify(ids)) as [string][]
  return new Set(rows.map(([id]) => id))
}

/** Drops the staged rows (and their documents) of listings deleted here; answers how many rows. */
export function dropStagedDeletedHere(db: Db): number {
  const dropped = db.prepare(`DELETE FROM sell_requests_staged WHERE id IN (SELECT id FROM ${TABLE})`).run().changes
  if (dropped > 0) db.prepare(`DELETE FROM sell_request_docs_staged WHERE id IN (SELECT id FROM ${TABLE})`).run()
  return dropped
}

/** Forgets the listings deleted here before `readFromMs`: no sync under way read a page before then. */
export function forgetDeletedHereBefore(db: Db, readFromMs: number): void {
  db.prepare(`DELETE FROM ${TABLE} WHERE deleted_ms < ?`).run(readFromMs)
}
