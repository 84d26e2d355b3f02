/**
 * Applying a batch from the apply queue: each listing's pending changes go to the marketplace as one
 * PATCH of the changed fields under their descriptors' wire names (`{price, quantity}`), a few listings
 * at a time. Before each PATCH the listing's `updatedAt` in the snapshot (kept fresh by sync; the API
 * has no read by id) is compared with the one the change was staged on: if it moved, the change is a conflict and nothing is overwritten, unless the listing
 * already holds the new values (e.g. the app was closed after the marketplace took the change but before
 * it was recorded).
 *
 * Outcomes are written to the queue in batches: one transaction every `flushMs` (and at the end), with
 * the listings the marketplace sent back. A crash loses at most the outcomes of that interval, and only
 * as "still pending": on resume those changes are sent again (a PATCH sets values, so sending one twice
 * is harmless), or, once a sync has brought the marketplace's values, found already applied.
 */
import type { BulkField } from '../../shared/contract'
import { SellerDeskError, toErrorData, type ErrorData } from '../../shared/errors'
import type { SellerApi, WireText } from '../sellerApi'
import type { SellRequest } from '../../shared/domain'
import { LISTING_FIELD_SET, type FieldSet } from '../../shared/listingFields'
import type { ListingChanges, Outcome } from '../snapshot/bulkEditStore'
import type { Snapshot } from '../snapshot/snapshot'
import type { CurrentListing } from '../snapshot/listingValues'
import { fieldsNotTaken, notTakenMessage, readBackCause, readBackMessage, readBackVerdict, type ReadBackCause } from '../readBack'
import { createTurnQueue, nextTurn } from '../eventLoopTurns'
import { createSlots, forEachBounded } from '../sync/boundedConcurrency'
import { fieldValue } from './changeSet'

/** Listings sent at a time, in the app and in the benchmark. */
export const DEFAULT_APPLY_CONCURRENCY = 8
/** Outcomes are written to the queue at least this often (and at the end of a run). */
export const DEFAULT_OUTCOME_FLUSH_MS = 100

export interface ApplyRunProgress {
  /** Changes settled during this run, and how many were pending when it started. */
  done: number
  total: number
  /** Of `done`, by outcome (held here, so a report needs no write or read of the queue). */
  applied: number
  failed: number
  conflict: number
  /** When the run started (`now()`), and wall time so far. */
  startedMs: number
  elapsedMs: number
}

export interface ApplyRunOptions {
  snapshot: Snapshot
  api: SellerApi
  batchId: string
  concurrency?: number
  flushMs?: number
  /** Aborting stops new PATCHes; those in flight finish and are recorded. */
  signal: AbortSignal
  /** Aborting this too stops the PATCHes in flight (closing the app): their changes stay pending, to be checked on resume. */
  hardStop?: AbortSignal
  /** Why pending changes left by an abort are cancelled; null keeps them pending (to resume later). */
  cancelledMessage: () => string | null
  /** Called after each settled listing, with the run's progress (one object, updated in place; the queue holds these outcomes within `flushMs`). */
  onSettled?: (progress: ApplyRunProgress) => void
  now?: () => number
  /** The fields a change may be to (default: Seller Desk's). */
  fields?: FieldSet
  /**
   * Reads the sell requests back from the marketplace (a pass begun now), resolving with null once read:
   * how changes whose outcome the marketplace did not tell (answered unreadably, or not at all) are
   * judged at the end of the run. Without it they stay unknown.
   */
  readBack?: () => Promise<ErrorData | null>
}

/**
 * Listings written per transaction as the marketplace sent them back (by the snapshot's thread: see
 * Snapshot.putSellRequest): each also writes its document and seven indexes, and a write of the core
 * waits for at most one such transaction (a flush holds every answer since the last).
 */
const LISTINGS_PER_WRITE = 8

/** Listings whose pending changes, then values, a run reads in one statement as it starts (see runBatch): a short turn of the core. */
const VALUES_PER_READ = 100

/**
 * The answers to several PATCHes as rows arrays for the snapshot, LISTINGS_PER_WRITE to an array (each
 * answer is a one-row array at `$`; one at another path stays alone).
 */
function mergedRows(edited: { sellRequest: SellRequest; wire: WireText }[]): { rows: SellRequest[]; wire: WireText }[] {
  const plain = edited.filter((e) => e.wire.path === '$' && e.wire.json.startsWith('[') && e.wire.json.endsWith(']'))
  const other = edited.filter((e) => !plain.includes(e))
  const batches: { rows: SellRequest[]; wire: WireText }[] = []
  for (let start = 0; start < plain.length; start += LISTINGS_PER_WRITE) {
    const part = plain.slice(start, start + LISTINGS_PER_WRITE)
    batches.push({ rows: part.map((e) => e.sellRequest), wire: { json: `[${part.map((e) => e.wire.json.slice(1, -1)).join(',')}]`, path: '$' } })
  }
  for (const e of other) batches.push({ rows: [e.sellRequest], wire: e.wire })
  return batches
}

