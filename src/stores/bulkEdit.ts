/**
 * Bulk edit as the grid works with it: every listing of the snapshot as a grid row, the pending changes
 * marked on those rows, and the calls that change them (edit cells, operations on a selection, undo /
 * redo, import), preview, apply with progress, results, history. The change set itself lives in main
 * (`bulk.*` calls); this store mirrors it onto the rows and keeps nothing a reload could lose.
 */
import type { BatchStatus, BulkField, BulkOperation, BulkStatus, ChangeSetState, ChangeSetSummary, GridListingRow, ImportReport, StagedCell, WarningRules } from '@shared/contract'
import { gridRow, type GridTextColumn } from '@shared/gridRow'
import type { ListingFieldKey } from '@shared/listingFieldKeys'
import { decimalStringFromCents } from '@shared/money'
import { defineStore } from 'pinia'
import { computed, markRaw, ref, shallowRef } from 'vue'
import { call, messageOf, onEvent } from '../bridge/sellerDesk'

/** What the grid shows of a pending change on a cell. */
export interface CellMark {
  invalid: string | null
  warning: string | null
}

/** One grid row. Plain (not reactive): the grid reads it directly and is told when rows change. */
export interface GridRow {
  id: string
  name: string
  sku: string
  brand: string
  grade: string
  color: string
  storage: string
  carrier: string
  status: string
  updatedAt: string
  /** The listing's price now, as a decimal ("129.99"). */
  priceNow: string
  quantityNow: number
  /** The price the grid shows and edits: the pending one, else the current one. */
  price: string
  quantity: number
  priceMark: CellMark | null
  quantityMark: CellMark | null
}

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

const EMPTY_SUMMARY: ChangeSetSummary = { changes: 0, listings: 0, invalid: 0, warnings: 0, canUndo: false, canRedo: false }

/** Cents as the grid shows and edits them; a fraction of a cent (an invalid value) is shown as it is. */
export const priceText = (cents: number) => (Number.isInteger(cents) ? decimalStringFromCents(cents) : String(cents / 100))

function rowOf(row: GridListingRow): GridRow {
  const text = (column: GridTextColumn) => gridRow.text(row, column)
  const price = priceText(gridRow.value(row, 'priceCents'))
  const quantity = gridRow.value(row, 'quantity')
  return {
    id: gridRow.id(row), name: text('name'), sku: text('sku'), brand: text('brand'), grade: text('grade'), color: text('color'), storage: text('storage'),
    carrier: text('carrier'), status: text('status'), updatedAt: gridRow.updatedAt(row), priceNow: price, quantityNow: quantity, price, quantity, priceMark: null, quantityMark: null
  }
}

