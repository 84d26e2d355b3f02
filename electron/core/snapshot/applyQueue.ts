/**
 * The apply queue, kept in the snapshot database: a batch of changes is written before the first
 * request (a part per transaction: see BulkEditStore.queueBatch), and every change's outcome (applied,
 * failed with the marketplace's message, conflict, cancelled) is recorded as it happens. A batch with pending changes after a crash or quit is
 * resumed from here; applied batches stay as history with their before-values.
 */
import type { BatchChange, BatchRow, BatchRowStatus, BatchStatus, BulkField, UnappliedChange, UnappliedChangesPage } from '../../shared/contract'
import type { Page } from '../../shared/domain'
import { inTransaction, scalar, type Db } from './database'

/** A change as queued: with the listing's `updatedAt` when staged, to tell a conflict when it is sent. */
export interface QueuedChange extends BatchChange {
  baseUpdatedMs: number
}

/** The pending changes of one listing: sent as one PATCH. */
export interface ListingChanges {
  sellRequestId: string
  changes: { field: BulkField; before: number; after: number; baseUpdatedMs: number }[]
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString())

/** Queues a part of a batch's changes: the first part creates the batch, each part words its label. */
export function queueBatchPart(db: Db, batch: { id: string; label: string; createdMs: number; changes: QueuedChange[]; undoOf?: string | null }): void {
  inTransaction(db, () => {
    // A later part of the batch words its label anew, for every change it holds then.
    db.prepare('INSERT INTO bulk_batches (id, label, created_ms, undo_of) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET label = excluded.label').run(
      batch.id,
      batch.label,
      batch.createdMs,
      batch.undoOf ?? null
    )
    addToBatch(db, batch.id, batch.createdMs, batch.changes)
  })
}

/** More changes of a batch created already (in the caller's transaction). */
function addToBatch(db: Db, batchId: string, createdMs: number, changes: readonly QueuedChange[]): void {
  const rows = changes.map((c) => [c.sellRequestId, c.field, c.sku, c.name, c.before, c.after, c.baseUpdatedMs])
  db.prepare(
    `INSERT INTO bulk_changes (batch_id, sell_request_id, field, sku, name, before_value, after_value, base_updated_ms, status, changed_ms)
     SELECT ?, value->>0, value->>1, value->>2, value->>3, value->>4, value->>5, value->>6, 'pending', ? FROM json_each(?)`
  ).run(batchId, createdMs, JSON.stringify(rows))
}

/** The pending changes of a batch's listings after the listing `after` ('': from the first), of `limit` listings at most, by listing id. */
export function pendingChanges(db: Db, batchId: string, after = '', limit = Infinity): ListingChanges[] {
  const rows = db
    .prepare(
      `SELECT sell_request_id, field, before_value, after_value, base_updated_ms FROM bulk_changes
       WHERE batch_id = ?1 AND status = 'pending' AND sell_request_id IN (
         SELECT sell_request_id FROM bulk_changes WHERE batch_id = ?1 AND sell_request_id > ?2 AND status = 'pending'
         GROUP BY sell_request_id ORDER BY sell_request_id LIMIT ?3)
       ORDER BY sell_request_id, field`
    )
    .raw()
    .all(batchId, after, limit === Infinity ? -1 : limit) as [string, BulkField, number, number, number][]
  const byListing = new Map<string, ListingChanges>()
  for (const [sellRequestId, field, before, after, baseUpdatedMs] of rows) {
    let listing = byListing.get(sellRequestId)
    if (!listing) byListing.set(sellRequestId, (listing = { sellRequestId, changes: [] }))
    listing.changes.push({ field, before, after, baseUpdatedMs })
  }
  return [...byListing.values()]
}

/** An outcome of some of a listing's pending changes. */
export interface Outcome {
  sellRequestId: string
  fields: BulkField[]
  status: BatchRowStatus
  message: string | null
  ms: number
}

/** Records many outcomes in one transaction (changes no longer pending are left as they are). */
export function settleMany(db: Db, batchId: string, outcomes: readonly Outcome[]): void {
  if (outcomes.length === 0) return
  const update = db.prepare(
    "UPDATE bulk_changes SET status = ?, message = ?, changed_ms = ? WHERE batch_id = ? AND sell_request_id = ? AND field = ? AND status = 'pending'"
  )
  inTransaction(db, () => {
    for (const o of outcomes) for (const field of o.fields) update.run(o.status, o.message, o.ms, batchId, o.sellRequestId, field)
  })
}

