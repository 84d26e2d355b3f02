/**
 * Bulk edit as the grid works with it: every listing of the snapshot as a grid row, the pending changes
 * marked on those rows, and the calls that change them (edit cells, operations on a selection, undo /
 * redo, import), preview, apply with progress, results, history. The change set itself lives in main
 * (`bulk.*` calls); this store mirrors it onto the rows and keeps nothing a reload could lose.
 *
 * The rows are read a page at a time. On a first read the grid shows the first page at once and the
 * rest fill in as they arrive (`progress`); what needs every row (sorting, filtering, select all,
 * Change many, export) waits for `whenComplete`. A later read (the listings changed) keeps the rows
 * shown until every page of the new ones is in.
 */
import { BULK_GRID_FIRST_PAGE, BULK_GRID_PAGE, DEFAULT_WARNING_RULES, bulkOperationField, worksFromValueHeld } from '@shared/bulkEditBasics'
import type {
  BatchRow,
  BatchRowStatus,
  BatchStatus,
  BulkField,
  BulkOperation,
  BulkStatus,
  ChangeSetState,
  ChangeSetSummary,
  GridListingRow,
  GridRowsPage,
  ImportReport,
  SentMarks,
  StagedCell,
  UnappliedChange,
  WarningRules
} from '@shared/contract'
import { gridRow, type GridTextColumn } from '@shared/gridRow'
import { centsFromDecimalString } from '@shared/money'
import { LISTING_FIELD_KEYS, type ListingFieldKey } from '@shared/listingFieldKeys'
import type { ListingField } from '@shared/listingFields'
import { problemMessage } from '@shared/valueProblem'
import type { Page } from '@shared/domain'
import { defineStore } from 'pinia'
import { computed, markRaw, ref, shallowRef } from 'vue'
import { call, ContractError, messageOf, onEvent } from '../bridge/sellerDesk'
import { GRID_CELLS, type CellMark, type CellSlots, type GridRow } from './gridCells'
import { useSessionStore } from './session'
import { unappliedCount, unappliedReasons } from '../components/bulkEdit/unappliedNote'

/** A cell the seller typed, pasted or filled. */
export interface CellEdit {
  id: string
  field: ListingFieldKey
  text: string
}

/** Cells whose text is no number at all: not staged, reported. */
export interface UnreadableCell {
  row: GridRow
  field: ListingFieldKey
  message: string
}

/** A cell sent to be staged: its listing, its field, the value sent (null takes back its change). */
type SentCell = [id: string, field: ListingFieldKey, value: number | null]

/** A stage answer's marks of the cells sent (see SentMarks), as the marks of those cells by id. */
function marksOfSent(sent: readonly SentCell[], { unstaged, problems }: SentMarks): Omit<ChangeSetState, 'summary'> {
  const gone = new Set(unstaged)
  const problemAt = new Map(problems.map(([at, invalid, warnsFrom]) => [at, { invalid, warnsFrom }]))
  const cells: StagedCell[] = []
  const cleared: ChangeSetState['cleared'] = []
  sent.forEach(([id, field, value], at) => {
    const problem = problemAt.get(at)
    if (gone.has(at) || value === null) cleared.push([id, field])
    else cells.push([id, field, value, problem?.invalid ?? null, problem?.warnsFrom ?? null])
  })
  return { whole: false, cells, cleared }
}

const EMPTY_SUMMARY: ChangeSetSummary = { changes: 0, listings: 0, invalid: 0, warnings: 0, canUndo: false, canRedo: false }

/**
 * A field's value as its cell holds it: money as the decimal the seller edits ("129.99"; a fraction of
 * a cent, an invalid value, as it is), a count as a number.
 */
const cellValue = (field: Pick<ListingField, 'unit' | 'format'>, value: number): string | number =>
  field.unit === 'cents' ? (Number.isInteger(value) ? field.format(value) : String(value / 100)) : value

/** Writes a listing's values into a row: text columns, then each field's current value (shown too, unmarked). */
function fillRow(target: GridRow, row: GridListingRow, fields: readonly ListingField[]): GridRow {
  const text = (column: GridTextColumn) => gridRow.text(row, column)
  Object.assign(target, {
    id: gridRow.id(row),
    name: text('name'),
    sku: text('sku'),
    brand: text('brand'),
    grade: text('grade'),
    color: text('color'),
    storage: text('storage'),
    carrier: text('carrier'),
    status: text('status'),
    updatedAt: gridRow.updatedAt(row)
  })
  const cells = target as unknown as Record<string, unknown>
  for (const field of fields) {
    const slots: CellSlots | undefined = GRID_CELLS[field.key as ListingFieldKey]
    if (!slots) continue
    const value = cellValue(field, gridRow.value(row, field.key))
    cells[slots.now] = cells[slots.shown] = value
    cells[slots.mark] = null
  }
  return target
}

