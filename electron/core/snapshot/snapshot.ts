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
import { inTransaction, openDatabase, type Db } from './database'
import { clearStaged, indexStagedStep, promoteStaged } from './stagedTables'
import {
  allOrders,
  countOrders,
  newStagedOrderIds,
  orderItemUnits,
  orderStatuses,
  queryOrders,
  summarizeOrders,
  unknownOrderIds,
  writeOrders,
  type OrderBatch,
  type OrderQuery
} from './orderTable'
import {
  allSellRequests,
  countSellRequests,
  deleteSellRequest,
  querySellRequests,
  sellRequestStatuses,
  sellRequestValues,
  unknownSellRequestIds,
  writeSellRequests,
  type SellRequestBatch,
  type SellRequestQuery
} from './sellRequestTable'
import { gridRowsPage, gridVersion, listingProperties, type GridPage, type ListingProperties } from './listingGrid'
import {
  deleteRun,
  readRun,
  readSyncState,
  writeRun,
  writeSyncState,
  type Resource,
  type ResourceSyncState,
  type RowRanges,
  type SyncRun
} from './syncBookkeeping'
import { startWalFolder } from './walFolder'

export type { OrderBatch, OrderQuery, SellRequestBatch, SellRequestQuery, Resource, ResourceSyncState, RowRanges, SyncRun }

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

