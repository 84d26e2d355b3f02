/**
 * Bulk edit for one account, as the contract exposes it: the change set (kept here in main, so a window
 * reload loses nothing), operations on a selection, import and export, and applying through the apply
 * queue in the snapshot database (progress, cancel, retry, resume, history, undo of a batch).
 */
import { randomUUID } from 'node:crypto'
import type {
  BatchChange,
  BatchRow,
  BatchRowStatus,
  BatchStatus,
  BulkOperation,
  BulkPreview,
  BulkStatus,
  ChangeSetSummary,
  ChangeSetState,
  ExportedFile,
  GridListingRow,
  ImportReport,
  SellRequestFilter,
  SentMarks,
  StagedCell,
  StagedCellsPage,
  StagedChangeView,
  UnappliedChangesPage,
  WarningRules
} from '../../shared/contract'
import { BULK_CONFIRM_LISTINGS, BULK_MARKS_PAGE, bulkRulesInput, DEFAULT_WARNING_RULES } from '../../shared/contract'
import type { Page } from '../../shared/domain'
import { SellerDeskError, toErrorData, type ErrorData } from '../../shared/errors'
import { LISTING_FIELD_SET, priceField, quantityField, type FieldSet } from '../../shared/listingFields'
import { createPause, nextTurn, type Pause } from '../eventLoopTurns'
import type { SellerApi } from '../sellerApi'
import type { BulkEditStore, QueuedChange, StagedWrite } from '../snapshot/bulkEditStore'
import type { Snapshot } from '../snapshot/snapshot'
import { runBatch, type ApplyRunProgress } from './applyRun'
import { proposeChanges } from './bulkOperation'
import {
  changeKey,
  changeKeyParts,
  createChangeSet,
  fieldValue,
  proposedChange,
  wordedChange,
  type PendingChange,
  type ProposedChange,
  type StepKind
} from './changeSet'
import { createListingsMemo, type CurrentListing } from './currentListings'
import { failedSheet, listingsSheet } from './exportFile'
import { writeSheet } from '../spreadsheetFile/sheetFile'
import { importChanges, listingFinder, listingsNamed, MAX_LISTED_PROBLEMS, readImportTable, type ImportResult } from './importFile'
import { formatNumber } from '../../shared/formatCount'

/** New values of one listing's fields, by field key; keys that are no field are refused. */
export interface StageRow {
  sellRequestId: string
  /** A field's new value; null takes back its pending change. */
  readonly [field: string]: string | number | null | undefined
}

export type Selection = { ids: string[] } | { all: true } | { filter: SellRequestFilter }

/** How many listings a filter selection reads from the snapshot at a time. */
const FILTER_PAGE = 5_000

export type ExportRows = { kind: 'listings'; selection: Selection } | { kind: 'failed'; batchId: string }

export interface BulkEditDeps {
  snapshot: Snapshot
  /** The workspace's observed API (outcomes feed online/offline). */
  api: SellerApi
  online: () => boolean
  onProgress: (status: BatchStatus) => void
  /** A run stopped by something unexpected (a bug or a broken database): shown to the seller. */
  onFailure?: (message: string) => void
  concurrency?: number
  /** Brings the snapshot up to date before a batch runs, so conflicts are judged on fresh values. */
  refresh?: () => Promise<unknown>
  /** Reads the sell requests back after a run, to judge changes taken without a readable answer (applyRun.ts). */
  readBack?: () => Promise<ErrorData | null>
  /** Least time between two progress reports of a run (the last one is always sent). Default 100 ms. */
  progressIntervalMs?: number
  /** At close, how long PATCHes in flight may take to answer before they are stopped (their changes then stay pending). Default 10 s. */
  closeGraceMs?: number
  now?: () => number
  /** The listing fields changes may be to (default: Seller Desk's; a test adds one). */
  fields?: FieldSet
  /** How long an import, an undo, a redo or a discard works before it lets other calls be answered (default: TURN_MS). */
  turnMs?: number
  /** How long the thread rests between those turns (default: REST_MS; see createPause). */
  restMs?: number
  /** Grid rows read in one turn (default: GRID_PART). */
  gridPart?: number
  /** Changes an apply queues at a time (default: QUEUE_PART). */
  queuePart?: number
}

