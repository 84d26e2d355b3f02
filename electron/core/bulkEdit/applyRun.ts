/**
 * Applying a batch from the apply queue: each listing's pending changes go to the marketplace as one
 * PATCH `{price, quantity}`, a few listings at a time. Before each PATCH the listing's `updatedAt` in
 * the snapshot (kept fresh by sync; the API has no read by id) is compared with the one the change was
 * staged on: if it moved, the change is a conflict and nothing is overwritten, unless the listing
 * already holds the new values (e.g. the app was closed after the marketplace took the change but before
 * it was recorded). Every outcome is written to the queue as it happens, so a crash loses nothing: the
 * changes still pending are sent again on resume (a PATCH sets values, so sending one twice is harmless).
 */
import type { BulkField } from '../contract'
import { toErrorData } from '../errors'
import type { SellerApi, SellRequestChange } from '../sellerApi'
import type { Snapshot } from '../snapshot/snapshot'
import { forEachBounded } from '../sync/boundedConcurrency'
import { finishRun, markStarted, pendingChanges, settle, type ListingChanges } from './applyQueue'
import { listingsById } from './currentListings'

export const DEFAULT_APPLY_CONCURRENCY = 8

export interface ApplyRunProgress {
  /** Changes settled during this run, and how many were pending when it started. */
  done: number
  total: number
  /** Wall time so far. */
  elapsedMs: number
}

export interface ApplyRunOptions {
  snapshot: Snapshot
  api: SellerApi
  batchId: string
  concurrency?: number
  /** Aborting stops new PATCHes; those in flight finish and are recorded. */
  signal: AbortSignal
  /** Why pending changes left by an abort are cancelled; null keeps them pending (to resume later). */
  cancelledMessage: () => string | null
  onSettled?: (progress: ApplyRunProgress) => void
  now?: () => number
}

const fieldName = (field: BulkField) => (field === 'priceCents' ? 'price' : 'quantity')

function describeValue(field: BulkField, value: number): string {
  return field === 'priceCents' ? (value / 100).toFixed(2) : String(value)
}

export async function runBatch(options: ApplyRunOptions): Promise<void> {
  const { snapshot, api, batchId, signal } = options
  const db = snapshot.database
  const now = options.now ?? Date.now
  const started = now()
  const listings = pendingChanges(db, batchId)
  const total = listings.reduce((sum, listing) => sum + listing.changes.length, 0)
  let done = 0
  markStarted(db, batchId, started)

  const record = (sellRequestId: string, fields: BulkField[], status: 'applied' | 'failed' | 'conflict', message: string | null) => {
    settle(db, batchId, sellRequestId, fields, status, message, now())
    done += fields.length
    options.onSettled?.({ done, total, elapsedMs: now() - started })
  }

  async function applyListing({ sellRequestId, changes }: ListingChanges): Promise<void> {
    const current = listingsById(db, [sellRequestId]).get(sellRequestId)
    if (!current) {
      record(sellRequestId, changes.map((c) => c.field), 'failed', 'This listing is no longer in your sell requests (deleted on the marketplace?). Sync, then stage it again if it still exists.')
      return
    }
    const currentMs = Date.parse(current.updatedAt)
    const valueNow = (field: BulkField) => (field === 'priceCents' ? current.priceCents : current.quantity)
    const toSend = changes.filter((change) => {
      if (change.baseUpdatedMs === currentMs) return true
      if (valueNow(change.field) === change.after) {
        record(sellRequestId, [change.field], 'applied', null)
      } else {
        const message = `Changed on the marketplace since you staged this (${fieldName(change.field)} is now ${describeValue(change.field, valueNow(change.field))}). Nothing was overwritten: stage it again to apply.`
        record(sellRequestId, [change.field], 'conflict', message)
      }
      return false
    })
    if (toSend.length === 0) return
    const patch: SellRequestChange = {}
    for (const change of toSend) patch[change.field] = change.after
    const fields = toSend.map((change) => change.field)
    let edited: Awaited<ReturnType<typeof api.editSellRequest>>
    try {
      edited = await api.editSellRequest(sellRequestId, patch)
    } catch (error) {
      record(sellRequestId, fields, 'failed', toErrorData(error).message)
      return
    }
    // The marketplace took it: that is the outcome, whatever happens to the local copy next.
    record(sellRequestId, fields, 'applied', null)
    try {
      snapshot.putSellRequest({ rows: [edited.sellRequest], wire: edited.wire })
    } catch {
      // The next sync brings the new values into the snapshot.
    }
  }

  try {
    await forEachBounded(listings, options.concurrency ?? DEFAULT_APPLY_CONCURRENCY, applyListing, signal)
  } catch (error) {
    if (!signal.aborted) throw error
  }
  finishRun(db, batchId, now(), signal.aborted ? options.cancelledMessage() : null)
}
