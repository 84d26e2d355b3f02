/**
 * The bulk-edit change set as saved in the account's snapshot (table `bulk_staged`), so staged changes
 * outlive a closed window, a quit or a crash, and come back with the account. Saved a step at a time:
 * only the cells a step touched are written, in one transaction.
 */
import type { BulkField } from '../../shared/contract'
import { inTransaction, insertRows, scalar, type Db } from './database'

/** A change as saved: what the change set needs to check it again when it is restored. */
export interface SavedChange {
  sellRequestId: string
  field: BulkField
  before: number
  after: number
  /** The listing's `updatedAt` when staged. */
  baseUpdatedAt: string
}

/** What staging did to one cell: the change now staged there, or null (none). */
export interface StagedWrite {
  sellRequestId: string
  field: BulkField
  change: SavedChange | null
}

const COLUMNS = ['sell_request_id', 'field', 'before_value', 'after_value', 'base_updated_at', 'seq'] as const

/** The saved change set, in staging order. */
export function readStagedChanges(db: Db): SavedChange[] {
  const rows = db.prepare('SELECT sell_request_id, field, before_value, after_value, base_updated_at FROM bulk_staged ORDER BY seq').raw().all() as [
    string,
    BulkField,
    number,
    number,
    string
  ][]
  return rows.map(([sellRequestId, field, before, after, baseUpdatedAt]) => ({ sellRequestId, field, before, after, baseUpdatedAt }))
}

/** Writes what changed (one transaction, or the caller's). A cell staged again moves to the end of the order. */
export function writeStagedChanges(db: Db, writes: readonly StagedWrite[]): void {
  if (writes.length === 0) return
  inTransaction(db, () => {
    const removed: [string, BulkField][] = []
    const upserts: (string | number)[][] = []
    let seq = (scalar<number>(db, 'SELECT MAX(seq) FROM bulk_staged') ?? 0) + 1
    for (const { sellRequestId, field, change } of writes) {
      if (change) upserts.push([change.sellRequestId, change.field, change.before, change.after, change.baseUpdatedAt, seq++])
      else removed.push([sellRequestId, field])
    }
    if (removed.length) {
      db.prepare('DELETE FROM bulk_staged WHERE (sell_request_id, field) IN (SELECT value->>0, value->>1 FROM json_each(?))').run(JSON.stringify(removed))
    }
    insertRows(db, 'bulk_staged', COLUMNS, upserts)
  })
}