export function markStarted(db: Db, batchId: string, ms: number): void {
  db.prepare('UPDATE bulk_batches SET started_ms = COALESCE(started_ms, ?), finished_ms = NULL WHERE id = ?').run(ms, batchId)
}

/** Ends a run: pending changes become cancelled (when the seller cancelled) and the batch is stamped finished if nothing is pending. */
export function finishRun(db: Db, batchId: string, ms: number, cancelledMessage: string | null): void {
  inTransaction(db, () => {
    if (cancelledMessage !== null) {
      db.prepare("UPDATE bulk_changes SET status = 'cancelled', message = ?, changed_ms = ? WHERE batch_id = ? AND status = 'pending'").run(
        cancelledMessage,
        ms,
        batchId
      )
    }
    const pending = scalar<number>(db, "SELECT COUNT(*) FROM bulk_changes WHERE batch_id = ? AND status = 'pending'", batchId) ?? 0
    if (pending === 0) db.prepare('UPDATE bulk_batches SET finished_ms = ? WHERE id = ?').run(ms, batchId)
  })
}

/**
 * Failed and cancelled changes go back to pending (conflicts stay: they need the seller to stage again).
 * Returns how many. A note of the batch's changes that did not apply, put away, is noted again: what
 * does not apply this time is news.
 */
export function requeueFailed(db: Db, batchId: string, ms: number): number {
  return inTransaction(db, () => {
    const result = db
      .prepare("UPDATE bulk_changes SET status = 'pending', message = NULL, changed_ms = ? WHERE batch_id = ? AND status IN ('failed', 'cancelled')")
      .run(ms, batchId) as { changes: number }
    if (result.changes > 0) db.prepare('UPDATE bulk_batches SET finished_ms = NULL, unapplied_dismissed_ms = NULL WHERE id = ?').run(batchId)
    return result.changes
  })
}

/** The outcomes of a change that did not apply. */
const UNAPPLIED = "('failed', 'conflict', 'cancelled')"

/**
 * The newest batch, when some of its changes did not apply (failed, conflict or cancelled), none is
 * waiting to be sent, and the seller has not put its note away; otherwise null. Only the newest: once
 * another batch is queued, the changes of the one before that did not apply are no longer "the last
 * apply's" (they stay in History).
 */
export function lastBatchUnapplied(db: Db): BatchStatus | null {
  const newest = db.prepare('SELECT id, unapplied_dismissed_ms FROM bulk_batches ORDER BY created_ms DESC, id LIMIT 1').raw().get() as
    [string, number | null] | undefined
  if (!newest || newest[1] !== null) return null
  const status = batchStatus(db, newest[0])
  return status && status.pending === 0 && status.failed + status.conflict + status.cancelled > 0 ? status : null
}

/** A page of a batch's changes that did not apply, by listing, with how many there are. */
export function unappliedChanges(db: Db, batchId: string, offset: number, limit: number): UnappliedChangesPage {
  const total = scalar<number>(db, `SELECT COUNT(*) FROM bulk_changes WHERE batch_id = ? AND status IN ${UNAPPLIED}`, batchId) ?? 0
  const changes = db
    .prepare(
      `SELECT sell_request_id, field, status, after_value, message FROM bulk_changes WHERE batch_id = ? AND status IN ${UNAPPLIED}
       ORDER BY sell_request_id, field LIMIT ? OFFSET ?`
    )
    .raw()
    .all(batchId, limit, offset) as UnappliedChange[]
  return { total, changes }
}

/** The seller put away the note of this batch's changes that did not apply. */
export function dismissUnapplied(db: Db, batchId: string, ms: number): void {
  db.prepare('UPDATE bulk_batches SET unapplied_dismissed_ms = ? WHERE id = ?').run(ms, batchId)
}

type BatchRowData = [
  string,
  string,
  number,
  number | null,
  number | null,
  number,
  number,
  number,
  number,
  number,
  number,
  string | null,
  string | null,
  number | null,
  number | null
]

/**
 * A batch with its counts, the batch it undoes (id, label, time) and when it was undone: the first
 * change applied by a later batch that undoes it (a batch whose undo sent nothing is not undone).
 */