export interface BulkEdit {
  /** New values by listing, each under its field's key (`{ sellRequestId, priceCents: 12999 }`). */
  stage(changes: StageRow[]): ChangeSetSummary
  operation(selection: Selection, operation: BulkOperation): ChangeSetSummary
  changes(query: { page: number; take: number; only: 'all' | 'invalid' | 'warnings' }): Page<StagedChangeView>
  /**
   * Every pending change's mark, a page (BULK_MARKS_PAGE) at a time. The first page (no `read`) starts a
   * read: every mark as it is then (and marksSince afresh); the later pages name it and come from it.
   * A read is let go after its last page, or when two newer ones have begun (its later pages are then refused).
   */
  stagedCells(page?: { offset: number; read?: number | undefined }): StagedCellsPage
  /** The marks that changed since the last stagedCells or marksSince: for the answer to a change-set call. */
  marksSince(): Omit<ChangeSetState, 'summary'>
  /**
   * The answer to stage(changes), made from what staging them did (ChangeSet.stage's outcomes): the sent
   * cells' marks by their place (`sent`, see SentMarks) when they are the only cells touched since the
   * last marks and each listing was sent once, else marksSince's. Resets the touched cells as marksSince does.
   */
  marksOfSent(changes: StageRow[]): Omit<ChangeSetState, 'summary'>
  preview(): BulkPreview
  /** Undo, redo and discard work a part per turn when the step is large; other changes to the change set are refused meanwhile. */
  undo(): Promise<ChangeSetSummary>
  redo(): Promise<ChangeSetSummary>
  discard(): Promise<ChangeSetSummary>
  /** Checks every pending change again by these rules, and keeps them with the account. */
  setRules(rules: WarningRules): Promise<ChangeSetSummary>
  /** Queues the valid changes as a batch (one transaction) and starts applying it; resolves once started. */
  apply(confirmed: boolean): Promise<BatchStatus>
  cancel(batchId: string): Promise<BatchStatus>
  retryFailed(batchId: string): Promise<BatchStatus>
  resume(batchId: string): BatchStatus
  status(): BulkStatus
  history(limit: number): BatchStatus[]
  batchRows(query: { batchId: string; status?: BatchRowStatus | undefined; page: number; take: number }): Page<BatchRow>
  /** A page (BULK_MARKS_PAGE at most) of a batch's changes that did not apply, from `offset`. */
  unappliedChanges(batchId: string, offset: number): UnappliedChangesPage
  /** Puts away the note of a batch's changes that did not apply; the note as it stands then. */
  dismissUnapplied(batchId: string): Promise<{ unapplied: BatchStatus | null }>
  /** Stages the reverse of a batch's applied changes (as a new step of the change set; nothing is applied). */
  undoBatch(batchId: string): ChangeSetSummary
  /**
   * A page of the listings as the grid shows them (name, then id), how many there are, and the listings'
   * version (see gridVersion); what staging needs of them is kept. Read in parts, a turn each.
   */
  gridRows(page: { offset: number; limit: number }): Promise<{ rows: GridListingRow[]; total: number; version: string }>
  /** The listings' version now: the grid reads its rows again only when it moved. */
  gridVersion(): string
  importFile(fileName: string, bytes: Uint8Array): Promise<ImportReport>
  exportFile(format: 'csv' | 'xlsx', rows: ExportRows): Promise<ExportedFile>
  /** Resolves when no batch is being applied. */
  whenIdle(): Promise<void>
  /** Resolves once every staged edit has been saved (they are saved a part per turn). */
  whenSaved(): Promise<void>
  /**
   * Stops applying: nothing new is sent (what is pending stays pending, to resume next time), the
   * PATCHes in flight are awaited and recorded (after `closeGraceMs` they are stopped and stay pending).
   * Resolves when nothing more will be written to the snapshot, so it may be closed.
   */
  close(): Promise<void>
}

/** What one or more staging steps did, by change key: the change now staged there, or undefined (none). */
type StagedEdits = Map<string, PendingChange | undefined>

const CANCELLED = 'Canceled before it was sent.'
/** A run that sent nothing because the listings could not be read first (said once, not as a failure of the run). */
const NOT_SENT = Symbol('not sent')
/** Each account keeps its batches in its own snapshot: a batch of another account is not found in this one. */
const NO_SUCH_BATCH = 'That batch of changes is not on this computer for this account.'

/** Staged edits saved in one transaction; more wait for the next turn of the event loop. */
const SAVE_PART = 300
/** Listings read for an import at a time: a small step, so the pause decides where a turn ends. */
const IMPORT_LISTINGS_PAGE = 500
/** Page-by-page reads of every listing an import starts over before it reads them in one turn. */
const EVERY_LISTING_ATTEMPTS = 3
/**
 * How long an import, an undo, a redo, a discard or queueing an apply works in a turn: a call arriving meanwhile waits for
 * the rest of the turn, and the collector’s pauses (while an import holds a large file’s rows) come on top of it.
 */
const TURN_MS = 3
/** How long the core's thread rests between those turns, so the threads carrying calls to it get a core. */
const REST_MS = 1
/** What a change is for and makes its field: enough to tell it and to count it in a batch's label. */
type ChangeTo = Pick<BatchChange, 'sellRequestId' | 'field' | 'after'>

/** Proposed changes of an import staged at a time (the pause decides where a turn ends). */
const STAGE_PART = 250
const IMPORTING = 'An import is being staged. Try again when it is done.'
/**
 * Grid rows read in one turn of the thread (a grid page is read in parts of this many): each part goes on
 * in the name index from the one before, so a call arriving meanwhile waits for one short part, not a page.
 */
const GRID_PART = 125
/** Listings that change between the parts of a page make it be read again, this many times at most, then in one turn. */
const GRID_PAGE_TRIES = 3
/** Changes of an undo, a redo or a discard made at a time (the pause decides where a turn ends). */
const STEP_PART = 250
/** Changes an apply queues at a time, and listings whose names it reads for them (the pause decides where a turn ends). */
const QUEUE_PART = 250
const STEPPING: Record<StepKind, string> = {
  undo: 'Changes are being undone. Try again when that is done.',
  redo: 'Changes are being redone. Try again when that is done.',
  discard: 'Changes are being discarded. Try again when that is done.'
}

/** Reads of every mark kept at once (stagedCells): a newer one lets the oldest go. */
const MARKS_READS = 2
/** Names reads of the marks across accounts, so a page asked for by a grid of another account is refused. */
let marksReadsBegun = 0

/** What a stage call did: each proposal's change as staging left it, in the order of the cells sent. */
interface StageOutcomes {
  changes: StageRow[]
  outcomes: (PendingChange | undefined)[]
  /** No cell was touched since the last marks before the call: every cell touched since is one of its. */
  alone: boolean
  /** Each listing sent once: a cell's place among those sent names one cell, whose mark is its outcome. */
  oncePerListing: boolean
}

/** The value a change's warning was judged against, or null when it has none (StagedCell's warnsFrom). */
const warnsFrom = (change: PendingChange) => (change.warns ? change.before : null)

