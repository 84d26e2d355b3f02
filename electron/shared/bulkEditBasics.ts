/**
 * The bulk-edit contract's plain values: the grid's page sizes, the warning rules' defaults and the field
 * each operation changes. Apart from the contract's schemas (contract/bulkEdit.ts, which re-exports them)
 * so the renderer's first bundle, whose Bulk edit store uses them, loads no zod.
 */
import type { BulkField, BulkOperation } from './contract/bulkEdit'
import type { ListingFieldKey } from './listingFieldKeys'

/**
 * The pages the grid reads: a small first one, so rows show at once, then pages small enough that a
 * call arriving meanwhile waits only briefly for the core (bench/responsiveness.bench.ts).
 */
export const BULK_GRID_FIRST_PAGE = 500
export const BULK_GRID_PAGE = 1_000

export interface WarningRules {
  /** Warn when a price moves by more than this percentage. */
  priceChangePercent: number
  /** Warn when a new price falls below this, or null. */
  priceFloorCents: number | null
  /** Warn when a quantity falls by more than this percentage (a slipped digit: 432 → 12), unless to 0. */
  quantityCutPercent: number
}

/** The rules a new window starts with, until the seller changes them (Bulk edit's Warnings…). */
export const DEFAULT_WARNING_RULES: WarningRules = { priceChangePercent: 50, priceFloorCents: null, quantityCutPercent: 90 }

/**
 * Each operation: the field it changes, by its descriptor's key (listingFields.ts), and whether it works
 * from the value a cell holds (adjust by a percentage or an amount) rather than set one of its own.
 */
const OPERATIONS: Record<BulkOperation['kind'], { field: ListingFieldKey; fromHeld: boolean }> = {
  setPrice: { field: 'priceCents', fromHeld: false },
  adjustPricePercent: { field: 'priceCents', fromHeld: true },
  adjustPriceAmount: { field: 'priceCents', fromHeld: true },
  setQuantity: { field: 'quantity', fromHeld: false },
  adjustQuantity: { field: 'quantity', fromHeld: true }
}

export const bulkOperationField = (operation: BulkOperation): BulkField => OPERATIONS[operation.kind].field

export const worksFromValueHeld = (operation: BulkOperation): boolean => OPERATIONS[operation.kind].fromHeld
