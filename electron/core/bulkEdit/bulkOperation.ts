/**
 * Bulk operations on a selection of listings: set a price, adjust prices by a percentage or an amount
 * (rounded to whole cents, half away from zero), set a quantity, add to or subtract from quantities.
 * Pure: a listing's values in, proposed changes out. A result outside the rules (a quantity below 0, a
 * price of 0 or less) is proposed as it is and marked invalid by the change set, never clamped.
 */
import type { BulkField, BulkOperation } from '../../shared/contract'
import { fieldValue, type ProposedChange } from './changeSet'

/** A listing as an operation sees it: its current values, and the values it would have with pending changes. */
export interface ListingValues {
  sellRequestId: string
  priceCents: number
  quantity: number
  updatedAt: string
  /** The pending price / quantity, where one is staged: operations build on what the seller sees. */
  pendingPriceCents?: number | undefined
  pendingQuantity?: number | undefined
  /** The `updatedAt` the pending change was staged against: an operation on top keeps it (a conflict stays visible). */
  pendingPriceBase?: string | undefined
  pendingQuantityBase?: string | undefined
}

/** n / d rounded to the nearest integer, halves away from zero. Exact for integers below 2^53. */
export function divideRounded(n: number, d: number): number {
  const q = Math.trunc(n / d)
  const r = n - q * d
  return 2 * Math.abs(r) >= Math.abs(d) ? q + Math.sign(n) * Math.sign(d) : q
}

/** cents × (1 + percent / 100), rounded to whole cents half away from zero (percent has ≤ 2 decimals). */
export function priceAdjustedByPercent(cents: number, percent: number): number {
  const hundredths = Math.round(percent * 100)
  return divideRounded(cents * (10_000 + hundredths), 10_000)
}

export function fieldOf(operation: BulkOperation): BulkField {
  return operation.kind === 'setPrice' || operation.kind === 'adjustPricePercent' || operation.kind === 'adjustPriceAmount' ? 'priceCents' : 'quantity'
}

function nextValue(operation: BulkOperation, value: number): number {
  switch (operation.kind) {
    case 'setPrice':
      return operation.priceCents
    case 'adjustPricePercent':
      return priceAdjustedByPercent(value, operation.percent)
    case 'adjustPriceAmount':
      return value + operation.amountCents
    case 'setQuantity':
      return operation.quantity
    case 'adjustQuantity':
      return value + operation.delta
  }
}

/** The changes an operation proposes for each listing of the selection. */
export function proposeChanges(listings: Iterable<ListingValues>, operation: BulkOperation): ProposedChange[] {
  const field = fieldOf(operation)
  const out: ProposedChange[] = []
  for (const listing of listings) {
    const before = fieldValue(listing, field)
    const shown = (field === 'priceCents' ? listing.pendingPriceCents : listing.pendingQuantity) ?? before
    const base = (field === 'priceCents' ? listing.pendingPriceBase : listing.pendingQuantityBase) ?? listing.updatedAt
    out.push({ sellRequestId: listing.sellRequestId, field, before, after: nextValue(operation, shown), baseUpdatedAt: base })
  }
  return out
}
