/**
 * The local snapshot of one account's orders and sell requests: a SQLite file in the user-data folder.
 * Every write the sync makes is one transaction, so a crash at any moment leaves the previous complete
 * snapshot readable. It never holds the API key.
 */
import { createHash } from 'node:crypto'
import { join } from 'node:path'
import type { GridListingRow, OrderItemUnits } from '../../shared/contract'
import type { FieldSet } from '../../shared/listingFields'
import type { Order, Page, SellRequest } from '../../shared/domain'
import { createBulkEditStore, type BulkEditStore } from './bulkEditStore'
import type { WireRows } from '../sellerApi'
import { inTransaction, integrityProblem, openDatabase, type Db, type IntegrityCheck, type RowWrite } from './database'
import { dropStagedDeletedHere, forgetDeletedHereBefore, noteDeletedHere } from './deletedHere'
import {
  carryUnread,
  heldCopyWrites,
  type GoneListings,
  clearStaged,
  clearStagedSteps,
  indexStagedSteps,
  promoteStaged,
  stagedCountSql,
  stagedHoldsRows
} from './stagedTables'
import {
  allOrders,
  countOrders,
  newStagedOrderIds,
  orderIds,
  orderItemUnits,
  ordersWithIds,
  orderStatuses,
  queryOrders,
  readOrderTimeZone,
  beginOrderTimeZone,
  writeOrderTimes,
  endOrderTimeZone,
  summarizeOrders,
  unknownOrderIds,
  orderWriteSteps,
  writeOrders,
  type OrderBatch,
  type OrderQuery
} from './orderTable'
import { carryOlderOpen, forgetOlderOpen, keepOlderOpen, olderOpenFailed, readOlderOpenCheck, type OlderOpenCheck, type SweepOutcome } from './olderOpenOrders'
import {
  allSellRequests,
  countSellRequests,
  deleteSellRequest,
  querySellRequests,
  sellRequestStatuses,
  sellRequestValues,
  sellRequestWithId,
  unknownSellRequestIds,
  sellRequestWriteSteps,
  writeSellRequestChanges,
  sellRequestWrites,
  type SellRequestBatch,
  type SellRequestQuery
} from './sellRequestTable'
import { gridKeyOf, gridRowsPage, gridVersion, listingProperties, type GridKey, type GridPage, type ListingProperties } from './listingGrid'
import {
  deleteRun,
  readRun,
  readSyncState,
  runAdvance,
  storedPositions,
  writeRun,
  writeSyncState,
  type CheckOwed,
  type CreatedSoFar,
  type Resource,
  type ResourceSyncState,
  type RowRanges,
  type SyncRun
} from './syncBookkeeping'
import { keptWhile } from './keptWhile'
import { readUnreadable, unreadableSummary, writeUnreadable, type UnreadableEntry, type UnreadableSummary } from './unreadableRows'
import { noteOrdersToAnnounce, takeOrdersToAnnounce } from './ordersToAnnounce'
import { startSnapshotThread, type ThreadStep } from './snapshotThread'
import { allSteps, createPause, stepsInTurns, type Pause, type Steps } from '../eventLoopTurns'

export type { OlderOpenCheck, SweepOutcome, UnreadableEntry, UnreadableSummary }
export type { CheckOwed, CreatedSoFar, OrderBatch, OrderQuery, SellRequestBatch, SellRequestQuery, Resource, ResourceSyncState, RowRanges, SyncRun }

/** The snapshot file for an account: `snapshots/<id>.sqlite`, the id derived from base URL and seller. */
export function snapshotFileFor(userDataDir: string, account: { demo: boolean; baseUrl: string; sellerId: string | null }): string {
  const id = account.demo
    ? 'demo'
    : createHash('sha256')
        .update(`${account.baseUrl}\n${account.sellerId ?? ''}`)
        .digest('hex')
        .slice(0, 20)
  return join(userDataDir, 'snapshots', `${id}.sqlite`)
}

