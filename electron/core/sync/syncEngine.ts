/**
 * Brings the snapshot up to date with the marketplace.
 *
 * - Full sync: every page of a resource (orders within the history window), fetched in ascending
 *   update order with bounded concurrency, staged a few pages at a time (each time one transaction
 *   that marks those pages done, so an interrupted run resumes where it stopped), then swapped in with one transaction. Deleted sell
 *   requests disappear here. A short incremental pass then picks up what changed while it ran.
 * - Incremental sync: orders via `fromDate` = last sync minus a safety margin; sell requests by walking
 *   `updatedAt DESC` pages until one is older than the last sync. Applied in one transaction.
 *
 * Retries, backoff and `Retry-After` are the client's; a malformed page aborts the sync and leaves the
 * live snapshot as it was.
 */
import type { SellerApi } from '../sellerApi'
import type { OrderBatch, Resource, SellRequestBatch, Snapshot } from '../snapshot/snapshot'
import { forEachBounded } from './boundedConcurrency'

export interface SyncSettings {
  /** Rows per page. */
  take: number
  /** Pages in flight at once. */
  concurrency: number
  /** Orders younger than this many days are kept in the snapshot. */
  historyDays: number
  /** A full reconcile runs when the last one is older than this. */
  reconcileEveryMs: number
  /** Incremental syncs look back this much before the last sync. */
  safetyMarginMs: number
  /** An interrupted full sync younger than this is resumed; older ones restart. */
  resumeWithinMs: number
  /** Retries per page (on top of the first attempt). */
  retriesPerPage: number
}

export const DEFAULT_SYNC_SETTINGS: SyncSettings = {
  take: 100,
  concurrency: 4,
  historyDays: 90,
  reconcileEveryMs: 6 * 60 * 60 * 1000,
  safetyMarginMs: 5 * 60 * 1000,
  resumeWithinMs: 60 * 60 * 1000,
  retriesPerPage: 6
}

export type SyncKind = 'full' | 'incremental'
/**
 * What a run is asked for: a kind, or `auto` (full when none was ever done, one was interrupted, or the
 * periodic reconcile is due; incremental otherwise), or `catchUp` (as auto, but never for the reconcile:
 * a quick look for what changed, e.g. before applying bulk changes).
 */
export type SyncRequest = SyncKind | 'auto' | 'catchUp'

export interface SyncProgress {
  kind: SyncKind
  resource: Resource
  pagesDone: number
  pagesTotal: number
  items: number
}

export interface SyncReport {
  kinds: Record<Resource, SyncKind>
  pagesFetched: Record<Resource, number>
  newOrderIds: string[]
}

const DAY_MS = 24 * 60 * 60 * 1000
/** A full sync stages fetched pages once they hold this many rows (fewer, larger transactions). */
const STAGE_ROWS = 1_000

type Batch = OrderBatch | SellRequestBatch

export interface SyncEngineDeps {
  api: SellerApi
  snapshot: Snapshot
  settings: SyncSettings
  onProgress?: (progress: SyncProgress) => void
  now?: () => number
}