/**
 * A row not read yet: empty until its page arrives. Rows are never made reactive (see GridRow): they
 * inherit Vue's mark for that from their class (markRaw on its prototype), as marking each of 100,000
 * rows would define a property on every one.
 */
class EmptyRow implements GridRow {
  id = ''
  name = ''
  sku = ''
  brand = ''
  grade = ''
  color = ''
  storage = ''
  carrier = ''
  status = ''
  updatedAt = ''
  priceNow = ''
  quantityNow = 0
  price = ''
  quantity = 0
  priceMark: CellMark | null = null
  quantityMark: CellMark | null = null
}
markRaw(EmptyRow.prototype)
const emptyRow = (): GridRow => new EmptyRow()

/** Least time between two redraws of the grid while a first read fills it. */
const REDRAW_WHILE_FILLING_MS = 250

/**
 * The grid narrowed to the listings of the last batch's changes that did not apply: each one's reason,
 * by listing id, as read from the apply queue for that batch at those counts.
 */
export interface UnappliedShown {
  batch: BatchStatus
  reasons: ReadonlyMap<string, string>
}

/** How many rows a read of the grid has, out of how many (shown while a first read fills the grid). */
/**
 * What Change many left that cannot be applied: values it staged (`problems`), and cells it left as
 * they were because they held such a value already (`held`), each with the first one's reason.
 */
export interface OperationOutcome {
  problems: number
  firstProblem: string | null
  held: number
  firstHeld: string | null
}

export interface GridProgress {
  read: number
  total: number
}

/**
 * Which of a batch's fields tell what did not apply in it (the note's outcome): every field is named,
 * so one added to BatchStatus does not compile until it is said whether it belongs. Pending and the
 * times are left out: a batch's note reads the same while a retry of it runs.
 */
const IN_OUTCOME: Record<keyof BatchStatus, boolean> = {
  id: true,
  applied: true,
  failed: true,
  conflict: true,
  cancelled: true,
  label: false,
  createdAt: false,
  startedAt: false,
  finishedAt: false,
  running: false,
  total: false,
  pending: false,
  etaMs: false,
  undoOf: false,
  undoneAt: false
}
const OUTCOME_KEYS = (Object.keys(IN_OUTCOME) as (keyof BatchStatus)[]).filter((key) => IN_OUTCOME[key])

/** Two readings of a batch tell the same outcome (IN_OUTCOME), and agree on the fields `also` names too. */
export const sameOutcome = (a: BatchStatus, b: BatchStatus, also: readonly (keyof BatchStatus)[] = []) =>
  OUTCOME_KEYS.every((key) => a[key] === b[key]) && also.every((key) => a[key] === b[key])