export type { IntegrityCheck } from './database'

export interface Snapshot {
  readonly file: string
  /** Set when an unreadable file was set aside at open. */
  readonly notice: string | null
  /** What is wrong with the file, once its integrity has been checked (null: sound); see IntegrityCheck. */
  readonly integrity: Promise<string | null>
  /**
   * The open database. Outside electron/core/snapshot a lint rule keeps it to tests: the rest reads
   * and writes through the methods and stores here.
   */
  readonly database: Db
  /** Bulk edit's saved change set, apply queue and listing values. */
  readonly bulkEdit: BulkEditStore
  /** `total`: how many orders the query's filters match, when the caller has counted them (orderItemUnits's `orders`). */
  queryOrders(query: OrderQuery, total?: number): Page<Order>
  /** The zone the marketplace writes order times in, where the seller named one; null: UTC. */
  orderTimeZone(): string | null
  /**
   * Reads order times in `zone` from now on: every order's time column is written again in it, a full
   * sync staging orders starts over, and whether new orders confirm the times is seen again.
   */
  setOrderTimeZone(zone: string | null): Promise<void>
  /** The ids of every order a list query matches, in its order. */
  orderIds(query: Omit<OrderQuery, 'page' | 'take'>): string[]
  /** The orders with these ids, in that order (ids it no longer holds left out). */
  ordersWithIds(ids: readonly string[]): Order[]
  /** The orders a list query matches and the units of their items in each of these statuses (all pages). */
  orderItemUnits(query: OrderQuery, statuses: string[]): OrderItemUnits
  summarizeOrders(ids: string[]): { count: number; totalCents: number }
  querySellRequests(query: SellRequestQuery): Page<SellRequest>
  /** A listing's price and quantity as last synced; null for an id the snapshot does not hold. */
  sellRequestValues(id: string): { priceCents: number; quantity: number } | null
  /** A listing as last synced; null for an id the snapshot does not hold. */
  sellRequest(id: string): SellRequest | null
  statuses(): { orders: string[]; orderItems: string[]; sellRequests: string[] }
  syncState(resource: Resource): ResourceSyncState
  /** The full-sync run in progress for a resource, if a previous one was interrupted. */
  run(resource: Resource): SyncRun | null
  /**
   * Starts a run, or a new round of one, from an empty staging area. The rows a run left staged are
   * dropped by the snapshot's thread first.
   */
  beginRun(run: SyncRun): Promise<void>
  /**
   * Stores fetched rows of a full sync and the run as it stands (the positions they cover included) in
   * one transaction: what is staged and what the run says is staged never disagree. The snapshot's
   * thread writes them, in the order handed over, while the caller goes on: this resolves once they
   * are handed over (it waits while a few are still being written). A write that failed fails the
   * next stagePages or the commitRun of the resource. The rows come as batches, or as a part whose
   * writes were made beforehand (stagingPart).
   */
  stagePages(run: SyncRun, rows: OrderBatch[] | SellRequestBatch[] | StagingPart): Promise<void>
  /**
   * The writes that stage fetched rows, made a step at a time with `pause` between steps (a part's
   * columns grow with its rows), for stagePages to hand over. Nothing is written here. `held`: ids of
   * rows the pages held that could not be read, whose copy in the live snapshot is staged with them
   * (stagedTables.ts heldCopyWrites).
   */
  stagingPart(resource: Resource, batches: OrderBatch[] | SellRequestBatch[], pause: Pause, held?: readonly string[]): Promise<StagingPart>
  /** Resolves once every page handed to stagePages is written; rejects with the first write that failed. */
  stagingWritten(resource: Resource): Promise<void>
  /**
   * Swaps a completed full sync in. The snapshot's thread indexes the staged rows first and drops the
   * rows swapped out after, so the core's own part is one short transaction of renames. Returns order
   * ids not seen before (empty on a first sync; noted with the swap to be announced: takeOrdersToAnnounce),
   * and how many rows held it kept unread: a pass that read fewer rows than its list held keeps the rows
   * held it did not read (they may be rows it missed).
   * `unstaged`: rows the pass read but could not stage (unreadable, with no copy held): read all the same.
   * `pass`: when it ended (the computer's clock) and what the check after it needs of it, recorded with
   * the swap until a check is (ResourceSyncState.checkOwed); `neverListed`: rows of the list's count the
   * pass's caller knows are never listed, not counted as rows it missed; `gone`: listings held that the
   * caller knows are gone should the pass not read them, never kept. `keptIds`: the rows kept unread.
   */
  commitRun(
    resource: Resource,
    unstaged?: number,
    pass?: { endedMs: number; owed: Omit<CheckOwed, 'kept'>; neverListed?: number; gone?: GoneListings }
  ): Promise<{ newOrderIds: string[]; kept: number; keptIds: string[] }>
  /** Rows the live snapshot holds. */
  count(resource: Resource): number
  /** Keeps the unshipped orders placed before the synced window that a sweep found (olderOpenOrders.ts). */
  keepOlderOpen(batches: OrderBatch[], outcome: SweepOutcome): Promise<void>
  /** Records a sweep that did not end; what the last ones kept stays. */
  olderOpenFailed(checkedMs: number, error: string): Promise<void>
  olderOpenCheck(): OlderOpenCheck | null
  /** What a completeness check found, and where the next incremental sync starts. It settles a check owed. */
  recordCheck(
    resource: Resource,
    check: {
      serverTotal: number
      syncedCount: number
      complete: boolean
      cursorMs: number | null
      orderTimesReadRight?: boolean | undefined
      clockOffsetMs?: number | null | undefined
      /** A full sync's check: the gap it settled, or null (ResourceSyncState.settledGap); left as it is when not given. */
      settledGap?: number | null | undefined
      /** The list's rows that could not be read, as the sync found them (given: they replace what was recorded). */
      unreadable?: readonly UnreadableEntry[] | undefined
    }
  ): Promise<void>
  /** The rows of a list the last check recorded as unreadable (recordCheck), in list order. */
  unreadable(resource: Resource): UnreadableEntry[]
  /** The same in few words: how many, how many the snapshot holds no copy of, and the first `first`. */
  unreadableSummary(resource: Resource, first: number): UnreadableSummary
  /**
   * Applies the pages of changed rows a sync fetched: about 50 rows per transaction (a page that came as
   * one text, whole), turns between. Returns the orders new to the snapshot (none on a first sync) that
   * `announced` keeps of them (all by default), each noted in the transaction that stores it to be
   * announced (takeOrdersToAnnounce). `syncedMs`: the sync's time to record, or null for rows of a sync
   * that then failed (written, and the time of the last sync left as it was).
   */
  applyChanges(resource: 'orders', batches: OrderBatch[], syncedMs: number | null, announced?: (ids: string[]) => string[]): Promise<{ newOrderIds: string[] }>
  applyChanges(resource: 'sellRequests', batches: SellRequestBatch[], syncedMs: number | null): Promise<{ newOrderIds: string[] }>
  /**
   * The orders syncs noted as new (commitRun, applyChanges) that were not announced yet, forgotten as they
   * are answered: each is answered once.
   */
  takeOrdersToAnnounce(): Promise<string[]>
  /**
   * Listings as the marketplace answered their edits: written by the snapshot's thread, in the order
   * handed over, one transaction per call (the core's thread only hands the rows over: an apply writes
   * back every listing it changed while it sends the next ones).
   */
  putSellRequest(batch: SellRequestBatch): Promise<void>
  /**
   * A listing deleted through this app at `deletedMs` (by the clock of the syncs' times; now by default):
   * written once the snapshot's thread is between statements (as the bulk-edit store's writes), and kept
   * out of what syncs that read it before write (deletedHere.ts).
   */
  removeSellRequest(id: string, deletedMs?: number): Promise<void>
  /**
   * A walk of the listings begins reading at `readFromMs`, and no other sync is under way: the deletes
   * here before it are forgotten, but for those a full sync's run still open may have read (deletedHere.ts).
   */
  listingsReadFrom(readFromMs: number): Promise<void>
  /** Those of the ids the live snapshot does not hold. */
  unknownIds(resource: Resource, ids: string[]): string[]
  /**
   * Moves on whenever the live sell requests may have been written (a sync, an apply's answers, a
   * delete): what was read of them at one generation still holds while it is the same.
   */
  listingsGeneration(): number
  /** A page of the listings in the bulk-edit grid's order (name, then id), how many there are, and their version. */
  gridRows(page: GridPage, fields: FieldSet): { rows: GridListingRow[]; total: number; version: string }
  /** The listings' version (see listingGrid.gridVersion): the grid reads its rows again only when it moved. */
  gridVersion(fields: FieldSet): string
  /** The grid's properties (grade, color, storage, carrier) of the listings with these ids, by id. */
  listingProperties(ids: Iterable<string>): Map<string, ListingProperties>
  /** Everything, for tests and reconciliation checks. */
  dump(): { orders: Order[]; sellRequests: SellRequest[] }
  close(): void
}

