/**
 * What a seller is told before one listing's value changes, wherever it is changed one listing at a time
 * (the Edit dialog, a cell of the Sell requests list): the seller's warning rules (Bulk edit's Warnings…:
 * a large price move or quantity cut, a price under the floor) and, for the quantity, that nobody can buy
 * the listing below its minimum order. Null when the value is unchanged or nothing applies.
 */
import type { WarningRules } from '@shared/contract'
import type { SellRequest } from '@shared/domain'
import { belowMinimumOrder, quantityField, type ListingField } from '@shared/listingFields'

export function listingChangeWarning(
  field: ListingField,
  listing: Pick<SellRequest, 'priceCents' | 'quantity' | 'minQuantity'>,
  next: number,
  rules: WarningRules
): string | null {
  const before = (listing as Record<string, number>)[field.key]
  if (before === undefined || next === before) return null
  const warnings = [field.warning(before, next, rules), field.key === quantityField.key ? belowMinimumOrder(next, listing.minQuantity) : null]
  return warnings.filter(Boolean).join(' ') || null
}
