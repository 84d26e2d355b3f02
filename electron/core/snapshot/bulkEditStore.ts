/**
 * What bulk edit keeps in and reads from the account's snapshot, behind one object so bulk edit never
 * holds the database: the saved change set, the apply queue, and the listings' current values.
 */
import type { BatchRow, BatchRowStatus, BatchStatus, UnappliedChangesPage, WarningRules } from '../../shared/contract'
import type { Page } from '../../shared/domain'
import type { FieldSet } from '../../shared/listingFields'
import {
  batchHistory,
  batchRows,
  batchRowsWithStatus,
  batchStatus,
  batchIdWithPending,
  queueBatchPart,
  dismissUnapplied,
  finishRun,
  lastBatchUnapplied,
  markStarted,
  pendingChanges,
  requeueFailed,
  settleMany,
  unappliedChanges,
  type ListingChanges,
  type Outcome,
  type QueuedChange
} from './applyQueue'
import { inTransaction, type Db } from './database'
import { allListings, importListingsAfter, listingsById, type CurrentListing, type ImportListing } from './listingValues'
import { readStagedChanges, writeStagedChanges, type SavedChange, type StagedWrite } from './stagedChanges'

export type { CurrentListing, ImportListing, ListingBase } from './listingValues'
export type { ListingChanges, Outcome, QueuedChange, SavedChange, StagedWrite }

/** A batch as queued from the change set. */
export interface NewBatch {
  id: string
  label: string
  createdMs: number
  changes: QueuedChange[]
  /** The batch whose changes this one reverses, or null. */
  undoOf: string | null
}

/**
 * The store's writes resolve once written. Each begins when the snapshot's thread is between
 * statements (snapshotThread.betweenStatements), so the core never waits in SQLite's busy handler for
 * one of the thread's long statements (an index over every row at the end of a full sync).
 */
export interface BulkEditStore {
  /** The warning rules saved with the account, as saved (the caller checks them); null when none are. */
  readRules(): unknown
  /** Keeps these warning rules with the account. */
  writeRules(rules: WarningRules): Promise<void>
  /** The saved change set, in staging order. */
  readStaged(): SavedChange[]
  /** Saves what staging did to these cells (one transaction). */
  writeStaged(writes: readonly StagedWrite[]): Promise<void>
  /**
   * Queues a part of a batch's changes (the first part creates the batch) and saves the change set
   * without them in one transaction: a crash leaves each change either staged or queued. `taken` is
   * called inside it and says what leaving the change set did. Each part words the batch's label for
   * every change it holds then (a batch a crash cut short is listed for what it holds).
   */
  queueBatch(batch: NewBatch, taken: () => readonly StagedWrite[]): Promise<void>
  /**
   * A batch's pending changes, by listing in the order of their ids (each listing's are sent as one
   * PATCH): of the listings after `after` ('': from the first), at most `limit` of them.
   */
  pendingChanges(batchId: string, after?: string, limit?: number): ListingChanges[]
  markStarted(batchId: string, ms: number): Promise<void>
  /** Records many outcomes in one transaction (changes no longer pending are left as they are). */
  settle(batchId: string, outcomes: readonly Outcome[]): Promise<void>
  /** Ends a run: pending changes become cancelled when there is a message; the batch is stamped finished if nothing is pending. */
  finishRun(batchId: string, ms: number, cancelledMessage: string | null): Promise<void>
  /** Failed and cancelled changes go back to pending. Returns how many. */
  requeueFailed(batchId: string, ms: number): Promise<number>
  batchStatus(batchId: string): BatchStatus | null
  /** The most recent batch with changes not yet sent: its id. */
  batchIdWithPending(): string | null
  batchHistory(limit: number): BatchStatus[]
  batchRows(batchId: string, query: { status?: BatchRowStatus | undefined; page: number; take: number }): Page<BatchRow>
  /** Every change of a batch in these statuses. */
  batchRowsWithStatus(batchId: string, statuses: BatchRowStatus[]): BatchRow[]
  /** The newest batch while some of its changes did not apply and its note is not put away (see applyQueue). */
  lastBatchUnapplied(): BatchStatus | null
  /** A page of a batch's changes that did not apply (failed, conflict, cancelled). */
  unappliedChanges(batchId: string, offset: number, limit: number): UnappliedChangesPage
  /** Puts away the note of a batch's changes that did not apply, until a retry of it. */
  dismissUnapplied(batchId: string, ms: number): Promise<void>
  /** The listings with these ids, by id (unknown ids are absent). */
  listingsById(ids: Iterable<string>, fields?: FieldSet): Map<string, CurrentListing>
  /** Every listing, by name, or in no particular order (cheaper, for lookups). */
  allListings(fields?: FieldSet): CurrentListing[]
  /**
   * What an import needs of the listings `wanted` keeps (by id and SKU), among at most `limit` rows
   * (Infinity: all) in no particular order after the row `afterRow` (0 first), with how many rows were
   * read and the last one: every listing a page at a time.
   */
  importListingsAfter(
    afterRow: number,
    limit: number,
    wanted: (id: string, sku: string) => boolean,
    fields?: FieldSet
  ): { listings: ImportListing[]; read: number; lastRow: number }
}

/** `inTurn` runs a write once the snapshot's thread is between statements (see BulkEditStore). */
export function createBulkEditStore(db: Db, inTurn: <T>(work: () => T) => Promise<T>): BulkEditStore {
  return {
    readRules() {
      const row = db.prepare('SELECT json FROM bulk_rules WHERE id = 1').raw().get() as [string] | undefined
      if (!row) return null
      try {
        return JSON.parse(row[0]) as unknown
      } catch {
        return null
      }
    },
    writeRules: (rules) =>
      inTurn(() => {
        db.prepare('INSERT INTO bulk_rules (id, json) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET json = excluded.json').run(JSON.stringify(rules))
      }),
    readStaged: () => readStagedChanges(db),
    writeStaged: (writes) => inTurn(() => writeStagedChanges(db, writes)),
    queueBatch: (batch, taken) =>
      inTurn(() =>
        inTransaction(db, () => {
          queueBatchPart(db, batch)
          writeStagedChanges(db, taken())
        })
      ),
    pendingChanges: (batchId, after, limit) => pendingChanges(db, batchId, after, limit),
    markStarted: (batchId, ms) => inTurn(() => markStarted(db, batchId, ms)),
    settle: (batchId, outcomes) => inTurn(() => settleMany(db, batchId, outcomes)),
    finishRun: (batchId, ms, cancelledMessage) => inTurn(() => finishRun(db, batchId, ms, cancelledMessage)),
    requeueFailed: (batchId, ms) => inTurn(() => requeueFailed(db, batchId, ms)),
    batchStatus: (batchId) => batchStatus(db, batchId),
    batchIdWithPending: () => batchIdWithPending(db),
    batchHistory: (limit) => batchHistory(db, limit),
    batchRows: (batchId, query) => batchRows(db, batchId, query),
    batchRowsWithStatus: (batchId, statuses) => batchRowsWithStatus(db, batchId, statuses),
    lastBatchUnapplied: () => lastBatchUnapplied(db),
    unappliedChanges: (batchId, offset, limit) => unappliedChanges(db, batchId, offset, limit),
    dismissUnapplied: (batchId, ms) => inTurn(() => dismissUnapplied(db, batchId, ms)),
    listingsById: (ids, fields) => listingsById(db, ids, fields),
    allListings: (fields) => allListings(db, fields),
    importListingsAfter: (afterRow, limit, wanted, fields) => importListingsAfter(db, afterRow, limit, wanted, fields)
  }
}