export interface Snapshot {
  readonly file: string
  /** Set when an unreadable file was set aside at open. */
  readonly notice: string | null
  /**
   * The open database. Outside electron/core/snapshot a lint rule keeps it to tests: the rest reads
   * and writes through the methods and stores here.
   */
  readonly database: Db
  /** Bulk edit's saved change set, apply queue and listing values. */
  readonly bulkEdit: BulkEditStore
  queryOrders(query: OrderQuery): Page<Order>
  /** The orders a list query matches and the units of their items in each of these statuses (all pages). */
  orderItemUnits(query: OrderQuery, statuses: string[]): OrderItemUnits
  summarizeOrders(ids: string[]): { count: number; totalCents: number }
  querySellRequests(query: SellRequestQuery): Page<SellRequest>
  /** A listing's price and quantity as last synced; null for an id the snapshot does not hold. */
  sellRequestValues(id: string): { priceCents: number; quantity: number } | null
  statuses(): { orders: string[]; orderItems: string[]; sellRequests: string[] }
  syncState(resource: Resource): ResourceSyncState
  /** The full-sync run in progress for a resource, if a previous one was interrupted. */
  run(resource: Resource): SyncRun | null
  /** Starts a run, or a new round of one, from an empty staging area. */
  beginRun(run: SyncRun): void
  /**
   * Stores fetched rows of a full sync and the run as it stands (the positions they cover included) in
   * one transaction: what is staged and what the run says is staged never disagree.
   */
  stagePages(run: SyncRun, batches: OrderBatch[] | SellRequestBatch[]): void
  /** Swaps a completed full sync in (one transaction). Returns order ids not seen before (empty on a first sync). */
  /**
   * Gives the staged rows one more of the live tables' indexes (one statement); true once they carry
   * them all. Run between calls before commitRun, so commitRun is only a swap.
   */
  indexStaged(resource: Resource): boolean
  commitRun(resource: Resource): { newOrderIds: string[] }
  /** Rows the live snapshot holds. */
  count(resource: Resource): number
  /** What a completeness check found, and where the next incremental sync starts. */
  recordCheck(resource: Resource, check: { serverTotal: number; syncedCount: number; complete: boolean; cursorMs: number | null }): void
  abandonRun(resource: Resource): void
  /** Applies the pages of changed rows an incremental sync fetched (one transaction). */
  applyChanges(resource: 'orders', batches: OrderBatch[], syncedMs: number): { newOrderIds: string[] }
  applyChanges(resource: 'sellRequests', batches: SellRequestBatch[], syncedMs: number): { newOrderIds: string[] }
  putSellRequest(batch: SellRequestBatch): void
  removeSellRequest(id: string): void
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

export function openSnapshot(file: string): Snapshot {
  const { db, notice } = openDatabase(file)
  const tx = <T>(work: () => T): T => inTransaction(db, work)
  const folder = startWalFolder(file)
  let listingsGeneration = 0
  /** Writes the live sell requests (see listingsGeneration). */
  const writingListings = <T>(work: () => T): T => {
    try {
      return tx(work)
    } finally {
      listingsGeneration++
    }
  }

  // The version scans every listing: it is worked out once per listings generation and field set, not for
  // each page the grid reads.
  let gridVersionRead: { generation: number; fields: FieldSet; version: string; total: number } | null = null
  function gridVersionNow(fields: FieldSet): { version: string; total: number } {
    if (gridVersionRead?.generation !== listingsGeneration || gridVersionRead.fields !== fields) {
      gridVersionRead = { generation: listingsGeneration, fields, ...gridVersion(db, fields) }
    }
    return gridVersionRead
  }

  // A first sync brings everything: nothing is "new" to the seller then.
  const firstOrderSync = () => readSyncState(db, 'orders').lastFullMs === null && countOrders(db) === 0

  function newOrderIdsAmong(ids: string[]): string[] {
    if (firstOrderSync()) return []
    return [...unknownOrderIds(db, ids)]
  }

  function stagePages(run: SyncRun, batches: OrderBatch[] | SellRequestBatch[]): void {
    tx(() => {
      if (!readRun(db, run.resource)) throw new Error(`no ${run.resource} sync run to stage into`)
      for (const batch of batches) {
        if (run.resource === 'orders') writeOrders(db, batch as OrderBatch, '_staged')
        else writeSellRequests(db, batch as SellRequestBatch, '_staged')
      }
      writeRun(db, run)
    })
  }

  return {
    file,
    notice,
    database: db,
    bulkEdit: createBulkEditStore(db),
    queryOrders: (query) => queryOrders(db, query),
    orderItemUnits: (query, statuses) => orderItemUnits(db, query, statuses),
    summarizeOrders: (ids) => summarizeOrders(db, ids),
    querySellRequests: (query) => querySellRequests(db, query),
    sellRequestValues: (id) => sellRequestValues(db, id),
    statuses() {
      const { statuses, itemStatuses } = orderStatuses(db)
      return { orders: statuses, orderItems: itemStatuses, sellRequests: sellRequestStatuses(db) }
    },
    syncState: (resource) => readSyncState(db, resource),
    run: (resource) => readRun(db, resource),
    beginRun(run) {
      tx(() => {
        clearStaged(db, run.resource)
        writeRun(db, run)
      })
    },
    stagePages,
    indexStaged: (resource) => tx(() => indexStagedStep(db, resource)),
    commitRun(resource) {
      return (resource === 'sellRequests' ? writingListings : tx)(() => {
        const run = readRun(db, resource)
        if (!run) throw new Error(`no ${resource} sync run to commit`)
        let newOrderIds: string[] = []
        if (resource === 'orders' && !firstOrderSync()) newOrderIds = newStagedOrderIds(db)
        promoteStaged(db, resource)
        deleteRun(db, resource)
        // Unverified until the check after it records what it found (a check that cannot run leaves it so).
        writeSyncState(db, resource, {
          lastFullMs: run.startedMs,
          lastIncrementalMs: run.startedMs,
          windowFromMs: run.windowFromMs,
          cursorMs: run.cursorMs,
          complete: false,
          syncedCount: null,
          serverTotal: null,
          pageSize: run.pageSize
        })
        return { newOrderIds }
      })
    },
    count: (resource) => (resource === 'orders' ? countOrders(db) : countSellRequests(db)),
    recordCheck: (resource, check) => tx(() => writeSyncState(db, resource, check)),
    abandonRun(resource) {
      tx(() => {
        clearStaged(db, resource)
        deleteRun(db, resource)
      })
    },
    applyChanges(resource: Resource, batches: OrderBatch[] | SellRequestBatch[], syncedMs: number) {
      return (resource === 'sellRequests' ? writingListings : tx)(() => {
        let newOrderIds: string[] = []
        if (resource === 'orders') {
          newOrderIds = newOrderIdsAmong((batches as OrderBatch[]).flatMap((batch) => batch.rows.map((order) => order.id)))
          for (const batch of batches as OrderBatch[]) writeOrders(db, batch, '')
        } else {
          for (const batch of batches as SellRequestBatch[]) writeSellRequests(db, batch, '')
        }
        writeSyncState(db, resource, { lastIncrementalMs: syncedMs })
        return { newOrderIds }
      })
    },
    putSellRequest: (batch) => writingListings(() => writeSellRequests(db, batch, '')),
    removeSellRequest: (id) =>
      writingListings(() => {
        if (sellRequestValues(db, id) === null) return
        deleteSellRequest(db, id)
        // Deleted through this app: the marketplace counts one fewer too, and the last check stays true.
        const { serverTotal, syncedCount } = readSyncState(db, 'sellRequests')
        if (serverTotal !== null && syncedCount !== null) writeSyncState(db, 'sellRequests', { serverTotal: serverTotal - 1, syncedCount: syncedCount - 1 })
      }),
    unknownIds: (resource, ids) => (resource === 'orders' ? [...unknownOrderIds(db, ids)] : unknownSellRequestIds(db, ids)),
    listingsGeneration: () => listingsGeneration,
    gridRows(page, fields) {
      const { version, total } = gridVersionNow(fields)
      return { rows: gridRowsPage(db, page, fields), total, version }
    },
    gridVersion: (fields) => gridVersionNow(fields).version,
    listingProperties: (ids) => listingProperties(db, ids),
    dump: () => ({ orders: allOrders(db), sellRequests: allSellRequests(db) }),
    close() {
      folder.stop()
      // Fold the WAL back into the file so a closed snapshot is one self-contained file.
      try {
        db.exec('PRAGMA wal_checkpoint(TRUNCATE)')
      } finally {
        db.close()
      }
    }
  }
}