export async function runBatch(options: ApplyRunOptions): Promise<void> {
  const { snapshot, api, batchId, signal } = options
  const descriptors = options.fields ?? LISTING_FIELD_SET
  const store = snapshot.bulkEdit
  const now = options.now ?? Date.now
  const flushMs = options.flushMs ?? DEFAULT_OUTCOME_FLUSH_MS
  const started = now()
  // A turn of its own (the refresh sync before the run ends in the turn that calls it), and so each part of
  // what follows: a batch's changes and its listings' values read at once grow with the batch. The
  // values are the snapshot's as the run starts (just refreshed): a read per part, not one per listing.
  const listings: ListingChanges[] = []
  const current = new Map<string, CurrentListing>()
  for (let after = ''; ;) {
    await nextTurn()
    const part = store.pendingChanges(batchId, after, VALUES_PER_READ)
    listings.push(...part)
    await nextTurn()
    for (const [id, listing] of store.listingsById(
      part.map((listing) => listing.sellRequestId),
      descriptors
    ))
      current.set(id, listing)
    if (part.length < VALUES_PER_READ) break
    after = part.at(-1)!.sellRequestId
  }
  // Listings the marketplace now sends in a form that cannot be read (the catch-up before the run found
  // them): the snapshot shows them as they were, which says nothing of what the marketplace holds now.
  const unreadable = new Map(snapshot.unreadable('sellRequests').flatMap((row) => (row.id === null ? [] : [[row.id, row.problem] as const])))
  const total = listings.reduce((sum, listing) => sum + listing.changes.length, 0)
  await nextTurn()
  const progress: ApplyRunProgress = { done: 0, total, applied: 0, failed: 0, conflict: 0, startedMs: started, elapsedMs: 0 }
  // The PATCHes in flight go out together and their answers come back together: each is read (and the next
  // listing's PATCH sent) in a turn of its own, so a call arriving meanwhile waits for one answer's
  // work at most, not for all of them.
  const turn = createTurnQueue()
  const callOptions = { beforeReading: turn, ...(options.hardStop ? { signal: options.hardStop } : {}) }
  // At most `concurrency` PATCHes on the wire. A listing whose answer is in gives its slot to the next
  // one before the answer is read, so the reading overlaps the network instead of delaying the next PATCH.
  const concurrency = options.concurrency ?? DEFAULT_APPLY_CONCURRENCY
  const network = createSlots(concurrency)
  await store.markStarted(batchId, started)

  let outcomes: Outcome[] = []
  let edits: { sellRequest: SellRequest; wire: WireText }[] = []
  let timer: ReturnType<typeof setTimeout> | null = null
  let flushFailure: { error: unknown } | null = null

  /** What the flushes so far write; rejected once an outcome could not be written. */
  let written: Promise<void> = Promise.resolve()
  /**
   * Writes the outcomes so far in one transaction, then hands the listings as the marketplace sent them
   * back to the snapshot's thread, a part at a time; resolves once all of it is written.
   */
  function flush(): Promise<void> {
    if (timer) clearTimeout(timer)
    timer = null
    if (outcomes.length === 0) return written
    const settled = store.settle(batchId, outcomes)
    const parts = mergedRows(edits)
    const listings = (async () => {
      for (const part of parts) {
        // Their own transactions: a part that cannot be written costs only itself (the next sync brings it).
        await snapshot.putSellRequest(part).catch(() => undefined)
      }
    })()
    outcomes = []
    edits = []
    // Settled whole before it says how it went: a run that ends on a failure leaves no write behind it.
    written = Promise.allSettled([written, settled, listings]).then((results) => {
      for (const result of results) if (result.status === 'rejected') throw result.reason
    })
    return written
  }

  function flushSoon() {
    if (timer || flushFailure) return
    timer = setTimeout(() => {
      timer = null
      flush().catch((error: unknown) => {
        flushFailure ??= { error }
      })
    }, flushMs)
    timer.unref?.()
  }

  const record = (sellRequestId: string, fields: BulkField[], status: 'applied' | 'failed' | 'conflict', message: string | null) => {
    const ms = now()
    outcomes.push({ sellRequestId, fields, status, message, ms })
    progress.done += fields.length
    progress[status] += fields.length
    progress.elapsedMs = ms - started
    flushSoon()
    options.onSettled?.(progress)
  }

  /**
   * Changes whose outcome the marketplace did not tell (readBack.ts: answered unreadably, most likely
   * made; or not answered at all, maybe made): pending until the run reads the listings back at its end,
   * which decides applied or failed. A run stopped before that leaves them pending, found applied or
   * sent again on resume.
   */
  const toReadBack: { sellRequestId: string; cause: ReadBackCause; fields: { field: BulkField; after: number }[] }[] = []

  async function judgeByReadBack(): Promise<void> {
    if (toReadBack.length === 0) return
    const failure = options.readBack ? await options.readBack() : { kind: 'internal' as const, message: 'Nothing to read the listings back with.' }
    // Closing (stopped, not cancelled) before they could be read back: pending, to be judged on resume.
    if (options.hardStop?.aborted || (failure && signal.aborted && options.cancelledMessage() === null)) return
    const now = failure
      ? new Map<string, never>()
      : store.listingsById(
          toReadBack.map((listing) => listing.sellRequestId),
          descriptors
        )
    for (const { sellRequestId, cause, fields } of toReadBack) {
      const listing = now.get(sellRequestId) ?? null
      for (const { field, after } of fields) {
        const verdict = readBackVerdict(failure, listing, field, after)
        if (verdict === 'made') record(sellRequestId, [field], 'applied', null)
        else {
          const why = readBackMessage(verdict, { cause, fields: [field], now: listing, descriptors })
          // Sent again, a change already made sets the same value: harmless, and said so.
          record(
            sellRequestId,
            [field],
            'failed',
            verdict === 'unknown' ? `${why} Retrying sends the same value again, which changes nothing if it was made.` : why
          )
        }
      }
    }
  }

  async function applyListing({ sellRequestId, changes }: ListingChanges): Promise<void> {
    if (flushFailure) throw flushFailure.error
    const listing = current.get(sellRequestId)
    if (!listing) {
      record(
        sellRequestId,
        changes.map((c) => c.field),
        'failed',
        'This listing is no longer in your sell requests (deleted on the marketplace?). Sync, then stage it again if it still exists.'
      )
      return
    }
    const problem = unreadable.get(sellRequestId)
    if (problem !== undefined) {
      // Its update time, which tells a change made on the marketplace since it was staged, is the one of
      // the copy held: sending would overwrite whatever the marketplace holds now, unseen.
      record(
        sellRequestId,
        changes.map((c) => c.field),
        'failed',
        `The marketplace now sends this listing in a form Seller Desk cannot read (${problem}), so whether it changed since you staged this cannot be told: nothing was sent. Correct it on the marketplace; once a sync reads it, stage the change again.`
      )
      return
    }
    const currentMs = Date.parse(listing.updatedAt)
    const valueNow = (field: BulkField) => fieldValue(listing, field)
    const toSend = changes.filter((change) => {
      if (change.baseUpdatedMs === currentMs) return true
      if (valueNow(change.field) === change.after) {
        // Already holds the new value: e.g. sent before a crash, and the outcome was not recorded yet.
        record(sellRequestId, [change.field], 'applied', null)
      } else {
        const field = descriptors.get(change.field)
        const message = `Changed on the marketplace since you staged this (${field.wire} is now ${field.display(valueNow(change.field))}). Nothing was overwritten: stage it again to apply.`
        record(sellRequestId, [change.field], 'conflict', message)
      }
      return false
    })
    if (toSend.length === 0) return
    const patch: Record<string, number> = {}
    for (const change of toSend) patch[change.field] = change.after
    const fields = toSend.map((change) => change.field)
    let edited: Awaited<ReturnType<typeof api.editSellRequest>>
    const release = await network.acquire()
    // Stopped while it waited for the wire: not sent, so it stays pending as the listings not begun.
    if (signal.aborted) return release()
    try {
      const values = Object.fromEntries(descriptors.all.map((field) => [field.key, valueNow(field.key)]))
      edited = await api.editSellRequest(sellRequestId, patch, { ...callOptions, onAnswered: release }, values)
    } catch (error) {
      // Stopped in flight (the app is closing): the marketplace may or may not have it. It stays
      // pending; on resume it is found applied, or sent again.
      if (options.hardStop?.aborted) return
      const cause = error instanceof SellerDeskError ? readBackCause(error) : null
      if (cause) {
        toReadBack.push({ sellRequestId, cause, fields: toSend.map((change) => ({ field: change.field, after: change.after })) })
        return
      }
      record(sellRequestId, fields, 'failed', toErrorData(error).message)
      return
    } finally {
      release()
    }
    // The marketplace answered with the listing as it now is: that is the outcome, whatever happens to
    // the local copy next. A field it holds at another value than sent (clamped, held for review, its own
    // rule) was not set as asked, whatever its answer's words.
    edits.push(edited)
    const notTaken = fieldsNotTaken(edited.sellRequest, patch)
    const taken = fields.filter((field) => !notTaken.includes(field))
    if (taken.length > 0) record(sellRequestId, taken, 'applied', null)
    for (const field of notTaken) record(sellRequestId, [field as BulkField], 'failed', notTakenMessage(field, edited.sellRequest, patch[field]!, descriptors))
  }

  try {
    // Twice as many lanes as slots: as many listings may be read as are on the wire.
    await forEachBounded(listings, 2 * concurrency, applyListing, signal)
  } catch (error) {
    if (!signal.aborted || flushFailure) throw error
  } finally {
    if (timer) clearTimeout(timer)
    timer = null
    // Flushes still waiting their turn land before the run ends (the snapshot may be closed right after).
    await written.catch(() => undefined)
  }
  // (Set by the flush timer, which TypeScript cannot follow.)
  if (flushFailure) throw (flushFailure as { error: unknown }).error
  await judgeByReadBack()
  await flush()
  await store.finishRun(batchId, now(), signal.aborted ? options.cancelledMessage() : null)
}