export const useBulkEditStore = defineStore('bulkEdit', () => {
  const rows = shallowRef<GridRow[]>([])
  const byId = new Map<string, GridRow>()
  /** Rows carrying a mark, so clearing marks does not walk every row. */
  let marked = new Set<GridRow>()
  /** Bumped whenever rows or their marks change in place: the grid redraws. */
  const revision = ref(0)
  const loaded = ref(false)
  const loading = ref(false)
  /** Rows are older than the snapshot (a sync or an apply changed listings). */
  const stale = ref(false)
  const loadError = ref<string | null>(null)
  const summary = ref<ChangeSetSummary>(EMPTY_SUMMARY)
  const rules = ref<WarningRules>({ priceChangePercent: 50, priceFloorCents: null })
  const running = ref<BatchStatus | null>(null)
  /** A batch left with changes not yet sent (the app was closed mid-apply). */
  const pendingBatch = ref<BatchStatus | null>(null)
  /** The batch whose results are shown (the last one applied in this window). */
  const shownBatch = ref<BatchStatus | null>(null)
  const history = ref<BatchStatus[]>([])
  const busy = ref(false)
  /** The newest progress pushed per batch: a small batch can finish before the call that started it answers. */
  const pushed = new Map<string, BatchStatus>()
  /** Bumped by reset: answers to calls made for a previous account are dropped. */
  let generation = 0
  /** The listings' version the rows were read at (see `bulk.gridVersion`). */
  let version: string | null = null

  function markCell(row: GridRow, [, field, after, invalid, warning]: StagedCell) {
    if (field === 'priceCents') {
      row.price = priceText(after)
      row.priceMark = { invalid, warning }
    } else {
      row.quantity = after
      row.quantityMark = { invalid, warning }
    }
    marked.add(row)
  }

  function unmarkCell(row: GridRow, field: BulkField) {
    if (field === 'priceCents') {
      row.price = row.priceNow
      row.priceMark = null
    } else {
      row.quantity = row.quantityNow
      row.quantityMark = null
    }
    if (!row.priceMark && !row.quantityMark) marked.delete(row)
  }

  /** The marks a change-set answer carries: all of them (replacing every mark), or only the cells the call touched. */
  function applyMarks({ whole, cells, cleared }: Omit<ChangeSetState, 'summary'>) {
    if (whole) {
      for (const row of marked) {
        unmarkCell(row, 'priceCents')
        unmarkCell(row, 'quantity')
      }
    }
    for (const [id, field] of cleared) {
      const row = byId.get(id)
      if (row) unmarkCell(row, field)
    }
    for (const cell of cells) {
      const row = byId.get(cell[0])
      if (row) markCell(row, cell)
    }
    revision.value++
  }

  /**
   * Calls whose answers mark cells run one after another: an answer carrying only the touched cells
   * must land on the marks of the answer before it.
   */
  let marksChain: Promise<unknown> = Promise.resolve()
  function inOrder<T>(work: () => Promise<T>): Promise<T> {
    const run = marksChain.then(work, work)
    marksChain = run.catch(() => undefined)
    return run
  }

  /**
   * A change-set call (stage, operation, undo, redo, discard, rules, undo batch): its answer's marks and
   * counts are shown, unless the account changed meanwhile.
   */
  function changeSetStep(request: () => Promise<ChangeSetState>): Promise<void> {
    const from = generation
    return withBusy(() =>
      inOrder(async () => {
        const state = await request()
        if (from !== generation) return
        applyMarks(state)
        summary.value = state.summary
      })
    )
  }

  /** Marks read afresh (after a read of the rows, an import, a status): the answer did not carry them. */
  function refreshMarks(next?: ChangeSetSummary): Promise<void> {
    return inOrder(async () => {
      const { cells } = await call('bulk.stagedCells', {})
      applyMarks({ whole: true, cells, cleared: [] })
      summary.value = next ?? summary.value
    })
  }

  function applyStatus(status: BulkStatus) {
    summary.value = status.changeSet
    rules.value = status.rules
    running.value = status.running
    pendingBatch.value = status.pendingBatch
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

  /** Reads every listing from the snapshot, then the pending changes onto them. */
  async function readRows(): Promise<void> {
    void cellRules()
    const from = generation
    const readAt = staleMarks.value
    loading.value = true
    try {
      const [{ rows: listed, version: read }, status] = await Promise.all([call('bulk.gridRows', {}), call('bulk.status', {})])
      if (from !== generation) return // the account changed meanwhile
      version = read
      const next = listed.map((row) => markRaw(rowOf(row)))
      byId.clear()
      for (const row of next) byId.set(row.id, row)
      marked = new Set()
      rows.value = next
      applyStatus(status)
      await refreshMarks()
      loaded.value = true
      stale.value = staleMarks.value !== readAt
      loadError.value = null
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
    const changes = new Map<string, { sellRequestId: string } & Partial<Record<ListingFieldKey, number>>>()
    for (const edit of edits) {
      const row = byId.get(edit.id)
      if (!row) continue
      const read = listingFields[edit.field].read(edit.text)
      if (read === null) continue
      if ('problem' in read) {
        unreadable.push({ row, field: edit.field, message: read.problem })
        continue
      }
      const change = changes.get(edit.id) ?? { sellRequestId: edit.id }
      change[edit.field] = read.value
      changes.set(edit.id, change)
    }
    if (changes.size > 0) await changeSetStep(() => call('bulk.stage', { changes: [...changes.values()] }))
    return unreadable
  }

  const stepped = (name: 'bulk.undo' | 'bulk.redo' | 'bulk.discard') => () => changeSetStep(() => call(name, {}))

  async function operation(ids: string[], op: BulkOperation): Promise<void> {
    await changeSetStep(() => call('bulk.operation', { selection: { ids }, operation: op }))
  }

  async function setRules(next: WarningRules): Promise<void> {
    await changeSetStep(() => call('bulk.setRules', next))
    rules.value = next
  }

  async function importFile(fileName: string, base64: string): Promise<ImportReport> {
    return withBusy(async () => {
      const report = await call('bulk.importFile', { fileName, base64 })
      await refreshMarks(report.changeSet)
      return report
    })
  }

  /** Follows a batch that started (apply, retry, resume): the pending changes it took leave the grid. */
  async function started(answer: BatchStatus) {
    const status = pushed.get(answer.id) ?? answer
    running.value = status.running ? status : null
    shownBatch.value = status
    pendingBatch.value = null
    await refreshMarks((await call('bulk.status', {})).changeSet)
  }

  async function apply(confirmed: boolean): Promise<void> {
    await withBusy(async () => started(await call('bulk.apply', { confirmed })))
  }

  async function retryFailed(batchId: string): Promise<void> {
    pushed.delete(batchId)
    await withBusy(async () => started(await call('bulk.retryFailed', { batchId })))
  }

  async function resume(batchId: string): Promise<void> {
    pushed.delete(batchId)
    await withBusy(async () => started(await call('bulk.resume', { batchId })))
  }

  async function cancel(batchId: string): Promise<void> {
    const status = await call('bulk.cancel', { batchId })
    if (shownBatch.value?.id === batchId) shownBatch.value = status
    if (pendingBatch.value?.id === batchId) pendingBatch.value = null
  }

  async function loadHistory(): Promise<void> {
    history.value = await call('bulk.history', { limit: 20 })
  }

  async function undoBatch(batchId: string): Promise<void> {
    await changeSetStep(() => call('bulk.undoBatch', { batchId }))
  }

  function onProgress(status: BatchStatus) {
    pushed.set(status.id, status)
    if (shownBatch.value === null || shownBatch.value.id === status.id) shownBatch.value = status
    running.value = status.running ? status : null
    if (!status.running) {
      // Applied changes are in the snapshot now: the grid's current values are old.
      markStale()
      void loadHistory()
    }
  }

  /** Listens for apply progress while the view exists; returns the way to stop. */
  function follow(): () => void {
    return onEvent('bulk.progress', onProgress)
  }

  /** Another account (or none): nothing of the previous one stays. */
  function reset() {
    generation++
    version = null
    rows.value = []
    byId.clear()
    marked = new Set()
    pushed.clear()
    loaded.value = false
    stale.value = false
    loadError.value = null
    summary.value = EMPTY_SUMMARY
    running.value = null
    pendingBatch.value = null
    shownBatch.value = null
    history.value = []
  }

  const rowCount = computed(() => rows.value.length)

  return {
    rows,
    rowCount,
    revision,
    loaded,
    loading,
    stale,
    staleMarks,
    loadError,
    summary,
    rules,
    running,
    pendingBatch,
    shownBatch,
    history,
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
    undoBatch,
    follow
  }
})