const cellOf = (change: PendingChange): StagedCell => [change.sellRequestId, change.field, change.after, change.invalid, warnsFrom(change)]

/** The batch being applied. */
interface Run {
  batchId: string
  controller: AbortController
  /** Stops the PATCHes in flight too (closing, after the grace time). */
  hardStop: AbortController
  /** The seller cancelled (pending changes become cancelled); otherwise an abort keeps them pending. */
  cancelled: boolean
  /** The batch as the queue held it when the run started. */
  base: BatchStatus
  progress: ApplyRunProgress | null
  promise: Promise<void>
}

/** The warning rules saved with the account; the defaults where none are saved or what is saved no longer fits. */
function savedRules(store: BulkEditStore): WarningRules {
  const saved = bulkRulesInput.safeParse(store.readRules())
  return saved.success ? saved.data : DEFAULT_WARNING_RULES
}

export function createBulkEdit(deps: BulkEditDeps): BulkEdit {
  const { snapshot } = deps
  const fields = deps.fields ?? LISTING_FIELD_SET
  const store = snapshot.bulkEdit
  const now = deps.now ?? Date.now
  const progressIntervalMs = deps.progressIntervalMs ?? 100
  // The change set is saved in the snapshot as it changes (a step's edits together, just after the call
  // has answered), so it outlives the window, a quit or a crash, and comes back with the account.
  const edits: StagedEdits = new Map()
  let saveQueued = false
  /** The last part handed to the store: once written, so is every edit taken out of `edits` before it. */
  let lastSave: Promise<void> = Promise.resolve()
  /** A write to the batches under way (whileWritingBatch): what refuses other changes meanwhile, and its end. */
  let writingBatch: { words: string; done: Promise<void> } | null = null
  /** Waiting for every edit to be saved (whenSaved). */
  const savedWaiting: (() => void)[] = []
  /**
   * What changes the change set over several turns (an import, a large undo, redo or discard), as the
   * words refusing anything else that would change it meanwhile; null when nothing does.
   */
  let busy: string | null = null
  /** Resolves when the undo, redo or discard running over several turns has ended; null when none is. */
  let stepping: Promise<void> | null = null
  /** The edits not saved yet (at most `limit`, the oldest first), taken out of `edits`. */
  function stagedWrites(limit = Infinity): StagedWrite[] {
    const writes: StagedWrite[] = []
    for (const [key, change] of edits) {
      if (writes.length >= limit) break
      writes.push({ ...changeKeyParts(key), change: change ?? null })
      edits.delete(key)
    }
    return writes
  }
  /** The unsaved edits of these keys, taken out of `edits`. */
  function stagedWritesOf(keys: readonly string[]): StagedWrite[] {
    const writes: StagedWrite[] = []
    for (const key of keys) {
      if (!edits.has(key)) continue
      writes.push({ ...changeKeyParts(key), change: edits.get(key) ?? null })
      edits.delete(key)
    }
    return writes
  }
  /**
   * Saves what was staged: a part per turn of the event loop (a large import's edits in several
   * transactions, so calls are answered between them), or everything at once (closing).
   */
  function saveStaged(limit = SAVE_PART): Promise<void> {
    saveQueued = false
    // A batch being written takes its changes out of the change set as it lands: edits taken out before
    // that would be written after it, staging again what it queued. They wait for it.
    if (writingBatch && edits.size > 0) return writingBatch.done.then(() => saveStaged(limit))
    // A part due after close is not written (close saved everything).
    if (edits.size > 0 && !(closed && limit !== Infinity)) {
      // The store writes in the order asked, so once this part is written every part before it is too.
      lastSave = store.writeStaged(stagedWrites(limit)).catch((error: unknown) => {
        deps.onFailure?.(
          `Staged changes could not be saved on this computer (${error instanceof Error ? error.message : String(error)}). They are kept while Seller Desk stays open.`
        )
      })
    }
    if (edits.size > 0 && !closed) queueSave()
    else if (edits.size === 0) {
      const waiting = savedWaiting.splice(0)
      void lastSave.then(() => {
        for (const done of waiting) done()
      })
    }
    return lastSave
  }
  /**
   * While an import stages (or a large undo, redo or discard runs), its edits wait: a save queued for
   * the next turn would run in the same phase of the event loop as the import's next part (both are
   * setImmediate callbacks), making that turn a save and a part long. They are saved a part per turn
   * once it is done.
   */
  function queueSave() {
    if (saveQueued || closed || busy) return
    saveQueued = true
    setImmediate(saveStaged)
  }
  /**
   * Keys edited since the grid's marks were last sent, or null: every mark may have changed (new rules).
   * One record per account: the app has one window, so one grid (a second preview tab would need to
   * reload its marks).
   */
  let touched: Set<string> | null = new Set()
  /**
   * The last stage call's changes and each of its cells as staging left it (see ChangeSet.stage), while
   * nothing has changed the change set since: what marksOfSent answers from. Null otherwise.
   */
  let lastStaged: StageOutcomes | null = null
  /** Reads of every mark under way (stagedCells) by name: the grid's read of its rows and an import's may overlap. */
  const marksReads = new Map<number, PendingChange[]>()
  const changeSet = createChangeSet(
    savedRules(store),
    (key, change) => {
      lastStaged = null
      touched?.add(key)
      edits.set(key, change)
      queueSave()
    },
    fields
  )
  changeSet.restore(store.readStaged())
  const listingMemo = createListingsMemo(
    (ids) => store.listingsById(ids, fields),
    () => snapshot.listingsGeneration(),
    fields
  )
  /**
   * Batches whose reverse "Undo batch" staged while this account is open, the latest last: a batch
   * applying any of those reverse values is recorded as an undo of that batch. Kept in memory only: a
   * reverse staged before a restart applies as an ordinary batch.
   */
  const undoSources: string[] = []
  let running: Run | null = null
  /** The batch being queued (apply), not yet running: not another batch waiting to be resumed. */
  let queueing: string | null = null
  let closed = false
  let closing: Promise<void> | null = null

  const today = () => new Date(now()).toISOString().slice(0, 10)

  /** Saves what is staged, stops applying and resolves once nothing more will be written (see BulkEdit.close). */
  function closeNow(): Promise<void> {
    const saved = edits.size ? saveStaged(Infinity) : lastSave
    closed = true
    const run = running
    if (!run) return saved
    run.controller.abort()
    const grace = setTimeout(() => run.hardStop.abort(), deps.closeGraceMs ?? 10_000)
    return Promise.all([saved, run.promise.finally(() => clearTimeout(grace))]).then(() => undefined)
  }

  function notWhileBusy() {
    const words = busy ?? writingBatch?.words
    if (words) throw new SellerDeskError('invalid-input', words)
  }
  function notWhileWritingBatch() {
    if (writingBatch) throw new SellerDeskError('invalid-input', writingBatch.words)
  }

  /**
   * A write to the batches (queueing one, cancelling or requeueing its changes) that may wait its turn
   * for the snapshot's thread: meanwhile what would change the change set, start a run or write the
   * batches is refused with `words`, and saves of staged edits wait for it.
   */
  async function whileWritingBatch<T>(words: string, write: () => Promise<T>): Promise<T> {
    notWhileWritingBatch()
    let ended = () => {}
    writingBatch = { words, done: new Promise<void>((resolve) => (ended = resolve)) }
    try {
      return await write()
    } finally {
      writingBatch = null
      ended()
      if (edits.size > 0) queueSave()
    }
  }

  /** An undo, a redo or a discard, a part per turn once it has taken a turn's time. */
  async function stepInParts(kind: StepKind): Promise<ChangeSetSummary> {
    notWhileBusy()
    busy = STEPPING[kind]
    let ended = () => {}
    stepping = new Promise<void>((resolve) => (ended = resolve))
    try {
      const work = changeSet.inParts(kind)
      const pause = createPause(deps.turnMs ?? TURN_MS, deps.restMs ?? REST_MS)
      while (work.next(STEP_PART)) await pause()
      return changeSet.summary()
    } finally {
      busy = null
      stepping = null
      ended()
      if (edits.size > 0) queueSave()
    }
  }

  /**
   * The listings an import's file names (`wanted`), found among every listing read a page per turn; read
   * again from the start if a sync or an apply wrote them meanwhile, and in one turn once that has
   * happened a few times (listings written without pause).
   */
  async function importListings(pause: Pause, wanted: (id: string, sku: string) => boolean) {
    for (let attempt = 0; attempt < EVERY_LISTING_ATTEMPTS; attempt++) {
      const generation = snapshot.listingsGeneration()
      const finder = listingFinder()
      for (let after = 0; ;) {
        const page = store.importListingsAfter(after, IMPORT_LISTINGS_PAGE, wanted, fields)
        finder.add(page.listings)
        after = page.lastRow
        if (page.read < IMPORT_LISTINGS_PAGE) break
        await pause()
        if (snapshot.listingsGeneration() !== generation) break
      }
      if (snapshot.listingsGeneration() === generation) return finder
    }
    return listingFinder(store.importListingsAfter(0, Infinity, wanted, fields).listings)
  }

  /**
   * What an import's file proposes against what is pending, read, matched and compared a turn at a time.
   * The file's table and the listings read for it are left behind once this answers, so the collector
   * does not go over them again while the changes are staged.
   */
  async function proposedByFile(fileName: string, bytes: Uint8Array, pause: Pause): Promise<ImportResult> {
    const table = await readImportTable(fileName, bytes, { pause })
    const finder = await importListings(pause, await listingsNamed(fileName, table, fields, pause))
    return importChanges(fileName, table, finder, (id, field) => changeSet.get(id, field)?.after, fields, pause)
  }

  /** The listings the Sell requests list shows with this filter (its own query), by name. */
  function filteredListings(filter: SellRequestFilter): CurrentListing[] {
    const ids: string[] = []
    for (let page = 1; ; page++) {
      const { rows } = snapshot.querySellRequests({ ...filter, page, take: FILTER_PAGE, sortBy: 'name', sortDir: 'ASC' })
      for (const row of rows) ids.push(row.id)
      if (rows.length < FILTER_PAGE) break
    }
    if (ids.length === 0)
      throw new SellerDeskError('invalid-input', 'No sell requests match these filters. Change the filters, or sync if a listing is missing.')
    const found = store.listingsById(ids, fields)
    return ids.flatMap((id) => found.get(id) ?? [])
  }

  function listingsOf(selection: Selection): CurrentListing[] {
    if ('all' in selection) return store.allListings(fields)
    if ('filter' in selection) return filteredListings(selection.filter)
    const found = store.listingsById(selection.ids, fields)
    const missing = selection.ids.filter((id) => !found.has(id)).length
    if (missing > 0) throw new SellerDeskError('not-found', `${missing} of the selected listings are no longer in your sell requests. Sync, then select again.`)
    return selection.ids.map((id) => found.get(id)!)
  }

  function stage(proposed: ProposedChange[]): ChangeSetSummary {
    return changeSet.stage(proposed)
  }

  /**
   * The running batch as it stands: the queue's counts at the start of the run plus this run's outcomes,
   * counted in memory (the queue gets them within a flush interval; reading it would mean flushing first).
   */
  function liveStatus(run: Run): BatchStatus {
    const { base, progress } = run
    if (!progress) return { ...base, running: true, etaMs: null }
    return {
      ...base,
      running: true,
      startedAt: base.startedAt ?? new Date(progress.startedMs).toISOString(),
      finishedAt: null,
      pending: base.pending - progress.done,
      applied: base.applied + progress.applied,
      failed: base.failed + progress.failed,
      conflict: base.conflict + progress.conflict,
      etaMs: progress.done > 0 ? Math.round(((progress.total - progress.done) * progress.elapsedMs) / progress.done) : null
    }
  }

  const withEta = (status: BatchStatus): BatchStatus => (running?.batchId === status.id ? liveStatus(running) : status)

  function statusOf(batchId: string): BatchStatus {
    const status = store.batchStatus(batchId)
    if (!status) throw new SellerDeskError('not-found', NO_SUCH_BATCH)
    return withEta(status)
  }

  function needsConnection() {
    if (!deps.online())
      throw new SellerDeskError('network', 'You are offline: applying changes needs a connection to the marketplace. Seller Desk will reconnect by itself.')
  }

  function start(batchId: string): BatchStatus {
    if (closed) throw new SellerDeskError('invalid-input', 'This account is being closed: nothing more is sent.')
    if (running) throw new SellerDeskError('invalid-input', 'Changes are already being applied. Wait for them to finish, or cancel them.')
    const base = store.batchStatus(batchId)
    if (!base) throw new SellerDeskError('not-found', NO_SUCH_BATCH)
    const controller = new AbortController()
    let lastReport = 0
    const run: Run = { batchId, controller, hardStop: new AbortController(), cancelled: false, base, progress: null, promise: Promise.resolve() }
    running = run
    // Conflicts are judged against the snapshot: it is brought up to date first, and when that fails
    // nothing is sent. A change made on the marketplace since the last sync would not be seen, and a
    // PATCH would overwrite it (stock bought meanwhile put back up).
    let unread: string | null = null
    const fresh = deps.refresh
      ? deps.refresh().catch((error: unknown) => {
          unread = toErrorData(error).message
        })
      : Promise.resolve()
    run.promise = fresh
      .then(() => {
        // Cancelled meanwhile: the run ends the batch as cancelled, sending nothing.
        if (unread === null || run.cancelled) return
        if (!closed)
          deps.onFailure?.(
            `Nothing was sent. Seller Desk first reads your listings from the marketplace, to see whether any changed there since the last sync, and could not: ${unread} Every change is kept: resume the batch in Bulk edit.`
          )
        throw NOT_SENT
      })
      .then(() =>
        runBatch({
          snapshot,
          fields,
          api: deps.api,
          batchId,
          signal: controller.signal,
          hardStop: run.hardStop.signal,
          cancelledMessage: () => (run.cancelled ? CANCELLED : null),
          onSettled: (progress) => {
            run.progress = progress
            if (now() - lastReport < progressIntervalMs || closed) return
            lastReport = now()
            deps.onProgress(liveStatus(run))
          },
          ...(deps.concurrency !== undefined ? { concurrency: deps.concurrency } : {}),
          ...(deps.readBack ? { readBack: deps.readBack } : {}),
          now
        })
      )
      .catch((error: unknown) => {
        if (error !== NOT_SENT && !closed) deps.onFailure?.('Applying the changes stopped unexpectedly. What was not sent is kept: resume it in Bulk edit.')
      })
      .finally(() => {
        running = null
        if (!closed) deps.onProgress(statusOf(batchId))
      })
    return liveStatus(run)
  }

  /** The latest batch whose staged reverse these changes carry (a change back to its value before that batch), and which changes reverse it. */
  function undoneBy(changes: readonly PendingChange[]): { source: BatchStatus; reverses: (change: ChangeTo) => boolean } | null {
    for (const sourceId of [...undoSources].reverse()) {
      const source = store.batchStatus(sourceId)
      if (!source) continue
      const before = new Map(store.batchRowsWithStatus(sourceId, ['applied']).map((row) => [changeKey(row.sellRequestId, row.field), row.before]))
      const reverses = (change: ChangeTo) => before.get(changeKey(change.sellRequestId, change.field)) === change.after
      if (changes.some(reverses)) return { source, reverses }
    }
    return null
  }

  /**
   * A batch's label, for the changes queued in it so far (`add` each part as it is queued): how many of
   * each field on how many listings, or, for the reverse of a batch, that batch's label and how many
   * other changes come with it.
   */
  function batchLabel(undo: ReturnType<typeof undoneBy>): { add(part: readonly ChangeTo[]): void; words(): string } {
    const perField = new Map<string, number>()
    const listings = new Set<string>()
    let queued = 0
    let reversed = 0
    return {
      add(part) {
        for (const change of part) {
          perField.set(change.field, (perField.get(change.field) ?? 0) + 1)
          listings.add(change.sellRequestId)
          if (undo?.reverses(change)) reversed++
        }
        queued += part.length
      },
      words() {
        if (undo) {
          const others = queued - reversed
          return `Undo of “${undo.source.label}”${others > 0 ? ` and ${others} other change${others === 1 ? '' : 's'}` : ''}`
        }
        const counts = fields.all.flatMap((field) => {
          const count = perField.get(field.key) ?? 0
          return count === 0 ? [] : [`${formatNumber(count)} ${count === 1 ? field.label.toLowerCase() : field.plural}`]
        })
        const words = counts.length > 1 ? `${counts.slice(0, -1).join(', ')} and ${counts.at(-1)!}` : counts.join('')
        return `${words} on ${formatNumber(listings.size)} listing${listings.size === 1 ? '' : 's'}`
      }
    }
  }

  function preview(): BulkPreview {
    const summary = changeSet.summary()
    const valid = changeSet.all().filter((change) => !change.invalid)
    const listings = new Set(valid.map((change) => change.sellRequestId))
    let quantityDelta = 0
    let priceChanges = 0
    let priceDelta = 0
    let pricePercent = 0
    // The preview's figures are about these two fields by name; any other field counts only in the totals.
    for (const change of valid) {
      if (change.field === quantityField.key) quantityDelta += change.after - change.before
      else if (change.field === priceField.key) {
        priceChanges++
        priceDelta += change.after - change.before
        pricePercent += change.before > 0 ? ((change.after - change.before) / change.before) * 100 : 0
      }
    }
    const warned = valid.some((change) => change.warns)
    return {
      ...summary,
      applicableListings: listings.size,
      applicableChanges: valid.length,
      quantityDelta,
      averagePriceChangeCents: priceChanges ? Math.round(priceDelta / priceChanges) : 0,
      averagePriceChangePercent: priceChanges ? Math.round((pricePercent / priceChanges) * 100) / 100 : 0,
      needsConfirmation: listings.size > BULK_CONFIRM_LISTINGS || warned,
      confirmationThreshold: BULK_CONFIRM_LISTINGS
    }
  }

  /** See BulkEdit.marksSince. */
  function marksSince(): Omit<ChangeSetState, 'summary'> {
    const keys = touched
    touched = new Set()
    // New rules re-check every change; and past the change set's size, all of it is the smaller
    // answer. More than a page of marks: the grid reads them in pages.
    if (!keys || keys.size > Math.min(changeSet.size(), BULK_MARKS_PAGE)) {
      if (changeSet.size() > BULK_MARKS_PAGE) return { whole: true, reread: true, cells: [], cleared: [] }
      return { whole: true, cells: changeSet.all().map(cellOf), cleared: [] }
    }
    const cells: StagedCell[] = []
    const cleared: ChangeSetState['cleared'] = []
    for (const key of keys) {
      const { sellRequestId, field } = changeKeyParts(key)
      const change = changeSet.get(sellRequestId, field)
      if (change) cells.push(cellOf(change))
      else cleared.push([sellRequestId, field])
    }
    return { whole: false, cells, cleared }
  }

  return {
    stage(changes) {
      notWhileBusy()
      const found = listingMemo.byId(changes.map((change) => change.sellRequestId))
      const missing = changes.filter((change) => !found.has(change.sellRequestId)).length
      if (missing > 0)
        throw new SellerDeskError('not-found', `${missing} of these changes are for listings no longer in your sell requests. Sync, then try again.`)
      const proposed: ProposedChange[] = []
      for (const change of changes) {
        const listing = found.get(change.sellRequestId)!
        for (const key of Object.keys(change)) {
          if (key === 'sellRequestId' || change[key] === undefined) continue
          if (!fields.has(key)) throw new SellerDeskError('invalid-input', `There is no listing field “${key}” to change.`)
          // A cell's place among those sent (SentMarks) counts the values given, each one proposal.
          if (change[key] !== null && typeof change[key] !== 'number')
            throw new SellerDeskError('invalid-input', `A new ${fields.get(key).label.toLowerCase()} is a number, or null to take its change back.`)
        }
        for (const field of fields.all) {
          const value = change[field.key]
          // Taken back: the listing's value as the snapshot holds it, which removes a pending change.
          if (value === null) proposed.push(proposedChange(listing, field.key, fieldValue(listing, field.key)))
          else if (typeof value === 'number') proposed.push(proposedChange(listing, field.key, value))
        }
      }
      const alone = touched !== null && touched.size === 0
      const outcomes: (PendingChange | undefined)[] = []
      const summary = changeSet.stage(proposed, outcomes)
      lastStaged = { changes, outcomes, alone, oncePerListing: found.size === changes.length }
      return summary
    },

    operation(selection, operation) {
      notWhileBusy()
      return stage(proposeChanges(listingsOf(selection), operation, (id, field) => changeSet.get(id, field)))
    },

    changes({ page, take, only }) {
      const all = changeSet.all().filter((change) => (only === 'invalid' ? change.invalid : only === 'warnings' ? change.warns : true))
      const slice = all.slice((page - 1) * take, page * take)
      const listings = store.listingsById(slice.map((change) => change.sellRequestId))
      const rules = changeSet.rules()
      return {
        total: all.length,
        page,
        take,
        rows: slice.map((change) => ({
          ...wordedChange(change, rules, fields),
          name: listings.get(change.sellRequestId)?.name ?? '',
          sku: listings.get(change.sellRequestId)?.sku ?? ''
        }))
      }
    },

    stagedCells({ offset, read } = { offset: 0 }) {
      if (read === undefined) {
        touched = new Set()
        read = ++marksReadsBegun
        // The changes as they are now (a change replaces its record); each page makes its own marks.
        marksReads.set(read, changeSet.all())
        for (const oldest of marksReads.keys()) if (marksReads.size > MARKS_READS) marksReads.delete(oldest)
      }
      const changes = marksReads.get(read)
      if (!changes) throw new SellerDeskError('not-found', 'That read of the marks has ended (newer ones began). Read them again.')
      if (offset + BULK_MARKS_PAGE >= changes.length) marksReads.delete(read)
      return { read, total: changes.length, cells: changes.slice(offset, offset + BULK_MARKS_PAGE).map(cellOf) }
    },
    marksSince,
    marksOfSent(changes) {
      const staged = lastStaged?.changes === changes ? lastStaged : null
      lastStaged = null
      // Outcomes tell this call's cells only, as staging left them: cells touched before it or since (their
      // marks not sent yet; a later change to one of its cells makes its outcome stale), and new rules (every
      // mark judged again) are marksSince's. A listing sent twice: a place would name a value the later one
      // replaced, and each touched cell is this call's, so marksSince's marks by id are its outcomes.
      if (touched === null || !staged?.alone || !staged.oncePerListing) return marksSince()
      const unstaged: number[] = []
      const problems: SentMarks['problems'] = []
      staged.outcomes.forEach((change, at) => {
        if (!change) unstaged.push(at)
        else if (change.invalid || change.warns) problems.push([at, change.invalid, warnsFrom(change)])
      })
      // A problem (without the id, field and value a mark carries) is less than half a mark: more than two
      // pages' count of them could make an answer larger than a page of marks, so they are read in pages as every mark is.
      if (problems.length > 2 * BULK_MARKS_PAGE) return marksSince()
      touched = new Set()
      return { whole: false, cells: [], cleared: [], sent: { unstaged, problems } }
    },

    preview,
    undo: () => stepInParts('undo'),
    redo: () => stepInParts('redo'),
    discard: () => stepInParts('discard'),
    async setRules(rules) {
      notWhileBusy()
      touched = null
      // Saved first: rules that could not be kept are not the ones in force either.
      await store.writeRules(rules)
      return changeSet.setRules(rules)
    },

    async apply(confirmed) {
      notWhileBusy()
      const check = preview()
      if (check.applicableChanges === 0) {
        throw new SellerDeskError(
          'invalid-input',
          check.invalid > 0 ? 'Every pending change has a problem: fix or discard them first.' : 'There are no pending changes to apply.'
        )
      }
      if (check.needsConfirmation && !confirmed) {
        throw new SellerDeskError(
          'invalid-input',
          `Confirm applying ${check.applicableChanges} changes to ${check.applicableListings} listings${check.warnings ? ` (${check.warnings} with warnings)` : ''}.`
        )
      }
      needsConnection()
      if (running) throw new SellerDeskError('invalid-input', 'Changes are already being applied. Wait for them to finish, or cancel them.')
      const valid = changeSet.all().filter((change) => !change.invalid)
      const id = randomUUID()
      const queuePart = deps.queuePart ?? QUEUE_PART
      // Queued a part at a time, each part queued and no longer staged in one transaction: a crash leaves
      // each change in exactly one place (a batch cut short holds the parts queued before it, and the rest
      // stays staged). The change set stays as read above until the last part: edits wait meanwhile.
      await whileWritingBatch('Changes are being queued to apply. Try again in a moment.', async () => {
        const pause = createPause(deps.turnMs ?? TURN_MS, deps.restMs ?? REST_MS)
        // Each listing's SKU and name, for the batch's rows (they stay readable after it is deleted).
        const listings = new Map<string, CurrentListing>()
        for (let from = 0; from < valid.length; from += queuePart) {
          await pause()
          for (const [listingId, listing] of store.listingsById(valid.slice(from, from + queuePart).map((change) => change.sellRequestId)))
            listings.set(listingId, listing)
        }
        const queued: QueuedChange[] = valid.map((change) => ({
          sellRequestId: change.sellRequestId,
          sku: listings.get(change.sellRequestId)?.sku ?? '',
          name: listings.get(change.sellRequestId)?.name ?? '',
          field: change.field,
          before: change.before,
          after: change.after,
          baseUpdatedMs: Date.parse(change.baseUpdatedAt)
        }))
        const undo = undoneBy(valid)
        if (undo) undoSources.splice(undoSources.indexOf(undo.source.id), 1)
        const label = batchLabel(undo)
        const createdMs = now()
        queueing = id
        for (let from = 0; from < queued.length; from += queuePart) {
          await pause()
          const part = queued.slice(from, from + queuePart)
          // Only these changes' removal goes with the part; other edits not saved yet keep their turns.
          const taken = () => {
            const keys = part.map((change) => changeKey(change.sellRequestId, change.field))
            changeSet.take(keys)
            return stagedWritesOf(keys)
          }
          label.add(part)
          await store.queueBatch({ id, label: label.words(), createdMs, changes: part, undoOf: undo?.source.id ?? null }, taken)
        }
      }).finally(() => (queueing = null))
      return start(id)
    },

    async cancel(batchId) {
      if (running?.batchId === batchId) {
        running.cancelled = true
        running.controller.abort()
      } else {
        statusOf(batchId)
        await whileWritingBatch('A batch is being cancelled. Try again in a moment.', () => store.finishRun(batchId, now(), CANCELLED))
      }
      return statusOf(batchId)
    },

    async retryFailed(batchId) {
      statusOf(batchId)
      needsConnection()
      if (running) throw new SellerDeskError('invalid-input', 'Changes are already being applied. Wait for them to finish, or cancel them.')
      const requeued = await whileWritingBatch('Failed changes are being queued again. Try again in a moment.', () => store.requeueFailed(batchId, now()))
      if (requeued === 0) throw new SellerDeskError('invalid-input', 'No failed or cancelled changes to retry in this batch.')
      return start(batchId)
    },

    resume(batchId) {
      notWhileWritingBatch()
      if (statusOf(batchId).pending === 0) throw new SellerDeskError('invalid-input', 'Every change of this batch has been sent already.')
      needsConnection()
      return start(batchId)
    },

    status() {
      // The batch running is told from memory (its counts are the run's); another waiting batch is read.
      const current = running ? liveStatus(running) : null
      const pendingId = store.batchIdWithPending()
      return {
        changeSet: changeSet.summary(),
        rules: changeSet.rules(),
        running: current,
        pendingBatch: pendingId !== null && pendingId !== current?.id && pendingId !== queueing ? store.batchStatus(pendingId) : null,
        // While a batch runs its panel shows how it goes; what did not apply is noted once it ends.
        unapplied: current ? null : store.lastBatchUnapplied()
      }
    },

    history: (limit) => store.batchHistory(limit).map(withEta),
    batchRows({ batchId, status, page, take }) {
      statusOf(batchId)
      return store.batchRows(batchId, { status, page, take })
    },

    unappliedChanges(batchId, offset) {
      statusOf(batchId)
      return store.unappliedChanges(batchId, offset, BULK_MARKS_PAGE)
    },

    async dismissUnapplied(batchId) {
      statusOf(batchId)
      await store.dismissUnapplied(batchId, now())
      return { unapplied: running ? null : store.lastBatchUnapplied() }
    },

    undoBatch(batchId) {
      notWhileBusy()
      statusOf(batchId)
      const applied = store.batchRowsWithStatus(batchId, ['applied'])
      const listings = store.listingsById(
        applied.map((row) => row.sellRequestId),
        fields
      )
      const proposed: ProposedChange[] = applied.flatMap((row) => {
        const listing = listings.get(row.sellRequestId)
        return listing ? [proposedChange(listing, row.field, row.before)] : []
      })
      if (proposed.length === 0)
        throw new SellerDeskError('invalid-input', 'Nothing to undo: none of this batch’s changes were applied to listings you still have.')
      if (undoSources.includes(batchId)) undoSources.splice(undoSources.indexOf(batchId), 1)
      undoSources.push(batchId)
      return stage(proposed)
    },

    async gridRows(page) {
      for (let tries = 1; ; tries++) {
        // The last try reads the page in one turn: listings changing at every turn cannot hold it off.
        const part = tries < GRID_PAGE_TRIES ? (deps.gridPart ?? GRID_PART) : page.limit
        const generation = snapshot.listingsGeneration()
        const read = snapshot.gridRows({ offset: page.offset, limit: Math.min(part, page.limit) }, fields)
        for (let at = page.offset + part; at < page.offset + page.limit && read.rows.length === at - page.offset; at += part) {
          await nextTurn()
          read.rows.push(...snapshot.gridRows({ offset: at, limit: Math.min(part, page.offset + page.limit - at) }, fields).rows)
        }
        // The listings changed between two parts: the page's rows are not of one version.
        if (snapshot.listingsGeneration() !== generation) continue
        listingMemo.remember(read.rows, generation, { offset: page.offset, total: read.total })
        return read
      }
    },
    gridVersion: () => snapshot.gridVersion(fields),

    async importFile(fileName, bytes) {
      notWhileBusy()
      busy = IMPORTING
      try {
        // This turn already read and checked the call (its input can be megabytes): the file is read from the next.
        await nextTurn()
        const pause = createPause(deps.turnMs ?? TURN_MS, deps.restMs ?? REST_MS)
        const result = await proposedByFile(fileName, bytes, pause)
        // The grid reads every mark afresh after an import (stagedCells): no record of each cell it stages.
        touched = null
        // One step, staged a part at a time; nothing else changes the change set until it is closed.
        const step = changeSet.openStep()
        // The staged changes with a warning, as the change set judged each (the grid marks the same ones).
        let warnings = 0
        for (let from = 0; from < result.proposed.length; from += STAGE_PART) {
          const part = result.proposed.slice(from, from + STAGE_PART)
          step.add(part)
          for (const change of part) if (changeSet.get(change.sellRequestId, change.field)?.warns) warnings++
          await pause()
        }
        const changeSetSummary = step.close()
        return {
          fileName,
          format: result.format,
          sheet: result.sheet,
          rows: result.rows,
          staged: result.proposed.length,
          stagedRows: result.stagedRows,
          warnings,
          unchanged: result.unchanged,
          blankValues: result.blankValues,
          replaced: result.replaced,
          kept: result.kept,
          problems: result.problems.slice(0, MAX_LISTED_PROBLEMS),
          moreProblems: Math.max(0, result.problems.length - MAX_LISTED_PROBLEMS),
          changeSet: changeSetSummary
        }
      } finally {
        busy = null
        if (edits.size > 0) queueSave()
      }
    },

    async exportFile(format, rows) {
      if (rows.kind === 'failed') {
        statusOf(rows.batchId)
        return writeSheet(failedSheet(store.batchRowsWithStatus(rows.batchId, ['failed', 'conflict', 'cancelled']), today(), fields), format)
      }
      const pending = (id: string) => {
        const values: Record<string, number> = {}
        for (const field of fields.all) {
          const change = changeSet.get(id, field.key)
          if (change && !change.invalid) values[field.key] = change.after
        }
        return values
      }
      const listings = listingsOf(rows.selection)
      const properties = snapshot.listingProperties(listings.map((listing) => listing.id))
      return writeSheet(
        listingsSheet(listings, pending, (id) => properties.get(id), today(), fields),
        format
      )
    },

    whenIdle: async () => {
      await running?.promise
    },

    whenSaved: () => (edits.size === 0 ? lastSave : new Promise<void>((resolve) => savedWaiting.push(resolve))),

    close() {
      // An undo, a redo or a discard running over several turns ends first: what is saved is its whole result.
      closing ??= stepping ? stepping.then(closeNow) : closeNow()
      return closing
    }
  }
}