/** Fetched rows of a full sync as the writes that stage them (Snapshot.stagingPart). */
export interface StagingPart {
  readonly resource: Resource
  readonly writes: readonly RowWrite[]
}

/** The steps that make the writes staging `batches` (see Snapshot.stagingPart). */
function* stagingSteps(resource: Resource, batches: OrderBatch[] | SellRequestBatch[]): Steps<RowWrite[]> {
  const writes: RowWrite[] = []
  if (resource === 'orders') for (const batch of batches as OrderBatch[]) writes.push(...(yield* orderWriteSteps(batch, '_staged')))
  else for (const batch of batches as SellRequestBatch[]) writes.push(...(yield* sellRequestWriteSteps(batch, '_staged')))
  return writes
}

/**
 * Staging parts handed to the snapshot's thread and not yet written, above which stagePages waits
 * (lanes of a pass that hand over at once may each add one more).
 */
const STAGING_JOBS = 4

/**
 * Rows written per transaction when changes are applied to the live tables: each row also writes its
 * document and seven indexes, so a part stays a short step of the core (a pause groups parts into turns).
 */
const ROWS_PER_PART = 50

/** Orders whose time column is written again per transaction when the marketplace's zone changes (one column, one index). */
const ORDER_TIMES_PER_PART = 1_000

