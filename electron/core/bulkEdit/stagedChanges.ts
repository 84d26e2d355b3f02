/**
 * The change set as saved in the account's snapshot database (table `bulk_staged`), so staged changes
 * outlive a closed window, a quit or a crash, and come back with the account. Saved a step at a time:
 * only the keys a step touched are written, in one transaction.
 */
import type { BulkField, StagedChange } from '../../shared/contract'
import { inTransaction, insertRows, scalar, type Db } from '../snapshot/database'
import { changeKeyParts, type ProposedChange } from './changeSet'

/** What one or more staging steps did, by key: the change now staged there, or undefined (none). */
export type StagedEdits = Map<string, StagedChange | undefined>

const COLUMNS = ['sell_request_id', 'field', 'before_value', 'after_value', 'base_updated_at', 'seq'] as const

/** The saved change set, in staging order. */
export function readStagedChanges(db: Db): ProposedChange[] {
  const rows = db
    .prepare('SELECT sell_request_id, field, before_value, after_value, base_updated_at FROM bulk_staged ORDER BY seq')
    .raw()
    .all() as [string, BulkField, number, number, string][]
  return rows.map(([sellRequestId, field, before, after, baseUpdatedAt]) => ({ sellRequestId, field, before, after, baseUpdatedAt }))
}

/** Writes what changed (one transaction). A key staged again moves to the end of the order. */
export function writeStagedChanges(db: Db, edits: StagedEdits): void {
  if (edits.size === 0) return
  inTransaction(db, () => {
    const removed: [string, BulkField][] = []
    const upserts: (string | number)[][] = []
    let seq = (scalar<number>(db, 'SELECT MAX(seq) FROM bulk_staged') ?? 0) + 1
    for (const [key, change] of edits) {
      if (change) upserts.push([change.sellRequestId, change.field, change.before, change.after, change.baseUpdatedAt, seq++])
      else {
        const { sellRequestId, field } = changeKeyParts(key)
        removed.push([sellRequestId, field])
      }
    }
    if (removed.length) {
      db.prepare('DELETE FROM bulk_staged WHERE (sell_request_id, field) IN (SELECT value->>0, value->>1 FROM json_each(?))').run(JSON.stringify(removed))
    }
    insertRows(db, 'bulk_staged', COLUMNS, upserts)
  })
}

