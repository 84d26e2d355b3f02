/**
 * The sweep for unshipped orders placed before the synced window (snapshot/olderOpenOrders.ts says why
 * they are kept): every order the marketplace lists up to the window's start is read, a page at a time,
 * and those placed before it with an item awaiting shipment or ready to ship are kept; later sweeps
 * read only what changed before the window since. It runs after a sync when the window has moved since
 * the last sweep (each full sync moves it), and again a while after a sweep that did not end. A sweep that fails is recorded with its words and what the last one
 * kept stays; only a cancel (the run's) ends it unrecorded.
 */
import { toErrorData } from '../../shared/errors'
import { createOlderOrders } from '../olderOrders'
import type { SellerApi } from '../sellerApi'
import { wireRowsAt } from '../snapshot/docRows'
import { hasOpenItem } from '../snapshot/olderOpenOrders'
import type { OrderBatch, Snapshot } from '../snapshot/snapshot'

/** The most orders a sweep reads: the most recently updated first, so the ones cut are the longest untouched. */
export const SWEEP_MAX = 50_000
/** A sweep that did not end is tried again after this long. */
export const SWEEP_RETRY_MS = 15 * 60_000

/** How far a look has read: pages of the marketplace's count at the page size asked, and orders kept. */
export interface LookProgress {
  pagesDone: number
  pagesTotal: number
  items: number
}

export interface OlderOpenSweepOptions {
  take: number
  /** Retries of a page that failed, as a sync's (SyncSettings.retriesPerPage). */
  retries: number
  max?: number
  now: () => number
}

export function createOlderOpenSweep(api: SellerApi, snapshot: Snapshot, options: OlderOpenSweepOptions) {
  // At the page size the marketplace answers, as its full sync learned it (one that refuses larger pages would refuse the look's).
  const older = () =>
    createOlderOrders(api, { take: () => snapshot.syncState('orders').pageSize ?? options.take, retries: options.retries, max: options.max ?? SWEEP_MAX })

  /** Whether the window moved since the last sweep that ended, or the last one did not end a while ago. */
  function due(): boolean {
    const beforeMs = snapshot.syncState('orders').windowFromMs
    if (beforeMs === null) return false
    const last = snapshot.olderOpenCheck()
    if (!last) return true
    if (last.error !== null) return options.now() - last.checkedMs >= SWEEP_RETRY_MS
    return last.beforeMs !== beforeMs
  }

  /**
   * The first sweep (or the first after none ended) reads every order before the window; later ones
   * what was created or updated since the last one's end of range, placed before the window now. A
   * window moved back (more days kept) needs no read: the orders it now holds were read by its sync.
   */
  async function sweep(signal: AbortSignal, onProgress?: (progress: LookProgress) => void): Promise<void> {
    const beforeMs = snapshot.syncState('orders').windowFromMs
    if (beforeMs === null) return
    const checkedMs = options.now()
    const sinceMs = snapshot.olderOpenCheck()?.beforeMs ?? null
    const batches: OrderBatch[] = []
    try {
      if (sinceMs !== null && beforeMs <= sinceMs) return await snapshot.keepOlderOpen([], { beforeMs, checkedMs, error: null })
      const reader = older()
      // A whole look keeps the orders with items to ship; a look at what changed, every order it reads
      // (one set apart before may have been shipped meanwhile).
      const read = await reader.scan(
        { fromMs: Number.NEGATIVE_INFINITY, toMs: beforeMs - 1 },
        {
          keep: sinceMs === null ? hasOpenItem : () => true,
          onKept: (answer, places) =>
            batches.push({ rows: places.map((place) => answer.orders[place]!), wire: wireRowsAt(answer.wire, places, answer.orders.length) }),
          onPage: (pagesDone, pagesTotal, kept) => onProgress?.({ pagesDone, pagesTotal, items: kept }),
          signal,
          ...(sinceMs !== null ? { listedSinceMs: sinceMs } : {})
        }
      )
      const { listed, answered, complete, capped } = read
      // Read short of the count (not by the cap): what it found is kept, and the same range is looked at again later.
      const short = !complete && !capped
      await snapshot.keepOlderOpen(batches, {
        beforeMs: short ? sinceMs : beforeMs,
        checkedMs,
        ...(sinceMs === null ? { whole: { listed, answered, complete } } : {}),
        error: short ? `The marketplace answered ${answered.toLocaleString('en-US')} of the ${listed.toLocaleString('en-US')} older orders it counted.` : null
      })
    } catch (error) {
      if (signal.aborted) throw error
      await snapshot.olderOpenFailed(checkedMs, toErrorData(error).message)
    }
  }

  return { due, sweep }
}

export type OlderOpenSweep = ReturnType<typeof createOlderOpenSweep>