/**
 * Batches in parts of about `rows` rows, in order (the last may hold fewer). A batch larger than that is
 * cut between its rows when its documents can be (each row's bytes are known), else it stays whole.
 */
function partsOf<Batch extends { rows: readonly unknown[]; wire: WireRows }>(batches: readonly Batch[], rows: number): Batch[][] {
  const parts: Batch[][] = [[]]
  let held = 0
  for (const piece of batches.flatMap((batch) => piecesOf(batch, rows))) {
    if (held >= rows) {
      parts.push([])
      held = 0
    }
    parts[parts.length - 1]!.push(piece)
    held += piece.rows.length
  }
  return parts
}

function piecesOf<Batch extends { rows: readonly unknown[]; wire: WireRows }>(batch: Batch, rows: number): Batch[] {
  const { wire } = batch
  if (batch.rows.length <= rows || !('bytes' in wire) || wire.bounds.length !== 2 * batch.rows.length) return [batch]
  const pieces: Batch[] = []
  for (let from = 0; from < batch.rows.length; from += rows)
    pieces.push({ ...batch, rows: batch.rows.slice(from, from + rows), wire: { bytes: wire.bytes, bounds: wire.bounds.slice(2 * from, 2 * (from + rows)) } })
  return pieces
}

export function openSnapshot(file: string, integrity: IntegrityCheck = 'now'): Snapshot {
  const { db, notice } = openDatabase(file, undefined, integrity)
  // A file set aside as it opened was replaced by a fresh one, checked then.
  const checked = integrity === 'now' || notice !== null ? Promise.resolve(null) : integrityProblem(file)
  const tx = <T>(work: () => T): T => inTransaction(db, work)
  let orderTimeZone: string | null
  try {
    orderTimeZone = readOrderTimeZone(db).zone
    // The columns were being written in a new zone when the app stopped: all of them now, before any read.
    if (!readOrderTimeZone(db).columnsWritten)
      tx(() => {
        for (let after: number | null = 0; after !== null;) after = writeOrderTimes(db, after, ORDER_TIMES_PER_PART, orderTimeZone)
        endOrderTimeZone(db)
      })
  } catch (error) {
    // A file not checked yet may fail here (IntegrityCheck 'later'): nothing is left open.
    db.close()
    throw error
  }
  const thread = startSnapshotThread(db, file)
  /**
   * A transaction of the core's, begun once the thread is between statements (see betweenStatements):
   * every write of the core goes so, the sync's and the seller's (the thread's own: writingOnThread).
   */
  const txInTurn = <T>(work: () => T): Promise<T> => thread.betweenStatements(() => tx(work))
  /**
   * Writes of a resource's live rows (in turn, as every write), counted: what was read of them at one
   * generation still holds while it is the same (see listingsGeneration). `wrote` tells from the work's
   * result whether it changed any row (a sync's page can hold nothing new); a write that throws counts.
   */
  const generations = { orders: 0, sellRequests: 0 }
  const writing = <T>(resource: Resource, work: () => T, wrote: (result: T) => boolean = () => true): Promise<T> =>
    txInTurn(() => {
      let changed = true
      try {
        const result = work()
        changed = wrote(result)
        return result
      } finally {
        if (changed) generations[resource]++
      }
    })
  /** Writes of a resource's live rows the snapshot's thread makes (its own transactions), counted as `writing`'s. */
  const writingOnThread = async (resource: Resource, steps: readonly ThreadStep[]): Promise<void> => {
    try {
      await thread.run(steps)
    } finally {
      generations[resource]++
    }
  }

  // Reads over every row (they grow with the listings), kept while the rows they read are not written: the
  // filters' statuses, and the grid's version (per field set) that its every page checks.
  const statuses = keptWhile(
    () => [generations.orders, generations.sellRequests],
    () => {
      const { statuses: orders, itemStatuses } = orderStatuses(db)
      return { orders, orderItems: itemStatuses, sellRequests: sellRequestStatuses(db) }
    }
  )
  const gridVersionNow = keptWhile(
    (fields: FieldSet) => [generations.sellRequests, fields],
    (fields: FieldSet) => gridVersion(db, fields)
  )

  /** Where the grid's last page ended, and at which listings generation (see gridRows). */
  let gridEnd: { generation: number; offset: number; key: GridKey } | null = null

  // A first sync brings everything: nothing is "new" to the seller then.
  const firstOrderSync = () => readSyncState(db, 'orders').lastFullMs === null && countOrders(db) === 0

  /**
   * Per resource whose run the file holds, its positions as the last part handed over records them
   * (the next part's write expects to find them: syncBookkeeping.runAdvance). Dropped when a part
   * failed, so the next run reads them as the file has them.
   */
  const handedOver = new Map<Resource, string>()
  /** Per resource, the staging jobs the thread has not finished (oldest first), and the first that failed. */
  const staging = new Map<Resource, { jobs: Promise<void>[]; failure: { error: unknown } | null }>()
  const stagingOf = (resource: Resource) => {
    let of = staging.get(resource)
    if (!of) staging.set(resource, (of = { jobs: [], failure: null }))
    return of
  }
  /** Waits until the thread has written what was handed over; returns the first failure (and forgets it). */
  async function staged(resource: Resource): Promise<{ error: unknown } | null> {
    const of = stagingOf(resource)
    while (of.jobs.length) await of.jobs[0]
    const failure = of.failure
    of.failure = null
    if (failure) handedOver.delete(resource)
    return failure
  }

  async function stagingWritten(resource: Resource): Promise<void> {
    const failure = await staged(resource)
    if (failure) throw failure.error
  }

  async function stagePages(run: SyncRun, rows: OrderBatch[] | SellRequestBatch[] | StagingPart): Promise<void> {
    const of = stagingOf(run.resource)
    const failed = () => {
      if (of.failure) throw of.failure.error
    }
    failed()
    const part = Array.isArray(rows) ? { resource: run.resource, writes: allSteps(stagingSteps(run.resource, rows)) } : rows
    if (part.resource !== run.resource) throw new Error(`${part.resource} rows cannot be staged into a ${run.resource} sync run`)
    const before = handedOver.get(run.resource) ?? storedPositions(db, run.resource)
    if (before === null) throw new Error(`no ${run.resource} sync run to stage into`)
    const advance = runAdvance(run, before)
    handedOver.set(run.resource, advance.after)
    const writes = [...part.writes, advance.write]
    const job = thread.run([{ transaction: writes }]).then(
      () => undefined,
      (error: unknown) => {
        of.failure ??= { error }
      }
    )
    of.jobs.push(job)
    void job.finally(() => of.jobs.splice(of.jobs.indexOf(job), 1))
    while (of.jobs.length > STAGING_JOBS) await of.jobs[0]
    failed()
  }

  return {
    file,
    notice,
    integrity: checked,
    database: db,
    bulkEdit: createBulkEditStore(db, (work) => thread.betweenStatements(work)),
    queryOrders: (query, total) => queryOrders(db, query, orderTimeZone, total),
    orderItemUnits: (query, statuses) => orderItemUnits(db, query, statuses),
    orderIds: (query) => orderIds(db, query),
    ordersWithIds: (ids) => ordersWithIds(db, ids, orderTimeZone),
    summarizeOrders: (ids) => summarizeOrders(db, ids),
    querySellRequests: (query) => querySellRequests(db, query),
    sellRequestValues: (id) => sellRequestValues(db, id),
    sellRequest: (id) => sellRequestWithId(db, id),
    statuses: () => statuses(),
    syncState: (resource) => readSyncState(db, resource),
    orderTimeZone: () => orderTimeZone,
    async setOrderTimeZone(zone) {
      // In parts with turns between (a few ms each), so the core answers meanwhile: for a moment the
      // lists may order by times some of which are read in the old zone; the zone is kept first, so a
      // crash midway is finished when the snapshot opens again.
      await writing('orders', () => beginOrderTimeZone(db, zone))
      orderTimeZone = zone
      const pause = createPause()
      for (let after: number | null = 0; after !== null;) {
        await pause()
        const from: number = after
        after = await writing('orders', () => writeOrderTimes(db, from, ORDER_TIMES_PER_PART, zone))
      }
      await writing('orders', () => endOrderTimeZone(db))
    },
    run: (resource) => readRun(db, resource),
    async beginRun(run) {
      // Rows still being staged for an earlier run land first (and their run row with them).
      await staged(run.resource)
      // The run is forgotten before its rows go: rows being dropped are never rows a run counts as staged.
      handedOver.delete(run.resource)
      await txInTurn(() => deleteRun(db, run.resource))
      // Rows an earlier run left staged go on the thread; without any, the run need not wait for the
      // thread at all (it may still be starting: a sync right after the snapshot opened).
      if (stagedHoldsRows(db, run.resource)) await thread.run(clearStagedSteps(db, run.resource))
      const positions = await txInTurn(() => {
        clearStaged(db, run.resource)
        return writeRun(db, run)
      })
      handedOver.set(run.resource, positions)
    },
    stagePages,
    stagingPart: async (resource, batches, pause, held = []) => ({
      resource,
      // Rows of these pages that could not be read: the snapshot's copies are staged with them.
      writes: [
        ...(await stepsInTurns(stagingSteps(resource, batches), pause)),
        ...(held.length ? heldCopyWrites(db, resource, 'id IN (SELECT value FROM json_each(?))', [JSON.stringify(held)]) : [])
      ]
    }),
    stagingWritten,
    async commitRun(resource, unstaged = 0, pass) {
      const noRun = () => new Error(`no ${resource} sync run to commit`)
      await stagingWritten(resource)
      if (!readRun(db, resource)) throw noRun()
      await thread.run(indexStagedSteps(db, resource))
      let newOrderIds: string[] = []
      if (resource === 'orders' && !firstOrderSync()) {
        // Placed in the window the snapshot held until now, too: a window made longer (more days kept)
        // brings orders placed before it, which are old orders, not new ones to announce.
        const windows = [readRun(db, resource)?.windowFromMs, readSyncState(db, 'orders').windowFromMs].filter((ms): ms is number => typeof ms === 'number')
        const [ids] = await thread.run([{ all: newStagedOrderIds(windows.length ? Math.max(...windows) : null) }])
        newOrderIds = (ids ?? []).map(([id]) => String(id))
      }
      const [[read] = []] = (await thread.run([{ all: stagedCountSql(resource) }]))[0] ?? []
      const kept = await writing(resource, () => {
        const run = readRun(db, resource)
        if (!run) throw noRun()
        // Fewer rows read than the list held at the pass's end: the rows held and not read are kept. Not
        // for rows the pass's caller knows are counted and never listed (pass.neverListed), nor those it
        // knows are gone (pass.gone).
        // Listings deleted here after the pass read them are not swapped in.
        const dropped = resource === 'sellRequests' ? dropStagedDeletedHere(db) : 0
        const kept = Number(read) - dropped + unstaged + (pass?.neverListed ?? 0) < run.total ? carryUnread(db, resource, run.windowFromMs, pass?.gone) : []
        if (resource === 'orders') carryOlderOpen(db, run.windowFromMs)
        promoteStaged(db, resource)
        noteOrdersToAnnounce(db, newOrderIds)
        deleteRun(db, resource)
        if (resource === 'sellRequests') forgetDeletedHereBefore(db, run.startedMs)
        handedOver.delete(resource)
        // Unverified until the check after it records what it found (a check that cannot run leaves it so).
        writeSyncState(db, resource, {
          lastFullMs: run.startedMs,
          lastIncrementalMs: run.startedMs,
          windowFromMs: run.windowFromMs,
          cursorMs: run.cursorMs,
          complete: false,
          syncedCount: null,
          serverTotal: null,
          pageSize: run.pageSize,
          lastFullEndedMs: pass?.endedMs ?? null,
          checkOwed: pass ? { ...pass.owed, kept: kept.length } : null,
          settledGap: null
        })
        return kept
      })
      // The rows swapped out.
      await thread.run(clearStagedSteps(db, resource))
      return { newOrderIds, kept: kept.length, keptIds: kept }
    },
    count: (resource) => (resource === 'orders' ? countOrders(db) : countSellRequests(db)),
    keepOlderOpen: (batches, outcome) => writing('orders', () => keepOlderOpen(db, batches, outcome)),
    olderOpenFailed: (checkedMs, error) => txInTurn(() => olderOpenFailed(db, checkedMs, error)),
    olderOpenCheck: () => readOlderOpenCheck(db),
    recordCheck: (resource, { unreadable, ...check }) =>
      txInTurn(() => {
        writeSyncState(db, resource, { ...check, checkOwed: null })
        if (unreadable) writeUnreadable(db, resource, unreadable)
      }),
    unreadable: (resource) => readUnreadable(db, resource),
    unreadableSummary: (resource, first) => unreadableSummary(db, resource, first),
    async applyChanges(
      resource: Resource,
      batches: OrderBatch[] | SellRequestBatch[],
      syncedMs: number | null,
      announced: (ids: string[]) => string[] = (ids) => ids
    ) {
      // Rows written into the live tables (their indexes kept up to date), a part per transaction, with
      // turns between parts: thousands of changed rows would be one long turn. Each part is whole
      // rows, and the sync's time is written with the last part only, so a part lost to a crash is
      // read again by the next sync. A sell request older than the one held (an edit answered while the
      // page was read) is left as held (writeSellRequestChanges).
      const first = resource === 'orders' && firstOrderSync()
      const pause = createPause()
      const newOrderIds: string[] = []
      const parts = partsOf<OrderBatch | SellRequestBatch>(batches, ROWS_PER_PART)
      for (const [k, part] of parts.entries()) {
        if (k > 0) await pause()
        await writing(
          resource,
          () => {
            let written = 0
            if (resource === 'orders') {
              if (!first) {
                const fresh = announced([
                  ...unknownOrderIds(
                    db,
                    (part as OrderBatch[]).flatMap((batch) => batch.rows.map((order) => order.id))
                  )
                ])
                noteOrdersToAnnounce(db, fresh)
                newOrderIds.push(...fresh)
              }
              for (const batch of part as OrderBatch[]) {
                writeOrders(db, batch, '')
                forgetOlderOpen(
                  db,
                  batch.rows.map((order) => order.id)
                )
                written += batch.rows.length
              }
            } else {
              for (const batch of part as SellRequestBatch[]) written += writeSellRequestChanges(db, batch)
            }
            if (k === parts.length - 1 && syncedMs !== null) writeSyncState(db, resource, { lastIncrementalMs: syncedMs })
            return written
          },
          (written) => written > 0
        )
      }
      return { newOrderIds }
    },
    takeOrdersToAnnounce: () => txInTurn(() => takeOrdersToAnnounce(db)),
    putSellRequest: (batch) => writingOnThread('sellRequests', [{ transaction: sellRequestWrites(batch, '') }]),
    removeSellRequest: (id, deletedMs = Date.now()) =>
      writing('sellRequests', () => {
        noteDeletedHere(db, id, deletedMs)
        if (sellRequestValues(db, id) === null) return
        deleteSellRequest(db, id)
        // Deleted through this app: the marketplace counts one fewer too, and the last check stays true.
        const { serverTotal, syncedCount } = readSyncState(db, 'sellRequests')
        if (serverTotal !== null && syncedCount !== null) writeSyncState(db, 'sellRequests', { serverTotal: serverTotal - 1, syncedCount: syncedCount - 1 })
      }),
    listingsReadFrom: (readFromMs) => txInTurn(() => forgetDeletedHereBefore(db, Math.min(readFromMs, readRun(db, 'sellRequests')?.startedMs ?? Infinity))),
    unknownIds: (resource, ids) => (resource === 'orders' ? [...unknownOrderIds(db, ids)] : unknownSellRequestIds(db, ids)),
    listingsGeneration: () => generations.sellRequests,
    gridRows(page, fields) {
      const { version, total } = gridVersionNow(fields)
      // A page that starts where the last one ended, with the listings unchanged since, goes on from its
      // last listing (the grid reads its pages in turn, and bulk edit reads each page in parts).
      const end = gridEnd
      const after = end && end.generation === generations.sellRequests && end.offset === page.offset ? end.key : undefined
      const rows = gridRowsPage(db, page, fields, after)
      const last = rows.at(-1)
      gridEnd = last ? { generation: generations.sellRequests, offset: page.offset + rows.length, key: gridKeyOf(last) } : null
      return { rows, total, version }
    },
    gridVersion: (fields) => gridVersionNow(fields).version,
    listingProperties: (ids) => listingProperties(db, ids),
    dump: () => ({ orders: allOrders(db, orderTimeZone), sellRequests: allSellRequests(db) }),
    close() {
      thread.stop()
      // Fold the WAL back into the file so a closed snapshot is one self-contained file.
      try {
        db.exec('PRAGMA wal_checkpoint(TRUNCATE)')
      } finally {
        db.close()
      }
    }
  }
}