const BATCH_SELECT = `
  SELECT b.id, b.label, b.created_ms, b.started_ms, b.finished_ms,
    COUNT(c.field),
    COALESCE(SUM(c.status = 'pending'), 0), COALESCE(SUM(c.status = 'applied'), 0), COALESCE(SUM(c.status = 'failed'), 0),
    COALESCE(SUM(c.status = 'conflict'), 0), COALESCE(SUM(c.status = 'cancelled'), 0),
    b.undo_of, (SELECT o.label FROM bulk_batches o WHERE o.id = b.undo_of), (SELECT o.created_ms FROM bulk_batches o WHERE o.id = b.undo_of),
    (SELECT MIN(u.changed_ms) FROM bulk_batches r JOIN bulk_changes u ON u.batch_id = r.id AND u.status = 'applied' WHERE r.undo_of = b.id)
  FROM bulk_batches b LEFT JOIN bulk_changes c ON c.batch_id = b.id`

function batchFromRow(row: BatchRowData): BatchStatus {
  const [id, label, createdMs, startedMs, finishedMs, total, pending, applied, failed, conflict, cancelled, undoOf, undoOfLabel, undoOfMs, undoneMs] = row
  return {
    id,
    label,
    createdAt: iso(createdMs)!,
    startedAt: iso(startedMs),
    finishedAt: iso(finishedMs),
    running: false,
    total,
    pending,
    applied,
    failed,
    conflict,
    cancelled,
    etaMs: null,
    undoOf: undoOf !== null && undoOfLabel !== null && undoOfMs !== null ? { id: undoOf, label: undoOfLabel, createdAt: iso(undoOfMs)! } : null,
    undoneAt: iso(undoneMs)
  }
}

export function batchStatus(db: Db, batchId: string): BatchStatus | null {
  const row = db.prepare(`${BATCH_SELECT} WHERE b.id = ? GROUP BY b.id`).raw().get(batchId) as BatchRowData | undefined
  return row ? batchFromRow(row) : null
}

/** The most recent batch with changes not yet sent (its id: a status costs a pass over its changes). */
export function batchIdWithPending(db: Db): string | null {
  return (
    scalar<string>(
      db,
      "SELECT b.id FROM bulk_batches b WHERE EXISTS (SELECT 1 FROM bulk_changes c WHERE c.batch_id = b.id AND c.status = 'pending') ORDER BY b.created_ms DESC LIMIT 1"
    ) ?? null
  )
}

export function batchHistory(db: Db, limit: number): BatchStatus[] {
  return (db.prepare(`${BATCH_SELECT} GROUP BY b.id ORDER BY b.created_ms DESC, b.id LIMIT ?`).raw().all(limit) as BatchRowData[]).map(batchFromRow)
}

export function batchRows(db: Db, batchId: string, query: { status?: BatchRowStatus | undefined; page: number; take: number }): Page<BatchRow> {
  const where = query.status ? 'batch_id = ? AND status = ?' : 'batch_id = ?'
  const params = query.status ? [batchId, query.status] : [batchId]
  const total = scalar<number>(db, `SELECT COUNT(*) FROM bulk_changes WHERE ${where}`, ...params) ?? 0
  const rows = db
    .prepare(
      `SELECT sell_request_id, sku, name, field, before_value, after_value, status, message, changed_ms FROM bulk_changes WHERE ${where} ORDER BY name COLLATE NOCASE, sell_request_id, field LIMIT ? OFFSET ?`
    )
    .raw()
    .all(...params, query.take, (query.page - 1) * query.take) as [string, string, string, BulkField, number, number, BatchRowStatus, string | null, number][]
  return {
    total,
    page: query.page,
    take: query.take,
    rows: rows.map(([sellRequestId, sku, name, field, before, after, status, message, changedMs]) => ({
      sellRequestId,
      sku,
      name,
      field,
      before,
      after,
      status,
      message,
      changedAt: iso(changedMs)!
    }))
  }
}

/** Every change of a batch in one status (for undo and for exporting failed rows). */
export function batchRowsWithStatus(db: Db, batchId: string, statuses: BatchRowStatus[]): BatchRow[] {
  return batchRows(db, batchId, { page: 1, take: Number.MAX_SAFE_INTEGER }).rows.filter((row) => statuses.includes(row.status))
}
