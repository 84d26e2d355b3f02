/**
 * Bulk operations on a selection of listings: set a price, adjust prices by a percentage or an amount
 * (rounded to whole cents, half away from zero), set a quantity, add to or subtract from quantities.
 * Pure: a listing's values in, proposed changes out. A result outside the rules (a quantity below 0, a
 * price of 0 or less) is proposed as it is and marked invalid by the change set, never clamped.
 */
import { bulkOperationField, worksFromValueHeld, type BulkField, type BulkOperation } from '../../shared/contract'
import { fieldValue, type ProposedChange } from './changeSet'
import type { ListingBase } from './currentListings'

/**
 * A pending change as an operation builds on it: what the seller sees, the `updatedAt` it was staged
 * against (kept, so a conflict stays visible), and why it cannot be applied, if it cannot.
 */
export type PendingOf = (sellRequestId: string, field: BulkField) => { after: number; baseUpdatedAt: string; invalid: string | null } | undefined

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

/**
 * The changes an operation proposes for each listing of the selection, on top of what is pending there.
 * A pending value that cannot be applied (a mistyped "12.345") is no value to work from: an operation
 * that works from the value held leaves that cell as it is, its reason with it, rather than make a
 * value that can be applied out of a mistake.
 */
export function proposeChanges(listings: Iterable<ListingBase>, operation: BulkOperation, pending: PendingOf = () => undefined): ProposedChange[] {
  const field = bulkOperationField(operation)
  const relative = worksFromValueHeld(operation)
  const out: ProposedChange[] = []
  for (const listing of listings) {
    const before = fieldValue(listing, field)
    const staged = pending(listing.id, field)
    if (relative && staged?.invalid) continue
    out.push({
      sellRequestId: listing.id,
      field,
      before,
      after: nextValue(operation, staged?.after ?? before),
      baseUpdatedAt: staged?.baseUpdatedAt ?? listing.updatedAt
    })
  }
  return out
}