export function createSyncEngine(deps: SyncEngineDeps) {
  const now = deps.now ?? Date.now
  const { api, snapshot } = deps

  async function fetchPage(resource: Resource, query: { page: number; sortDir: 'ASC' | 'DESC'; fromMs?: number | null }, signal: AbortSignal) {
    const s = deps.settings
    const options = { signal, retries: s.retriesPerPage }
    if (resource === 'orders') {
      const { total, orders, wire } = await api.listOrders(
        { page: query.page, take: s.take, sortDir: query.sortDir, ...(query.fromMs != null ? { fromDate: new Date(query.fromMs).toISOString() } : {}) },
        options
      )
      return { total, batch: { rows: orders, wire } as Batch }
    }
    const { total, sellRequests, wire } = await api.listSellRequests({ page: query.page, take: s.take, sortDir: query.sortDir }, options)
    return { total, batch: { rows: sellRequests, wire } as Batch }
  }

  function kindFor(resource: Resource, requested: SyncRequest): SyncKind {
    if (requested === 'full' || requested === 'incremental') return requested
    const state = snapshot.syncState(resource)
    if (snapshot.run(resource)) return 'full' // finish an interrupted one
    if (state.lastFullMs === null) return 'full'
    if (requested === 'auto' && now() - state.lastFullMs > deps.settings.reconcileEveryMs) return 'full'
    return 'incremental'
  }

  async function full(resource: Resource, signal: AbortSignal, counters: { pages: number }) {
    const s = deps.settings
    const windowFromMs = resource === 'orders' ? now() - s.historyDays * DAY_MS : null
    // Fetched pages are staged a few at a time (one transaction each time, the pages marked done with
    // them): a crash loses at most those, which a resumed run fetches again.
    let pending: { page: number; batch: Batch }[] = []
    let pendingRows = 0
    const flush = () => {
      const pages = pending
      pending = []
      pendingRows = 0
      if (resource === 'orders') snapshot.stagePages('orders', pages as { page: number; batch: OrderBatch }[])
      else snapshot.stagePages('sellRequests', pages as { page: number; batch: SellRequestBatch }[])
    }
    const stage = (page: number, batch: Batch) => {
      pending.push({ page, batch })
      pendingRows += batch.rows.length
      if (pendingRows >= STAGE_ROWS) flush()
    }

    let run = snapshot.run(resource)
    if (!run || run.take !== s.take || now() - run.startedMs > s.resumeWithinMs) {
      const startedMs = now()
      const first = await fetchPage(resource, { page: 1, sortDir: 'ASC', fromMs: windowFromMs }, signal)
      counters.pages++
      run = { resource, startedMs, take: s.take, windowFromMs, total: first.total, pagesDone: [] }
      snapshot.beginRun(run)
      stage(1, first.batch)
      run.pagesDone.push(1)
    }
    const pagesTotal = Math.max(1, Math.ceil(run.total / s.take))
    const remaining = Array.from({ length: pagesTotal }, (_, i) => i + 1).filter((page) => !run!.pagesDone.includes(page))
    let pagesDone = pagesTotal - remaining.length
    let items = pagesDone * s.take
    const report = () => deps.onProgress?.({ kind: 'full', resource, pagesDone, pagesTotal, items: Math.min(items, run!.total) })
    report()
    const runWindow = run.windowFromMs
    try {
      await forEachBounded(remaining, s.concurrency, async (page) => {
        const { batch } = await fetchPage(resource, { page, sortDir: 'ASC', fromMs: runWindow }, signal)
        counters.pages++
        if (signal.aborted) throw signal.reason
        stage(page, batch)
        pagesDone++
        items += batch.rows.length
        report()
      }, signal)
    } catch (error) {
      // Keep what was fetched (checked pages) so a later run resumes after it; the failure is what counts.
      try {
        flush()
      } catch {
        // The failure above says more.
      }
      throw error
    }
    flush()
    const { newOrderIds } = snapshot.commitRun(resource, run.total)
    // What changed while the run was fetching.
    const caughtUp = await incremental(resource, signal, counters, run.startedMs)
    return [...new Set([...newOrderIds, ...caughtUp])]
  }

  async function incremental(resource: Resource, signal: AbortSignal, counters: { pages: number }, sinceMs?: number): Promise<string[]> {
    const s = deps.settings
    const state = snapshot.syncState(resource)
    const since = (sinceMs ?? state.lastIncrementalMs ?? state.lastFullMs ?? 0) - s.safetyMarginMs
    const startedMs = now()
    if (resource === 'orders') {
      const first = await fetchPage('orders', { page: 1, sortDir: 'DESC', fromMs: since }, signal)
      counters.pages++
      const pagesTotal = Math.max(1, Math.ceil(first.total / s.take))
      const batches = [first.batch as OrderBatch]
      let items = first.batch.rows.length
      deps.onProgress?.({ kind: 'incremental', resource, pagesDone: 1, pagesTotal, items })
      const rest = Array.from({ length: pagesTotal - 1 }, (_, i) => i + 2)
      await forEachBounded(rest, s.concurrency, async (page) => {
        const { batch } = await fetchPage('orders', { page, sortDir: 'DESC', fromMs: since }, signal)
        counters.pages++
        batches.push(batch as OrderBatch)
        items += batch.rows.length
        deps.onProgress?.({ kind: 'incremental', resource, pagesDone: batches.length, pagesTotal, items })
      }, signal)
      if (signal.aborted) throw signal.reason
      return snapshot.applyChanges('orders', batches, startedMs).newOrderIds
    }
    // Sell requests: newest first until a row is older than the last sync. Whole pages are applied
    // (rows just older than the cut-off are simply written again, unchanged).
    const batches: SellRequestBatch[] = []
    let items = 0
    for (let page = 1; ; page++) {
      const { batch } = await fetchPage('sellRequests', { page, sortDir: 'DESC' }, signal)
      counters.pages++
      const rows = (batch as SellRequestBatch).rows
      batches.push(batch as SellRequestBatch)
      const fresh = rows.filter((row) => Date.parse(row.updatedAt) >= since).length
      items += fresh
      deps.onProgress?.({ kind: 'incremental', resource, pagesDone: page, pagesTotal: page, items })
      if (fresh < rows.length || rows.length < s.take) break
    }
    if (signal.aborted) throw signal.reason
    snapshot.applyChanges('sellRequests', batches, startedMs)
    return []
  }

  return {
    /** One sync of the resources (both by default). Throws the first failure (SellerDeskError) or the abort reason. */
    async run(requested: SyncRequest, signal: AbortSignal, resources: readonly Resource[] = ['orders', 'sellRequests']): Promise<SyncReport> {
      const report: SyncReport = { kinds: { orders: 'incremental', sellRequests: 'incremental' }, pagesFetched: { orders: 0, sellRequests: 0 }, newOrderIds: [] }
      for (const resource of resources) {
        const kind = kindFor(resource, requested)
        report.kinds[resource] = kind
        const counters = { pages: 0 }
        try {
          const ids = kind === 'full' ? await full(resource, signal, counters) : await incremental(resource, signal, counters)
          if (resource === 'orders') report.newOrderIds = ids
        } finally {
          report.pagesFetched[resource] = counters.pages
        }
      }
      return report
    }
  }
}

export type SyncEngine = ReturnType<typeof createSyncEngine>