export const useBulkEditStore = defineStore('bulkEdit', () => {
  const session = useSessionStore()
  const rows = shallowRef<GridRow[]>([])
  const byId = new Map<string, GridRow>()
  /** Rows carrying a mark, so clearing marks does not walk every row. */
  let marked = new Set<GridRow>()
  /** Bumped whenever rows or their marks change in place: the grid redraws. */
  const revision = ref(0)
  /**
   * Bumped when the pending changes were replaced other than by an edit in the grid (discard, undo,
   * redo, Change many, an import, Undo batch, an apply): a cell editor open then may hold a value that
   * is gone, and is closed without saving. Not when the rows are read again (a sync in the background):
   * what the seller is typing then stays.
   */
  const cellsReplaced = ref(0)
  const loaded = ref(false)
  const loading = ref(false)
  /** Rows are older than the snapshot (a sync or an apply changed listings). */
  const stale = ref(false)
  const loadError = ref<string | null>(null)
  const summary = ref<ChangeSetSummary>(EMPTY_SUMMARY)
  const rules = ref<WarningRules>(DEFAULT_WARNING_RULES)
  const running = ref<BatchStatus | null>(null)
  /** A batch left with changes not yet sent (the app was closed mid-apply). */
  const pendingBatch = ref<BatchStatus | null>(null)
  /** The batch whose results are shown (the last one applied in this window). */
  const shownBatch = ref<BatchStatus | null>(null)
  const history = ref<BatchStatus[]>([])
  /**
   * The last batch while some of its changes did not apply, as the core's status last said it (see
   * `BulkStatus.unapplied`): the toolbar's note. Asked again whenever a batch ends.
   */
  const unapplied = ref<BatchStatus | null>(null)
  /**
   * While the seller asked to see them: the reasons of those changes, read for the batch `unapplied`
   * names at its counts. A note that changes (a retry, a newer batch, put away) reads them again or
   * ends this: the grid never narrows to a list the queue no longer holds.
   */
  const unappliedShown = shallowRef<UnappliedShown | null>(null)
  const busy = ref(false)
  /** The newest progress pushed per batch: a small batch can finish before the call that started it answers. */
  const pushed = new Map<string, BatchStatus>()
  /** Bumped by reset: answers to calls made for a previous account are dropped. */
  let generation = 0
  /** The listings' version the rows were read at (see `bulk.gridVersion`). */
  let version: string | null = null
  /** A first read filling the grid: how far it is; null once every row is in (or before any read). */
  const progress = ref<GridProgress | null>(null)
  /** Every row of the last read is in the grid (sorting, filtering, Change many and export need them all). */
  const complete = ref(false)
  let completed: { promise: Promise<void>; resolve: () => void } | null = null
  /** Resolves once every row is in the grid (at once when it is). */
  function whenComplete(): Promise<void> {
    if (complete.value) return Promise.resolve()
    if (!completed) {
      let resolve = () => {}
      const promise = new Promise<void>((done) => (resolve = done))
      completed = { promise, resolve }
    }
    return completed.promise
  }
  function setComplete(value: boolean) {
    complete.value = value
    if (value && completed) {
      completed.resolve()
      completed = null
    }
  }

  /** Marks of listings whose rows are not read yet: put on their rows as they arrive. */
  let waitingMarks = new Map<string, Map<BulkField, StagedCell>>()

  /** The descriptors of the fields the grid edits, loaded with the grid's first read (see cellRules). */
  let gridFields: readonly ListingField[] = []
  const slotsOf = (field: BulkField): CellSlots | undefined => GRID_CELLS[field as ListingFieldKey]
  const fieldByKey = (key: BulkField) => gridFields.find((field) => field.key === key)

  function markCell(row: GridRow, [, field, after, invalid, warnsFrom]: StagedCell) {
    const slots = slotsOf(field)
    const descriptor = fieldByKey(field)
    if (!slots || !descriptor) return
    const cells = row as unknown as Record<string, unknown>
    cells[slots.shown] = cellValue(descriptor, after)
    cells[slots.mark] = { invalid, after, warnsFrom } satisfies CellMark
    marked.add(row)
  }

  function unmarkCell(row: GridRow, field: BulkField) {
    const slots = slotsOf(field)
    if (!slots) return
    const cells = row as unknown as Record<string, unknown>
    cells[slots.shown] = cells[slots.now]
    cells[slots.mark] = null
    if (Object.values(GRID_CELLS).every((other) => !cells[other.mark])) marked.delete(row)
  }

  /** The marks a change-set answer carries: all of them (replacing every mark), or only the cells the call touched. */
  function applyMarks({ whole, cells, cleared }: Omit<ChangeSetState, 'summary'>) {
    if (whole) {
      for (const row of marked) for (const field of Object.keys(GRID_CELLS)) unmarkCell(row, field)
      waitingMarks = new Map()
    }
    for (const [id, field] of cleared) {
      const row = byId.get(id)
      if (row) unmarkCell(row, field)
      else waitingMarks.get(id)?.delete(field)
    }
    for (const cell of cells) {
      const row = byId.get(cell[0])
      if (row) markCell(row, cell)
      else if (!complete.value) waitingMarks.set(cell[0], (waitingMarks.get(cell[0]) ?? new Map()).set(cell[1], cell))
    }
    revision.value++
  }

  /** Rows just read: their pending changes, staged before they arrived, are marked on them. */
  function markArrived(arrived: readonly GridRow[]) {
    if (waitingMarks.size === 0) return
    for (const row of arrived) {
      const cells = waitingMarks.get(row.id)
      if (!cells) continue
      for (const cell of cells.values()) markCell(row, cell)
      waitingMarks.delete(row.id)
    }
  }

  /**
   * Calls whose answers mark cells run one after another: an answer carrying only the touched cells
   * must land on the marks of the answer before it.
   */
  let marksChain: Promise<unknown> = Promise.resolve()
  /** Bumped by each of those calls as it is made (see readRows). */
  let marksSteps = 0
  function inOrder<T>(work: () => Promise<T>): Promise<T> {
    marksSteps++
    const run = marksChain.then(work, work)
    marksChain = run.catch(() => undefined)
    return run
  }

  /**
   * A call that changes the change set or reads or acts on the batches, naming the account open as it
   * is made (it may be sent later, after the calls before it): the core refuses it for any other
   * account, so it never changes the next account's change set, nor is its answer taken for the next
   * account's. Null when refused because the seller switched accounts (or signed out) meanwhile:
   * nothing changed, and that is expected, so there is nothing to tell.
   */
  function forAccount<T>(send: (account: string) => Promise<T>): () => Promise<T | null> {
    const account = session.identity
    return async () => {
      if (account === null) return null
      try {
        return await send(account)
      } catch (error) {
        if (await session.leftAccount(error, account)) return null
        throw error
      }
    }
  }

  /**
   * Notices about a batch left with changes not yet sent (what the app found as it started), by batch:
   * how to close each. A notice goes once its batch no longer waits to be sent (whileWaiting).
   */
  const waitingNotices = new Map<string, () => void>()

  /**
   * Closes a notice about a batch once the batch no longer waits to be sent: its sending started
   * (resumed), the seller gave it up, or it holds no change to send any more. A later notice about the
   * same batch takes the place of this one. Returns the way to stop, for a notice the seller closed.
   */
  function whileWaiting(batchId: string, close: () => void): () => void {
    waitingNotices.get(batchId)?.()
    waitingNotices.set(batchId, close)
    return () => {
      if (waitingNotices.get(batchId) === close) waitingNotices.delete(batchId)
    }
  }
  function waitsNoMore(batchId: string) {
    const close = waitingNotices.get(batchId)
    if (!close) return
    waitingNotices.delete(batchId)
    close()
  }
  /**
   * What a status read says of the batches notices are about. One it does not show waiting is asked
   * itself whether it still holds changes to send: a status names only the newest batch waiting (an
   * older one waits unnamed while a newer one is queued or sent), and only batches of its own account.
   */
  function checkWaiting(account: string, status: BulkStatus) {
    for (const batchId of [...waitingNotices.keys()]) {
      if (status.running?.id === batchId) waitsNoMore(batchId)
      else if (status.pendingBatch?.id !== batchId)
        void call('bulk.batchRows', { account, batchId, status: 'pending', page: 1, take: 1 })
          .then((unsent) => unsent.total === 0 && waitsNoMore(batchId))
          // A batch of another account, or a call that failed: the notice stays, as it would have.
          .catch(() => undefined)
    }
  }

  /** The change set's and the batches' status for the account open; null once the seller left it. */
  const readStatus = () =>
    forAccount(async (account) => {
      const status = await call('bulk.status', { account })
      checkWaiting(account, status)
      return status
    })()

  /**
   * A change-set call (stage, operation, undo, redo, discard, rules, undo batch): its answer's marks and
   * counts are shown, unless the account changed meanwhile. Whether they were. `sent`: the cells a
   * stage call sends, in the order its answer names them by (see SentMarks).
   */
  function changeSetStep(request: (account: string) => Promise<ChangeSetState>, replaces = true, sent: readonly SentCell[] = []): Promise<boolean> {
    const from = generation
    const send = forAccount(request)
    return withBusy(() =>
      inOrder(async () => {
        const state = await send()
        if (state === null || from !== generation) return false
        summary.value = state.summary
        if (replaces) cellsReplaced.value++
        // New pending changes start the next batch: an ended batch's results give the grid back its room
        // (they stay in History).
        if (shownBatch.value && !shownBatch.value.running && state.summary.changes > 0) shownBatch.value = null
        if (!state.reread) {
          applyMarks(state.sent ? marksOfSent(sent, state.sent) : state)
          return true
        }
        // Marks of more cells than an answer carries: read in pages.
        const cells = await readMarks(from)
        if (cells !== null) applyMarks({ whole: true, cells, cleared: [] })
        return cells !== null
      })
    )
  }

  /**
   * Every mark, a page at a time, as they were when the read began (a change made meanwhile comes with
   * that change's answer); null once the account changed (`from`: the generation it was asked at).
   * Begun again when newer reads ended this one (reads of the rows, an import's and a step's overlap).
   */
  async function readMarks(from: number): Promise<StagedCell[] | null> {
    for (let attempt = 1; ; attempt++) {
      const first = await call('bulk.stagedCells', { offset: 0 })
      const cells = first.cells
      try {
        while (cells.length < first.total) {
          if (from !== generation) return null
          const page = await call('bulk.stagedCells', { offset: cells.length, read: first.read })
          if (page.cells.length === 0) break
          for (const cell of page.cells) cells.push(cell)
        }
        return from === generation ? cells : null
      } catch (error) {
        if (!(error instanceof ContractError && error.kind === 'not-found') || attempt >= 3) throw error
      }
    }
  }

  /** Marks read afresh (after a read of the rows, an import, a status): the answer did not carry them. */
  function refreshMarks(next?: ChangeSetSummary): Promise<void> {
    const from = generation
    return inOrder(async () => {
      const cells = await readMarks(from)
      if (cells === null) return
      applyMarks({ whole: true, cells, cleared: [] })
      summary.value = next ?? summary.value
    })
  }

  function applyStatus(status: BulkStatus) {
    summary.value = status.changeSet
    rules.value = status.rules
    running.value = status.running
    pendingBatch.value = status.pendingBatch
    noteUnapplied(status.unapplied)
  }

  /** The same batch at the same counts: what did not apply in it is as it was. */
  /**
   * The note as the core says it now; listings shown for a note that changed are read again, or no
   * longer narrowed to. While a retry of the batch shown runs, the grid stays on its listings: the run's
   * end says which of them are left.
   */
  function noteUnapplied(next: BatchStatus | null) {
    unapplied.value = next
    const shown = unappliedShown.value
    if (!shown || running.value?.id === shown.batch.id) return
    if (!next || next.id !== shown.batch.id) unappliedShown.value = null
    else if (!sameOutcome(next, shown.batch)) void showUnapplied()
  }

  /** A batch started or runs: no note until it ends; the grid leaves the listings of another batch's changes. */
  function batchRuns(batch: BatchStatus) {
    unapplied.value = null
    if (unappliedShown.value && unappliedShown.value.batch.id !== batch.id) unappliedShown.value = null
  }

  /** Asks the core for the note again (a batch ended: its outcome, or a newer batch, changes it). */
  async function readUnapplied(): Promise<void> {
    const from = generation
    const asked = progressPushes
    const status = await readStatus()
    // A batch that started meanwhile ends the note; its end asks again.
    if (status !== null && from === generation && asked === progressPushes) noteUnapplied(status.unapplied)
  }

  /**
   * Narrows the grid to the listings of the noted batch's changes that did not apply, each with its
   * reason, read a page at a time from the apply queue. Read again if the batch's outcome moved while
   * they were read (a retry ended meanwhile).
   */
  async function showUnapplied(): Promise<void> {
    const from = generation
    const { LISTING_FIELD_SET } = await cellRules()
    for (let attempt = 1; attempt <= 3; attempt++) {
      const batch = unapplied.value
      if (!batch || from !== generation) return
      const changes: UnappliedChange[] = []
      for (;;) {
        const page = await forAccount((account) => call('bulk.unappliedChanges', { account, batchId: batch.id, offset: changes.length }))()
        if (page === null) return
        for (const change of page.changes) changes.push(change)
        if (page.changes.length === 0 || changes.length >= page.total) break
      }
      if (from !== generation) return
      const now = unapplied.value
      if (!now || !sameOutcome(now, batch)) continue
      if (changes.length !== unappliedCount(batch)) {
        // The queue moved under the read (a retry began and ended): the note afresh, then its changes.
        await readUnapplied()
        continue
      }
      unappliedShown.value = { batch, reasons: unappliedReasons(changes, LISTING_FIELD_SET) }
      return
    }
  }

  /** The whole grid again. */
  function hideUnapplied() {
    unappliedShown.value = null
  }

  /** Puts the note away (the batch's results stay in History). */
  async function dismissUnapplied(): Promise<void> {
    const batch = unapplied.value
    if (!batch) return
    const from = generation
    const answer = await forAccount((account) => call('bulk.dismissUnapplied', { account, batchId: batch.id }))()
    if (answer === null || from !== generation) return
    noteUnapplied(answer.unapplied)
  }

  /**
   * How typed and pasted cells are read (the field descriptors, with their zod rules): fetched with the
   * grid's first read, not with the app (this store is set up at start, the grid may never be opened).
   */
  let rulesModule: Promise<typeof import('@shared/listingFields')> | null = null
  const cellRules = () => (rulesModule ??= import('@shared/listingFields'))

  /**
   * Bumped by markStale: a read of the rows that started before the last bump may hold values older
   * than the snapshot's (an apply's answers written while it was under way), so it leaves the rows stale.
   */
  const staleMarks = ref(0)

  /**
   * Reads every listing from the snapshot, page by page, then the pending changes onto them. A first
   * read (or one starting over) fills the grid as pages arrive: rows not read yet are empty, marks of
   * changes staged on them wait for them. A later read keeps the rows shown until it has every page.
   * Pages read at another version than the first belong to other listings: the read starts over.
   */
  async function readRows(): Promise<void> {
    const from = generation
    const readAt = staleMarks.value
    loading.value = true
    try {
      const firstPage = () => call('bulk.gridRows', { offset: 0, limit: BULK_GRID_FIRST_PAGE })
      // The first page, the status, the marks (for a grid filling up) and the field descriptors are
      // asked for together; a failure is met where each is awaited.
      let asked: Promise<GridRowsPage> | null = firstPage()
      const status = readStatus()
      const stepsAsked = marksSteps
      const progressAsked = progressPushes
      // The status asked with the first page, unless a change-set call or a batch's progress moved it
      // since (the read of every page takes a while): then afresh, not counts and a batch gone by.
      const statusNow = () => (marksSteps === stepsAsked && progressPushes === progressAsked ? status : readStatus())
      let cellsAsked: Promise<StagedCell[] | null> | null = complete.value ? null : readMarks(from)
      for (const promise of [asked, status, cellsAsked]) promise?.catch(() => undefined)
      gridFields = (await cellRules()).LISTING_FIELD_SET.all
      read: for (;;) {
        const first = await (asked ?? firstPage())
        asked = null
        if (from !== generation) return // the account changed meanwhile
        const progressive = !complete.value
        const next: GridRow[] = progressive ? Array.from({ length: first.total }, emptyRow) : []
        const nextById = progressive ? byId : new Map<string, GridRow>()
        const take = (page: GridRowsPage, offset: number): GridRow[] =>
          page.rows.map((listed, i) => {
            const row = progressive ? fillRow((next[offset + i] ??= emptyRow()), listed, gridFields) : fillRow(emptyRow(), listed, gridFields)
            if (!progressive) next.push(row)
            nextById.set(row.id, row)
            return row
          })
        if (progressive) {
          byId.clear()
          marked = new Set()
          waitingMarks = new Map()
          take(first, 0)
          rows.value = next
          progress.value = { read: first.rows.length, total: first.total }
          const status = await statusNow()
          if (status === null || from !== generation) return
          applyStatus(status)
          // The marks asked for with the first page, unless a call changed marks since: then afresh.
          const cells = cellsAsked && (await cellsAsked)
          cellsAsked = null
          if (from !== generation) return
          if (cells && marksSteps === stepsAsked) applyMarks({ whole: true, cells, cleared: [] })
          else await refreshMarks()
          loaded.value = true
          loadError.value = null
        } else {
          take(first, 0)
        }
        let offset = first.rows.length
        let drawnAt = performance.now()
        const pageAt = (at: number) => (at < first.total ? call('bulk.gridRows', { offset: at, limit: BULK_GRID_PAGE }) : null)
        // The next page is asked for before this one is taken in: the core reads it meanwhile (one
        // call at a time, so a call of the seller's never waits behind more than one page).
        for (let pending = pageAt(offset); pending;) {
          const page = await pending
          if (from !== generation) return
          if (page.version !== first.version) continue read
          if (page.rows.length === 0) break
          pending = pageAt(offset + page.rows.length)
          pending?.catch(() => undefined)
          const arrived = take(page, offset)
          offset += page.rows.length
          if (progressive) {
            markArrived(arrived)
            progress.value = { read: offset, total: first.total }
            // The grid redraws what is on screen at most a few times a second while it fills (a redraw
            // goes over every row's index), and once more when every row is in.
            if (performance.now() - drawnAt >= REDRAW_WHILE_FILLING_MS) {
              drawnAt = performance.now()
              revision.value++
            }
          }
        }
        version = first.version
        if (progressive) {
          if (next.length > offset) rows.value = next.slice(0, offset)
          waitingMarks = new Map()
          progress.value = null
          setComplete(true)
          revision.value++
        } else {
          byId.clear()
          for (const [id, row] of nextById) byId.set(id, row)
          marked = new Set()
          rows.value = next
          const status = await statusNow()
          if (status === null || from !== generation) return
          applyStatus(status)
          await refreshMarks()
        }
        loaded.value = true
        stale.value = staleMarks.value !== readAt
        loadError.value = null
        return
      }
    } catch (error) {
      if (from === generation) loadError.value = messageOf(error)
    } finally {
      loading.value = false
    }
  }

  /**
   * Reads the rows again if the listings changed since they were read (a sync that brought nothing new
   * costs one small query, not 100,000 rows); reads them the first time otherwise.
   */
  async function readRowsIfChanged(): Promise<void> {
    if (!loaded.value) return readRows()
    const from = generation
    const readAt = staleMarks.value
    try {
      const { version: now } = await call('bulk.gridVersion', {})
      if (from !== generation) return
      if (now !== version) await readRows()
      else if (staleMarks.value === readAt) stale.value = false
    } catch (error) {
      if (from === generation) loadError.value = messageOf(error)
    }
  }

  /**
   * Reads go one at a time, and a read asked for while one is under way runs after it (the one under
   * way may have read the listings before they changed); asks that pile up meanwhile share that read.
   */
  let reads: Promise<void> = Promise.resolve()
  let queuedRead: { promise: Promise<void>; always: boolean } | null = null
  function queueRead(always: boolean): Promise<void> {
    if (queuedRead) {
      queuedRead.always ||= always
      return queuedRead.promise
    }
    const from = generation
    const queued: { promise: Promise<void>; always: boolean } = {
      always,
      promise: reads.then((): Promise<void> | undefined => {
        queuedRead = null
        if (from !== generation) return
        return queued.always ? readRows() : readRowsIfChanged()
      })
    }
    queuedRead = queued
    reads = queued.promise.catch(() => undefined)
    return queued.promise
  }

  /** Reads the rows whether or not the listings changed (the first read, Try again). */
  const load = () => queueRead(true)

  /** Called when the snapshot's sell requests may have changed (sync, apply): checked when shown. */
  function markStale() {
    stale.value = true
    staleMarks.value++
  }

  /** The rows again if the listings changed since they were read; the first read otherwise. */
  const loadIfChanged = () => queueRead(false)

  async function withBusy<T>(work: () => Promise<T>): Promise<T> {
    busy.value = true
    try {
      return await work()
    } finally {
      busy.value = false
    }
  }

  /**
   * Stages what the seller typed, pasted or filled (one undo step). Text that is no number is not
   * staged and comes back for the seller to see; numbers that break a rule are staged and marked.
   */
  async function editCells(edits: CellEdit[]): Promise<UnreadableCell[]> {
    const { listingFields } = await cellRules()
    const unreadable: UnreadableCell[] = []
    const changes = new Map<string, { sellRequestId: string } & Partial<Record<ListingFieldKey, number | null>>>()
    const put = (edit: CellEdit, value: number | null) => {
      const change = changes.get(edit.id) ?? { sellRequestId: edit.id }
      change[edit.field] = value
      changes.set(edit.id, change)
    }
    for (const edit of edits) {
      const row = byId.get(edit.id)
      if (!row) continue
      const read = listingFields[edit.field].read(edit.text)
      if (read === null) {
        // A cell emptied (Delete, Backspace) takes back its pending change (null: the core stages the
        // listing's value as it holds it, which may be newer than the grid's). One without a change stays.
        const slots = slotsOf(edit.field)
        if (slots && (row as unknown as Record<string, unknown>)[slots.mark]) put(edit, null)
        continue
      }
      if ('problem' in read) {
        unreadable.push({ row, field: edit.field, message: problemMessage(read.problem) })
        continue
      }
      put(edit, read.value)
    }
    // The cells sent, in the order the answer's marks name them: each change's fields in the field list's order.
    const sent: SentCell[] = []
    for (const change of changes.values()) {
      for (const key of LISTING_FIELD_KEYS) {
        const value = change[key]
        if (value !== undefined) sent.push([change.sellRequestId, key, value])
      }
    }
    // The seller's own edit: an editor opened meanwhile on another cell stays open.
    if (changes.size > 0 && !(await changeSetStep((account) => call('bulk.stage', { account, changes: [...changes.values()] }), false, sent))) return []
    return unreadable
  }

  const stepped = (name: 'bulk.undo' | 'bulk.redo' | 'bulk.discard') => async () => {
    await changeSetStep((account) => call(name, { account }))
  }

  /**
   * Stages an operation on these listings; then how many of the values it staged cannot be applied
   * (a quantity below 0, a price of 0), and the first one's reason, so the seller hears of it at once;
   * and how many cells an operation that works from the value held left as they were, holding a value
   * that cannot be applied already (bulkOperation.ts), and the first one's reason.
   */
  async function operation(ids: string[], op: BulkOperation): Promise<OperationOutcome> {
    const outcome: OperationOutcome = { problems: 0, firstProblem: null, held: 0, firstHeld: null }
    const slots = slotsOf(bulkOperationField(op))
    const problemOf = (id: string) => (slots ? ((byId.get(id)?.[slots.mark] as CellMark | null | undefined)?.invalid ?? null) : null)
    const heldBefore = new Set(worksFromValueHeld(op) ? ids.filter((id) => problemOf(id) !== null) : [])
    if (!(await changeSetStep((account) => call('bulk.operation', { account, selection: { ids }, operation: op })))) return outcome
    for (const id of ids) {
      const problem = problemOf(id)
      if (problem === null) continue
      if (heldBefore.has(id)) {
        outcome.held++
        outcome.firstHeld ??= problem
      } else {
        outcome.problems++
        outcome.firstProblem ??= problem
      }
    }
    return outcome
  }

  /** The warning rules as the change set holds them (for a dialog outside the grid, which may not have read them). */
  async function readRules(): Promise<WarningRules> {
    const status = await readStatus()
    if (status !== null) rules.value = status.rules
    return rules.value
  }

  async function setRules(next: WarningRules): Promise<void> {
    if (!(await changeSetStep((account) => call('bulk.setRules', { account, ...next }), false))) return
    rules.value = next
    // The cells word their warnings with the rules as they are drawn (markVerdict): drawn again under these.
    revision.value++
  }

  /** The import's report; null when the seller switched accounts meanwhile (nothing imported, nothing to tell). */
  async function importFile(fileName: string, bytes: Uint8Array<ArrayBuffer>): Promise<ImportReport | null> {
    const send = forAccount((account) => call('bulk.importFile', { account, fileName, bytes }))
    return withBusy(async () => {
      const report = await send()
      if (report === null) return null
      cellsReplaced.value++
      await refreshMarks(report.changeSet)
      return report
    })
  }

  /** Follows a batch that started (apply, retry, resume): the pending changes it took leave the grid. */
  async function started(answer: BatchStatus) {
    waitsNoMore(answer.id)
    const status = pushed.get(answer.id) ?? answer
    running.value = status.running ? status : null
    shownBatch.value = status
    pendingBatch.value = null
    cellsReplaced.value++
    // (One that ended already was noted at its end: its last progress asked for the note.)
    if (status.running) batchRuns(status)
    const now = await readStatus()
    if (now !== null) await refreshMarks(now.changeSet)
  }

  async function apply(confirmed: boolean): Promise<void> {
    const send = forAccount((account) => call('bulk.apply', { account, confirmed }))
    await withBusy(async () => {
      const answer = await send()
      if (answer !== null) await started(answer)
    })
  }

  /**
   * Sends a batch of the account open again (retry, resume): named with that account, so a batch shown
   * as the seller switches is never sent under the next one. Nothing to follow when refused for that.
   */
  async function sendAgain(name: 'bulk.retryFailed' | 'bulk.resume', batchId: string): Promise<void> {
    const from = generation
    const send = forAccount((account) => call(name, { account, batchId }))
    pushed.delete(batchId)
    await withBusy(async () => {
      const answer = await send()
      if (answer !== null && from === generation) await started(answer)
    })
  }

  const retryFailed = (batchId: string) => sendAgain('bulk.retryFailed', batchId)
  const resume = (batchId: string) => sendAgain('bulk.resume', batchId)

  async function cancel(batchId: string): Promise<void> {
    const from = generation
    const status = await forAccount((account) => call('bulk.cancel', { account, batchId }))()
    if (status === null) return
    waitsNoMore(batchId)
    if (from !== generation) return
    if (shownBatch.value?.id === batchId) shownBatch.value = status
    if (pendingBatch.value?.id === batchId) pendingBatch.value = null
  }

  async function loadHistory(): Promise<void> {
    const from = generation
    const batches = await forAccount((account) => call('bulk.history', { account, limit: 20 }))()
    if (batches !== null && from === generation) history.value = batches
  }

  /** A page of a batch's results; null once the seller left the account the batch is of. */
  function batchRows(query: { batchId: string; status?: BatchRowStatus; page: number; take: number }): Promise<Page<BatchRow> | null> {
    return forAccount((account) => call('bulk.batchRows', { account, ...query }))()
  }

  /** Whether the reverse of the batch is staged (not when the seller switched accounts meanwhile). */
  function undoBatch(batchId: string): Promise<boolean> {
    return changeSetStep((account) => call('bulk.undoBatch', { account, batchId }))
  }

  /** Bumped by each progress pushed: a status asked before it may tell of a batch gone by. */
  let progressPushes = 0
  function onProgress(status: BatchStatus) {
    progressPushes++
    pushed.set(status.id, status)
    waitsNoMore(status.id)
    if (shownBatch.value === null || shownBatch.value.id === status.id) shownBatch.value = status
    running.value = status.running ? status : null
    if (!status.running) {
      // Applied changes are in the snapshot now: the grid's current values are old.
      markStale()
      void loadHistory()
      void readUnapplied().catch(() => undefined)
    } else batchRuns(status)
  }

  /** Listens for apply progress while the view exists; returns the way to stop. */
  function follow(): () => void {
    return onEvent('bulk.progress', onProgress)
  }

  /** Another account (or none): nothing of the previous one stays. */
  function reset() {
    generation++
    cellsReplaced.value++
    version = null
    rows.value = []
    byId.clear()
    marked = new Set()
    waitingMarks = new Map()
    progress.value = null
    setComplete(false)
    pushed.clear()
    loaded.value = false
    stale.value = false
    loadError.value = null
    summary.value = EMPTY_SUMMARY
    running.value = null
    pendingBatch.value = null
    shownBatch.value = null
    history.value = []
    unapplied.value = null
    unappliedShown.value = null
  }

  const rowCount = computed(() => rows.value.length)
  /** The grid's row of a listing now (a read of the rows replaces them), or undefined. */
  const rowById = (id: string): GridRow | undefined => byId.get(id)

  /**
   * A listing as the grid read it last: when it was last updated, and a field's value then (a pending
   * change's `before` is the value when it was staged); undefined for a listing the grid has not read.
   */
  function listingNow(id: string): { updatedAt: string; value: (field: BulkField) => number | undefined } | undefined {
    const row = byId.get(id)
    if (!row) return undefined
    return {
      updatedAt: row.updatedAt,
      value(field) {
        const slots = slotsOf(field)
        const descriptor = fieldByKey(field)
        if (!slots || !descriptor) return undefined
        const now = row[slots.now]
        return descriptor.unit === 'cents' ? (centsFromDecimalString(String(now)) ?? Number(now) * 100) : Number(now)
      }
    }
  }

  return {
    rows,
    rowCount,
    rowById,
    listingNow,
    revision,
    cellsReplaced,
    loaded,
    loading,
    progress,
    complete,
    whenComplete,
    stale,
    staleMarks,
    loadError,
    summary,
    rules,
    readRules,
    running,
    pendingBatch,
    shownBatch,
    history,
    unapplied,
    unappliedShown,
    showUnapplied,
    hideUnapplied,
    dismissUnapplied,
    busy,
    load,
    loadIfChanged,
    reset,
    markStale,
    editCells,
    undo: stepped('bulk.undo'),
    redo: stepped('bulk.redo'),
    discard: stepped('bulk.discard'),
    operation,
    setRules,
    importFile,
    apply,
    retryFailed,
    resume,
    cancel,
    loadHistory,
    batchRows,
    undoBatch,
    follow,
    whileWaiting
  }
})
