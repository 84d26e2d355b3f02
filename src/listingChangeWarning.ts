/**
 * What a seller is told before one listing's value changes, wherever it is changed one listing at a time
 * (the Edit dialog, a cell of the Sell requests list): the seller's warning rules (Bulk edit's Warnings…:
 * a large price move or quantity cut, a price under the floor), a quantity raised far (quantityRise) and,
 * for the quantity, that nobody can buy the listing below its minimum order. Null when the value is
 * unchanged or nothing applies.
 */
import type { WarningRules } from '@shared/contract'
import type { SellRequest } from '@shared/domain'
import type { ListingFieldKey } from '@shared/listingFieldKeys'
import { belowMinimumOrder, moveSentence, quantityField, quantityRisesFar, type ListingField } from '@shared/listingFields'

export function listingChangeWarning(
  field: ListingField,
  listing: Pick<SellRequest, 'priceCents' | 'quantity' | 'minQuantity'>,
  next: number,
  rules: WarningRules
): string | null {
  const before = (listing as Record<string, number>)[field.key]
  if (before === undefined || next === before) return null
  const own = FIELD_CHECKS[field.key as ListingFieldKey] ?? []
  const warnings = [field.warning(before, next, rules), ...own.map((check) => check(before, next, rules, listing))]
  return warnings.filter(Boolean).join(' ') || null
}

/** What one listing's change of a field is checked for beyond the seller's rules (field.warning), by field. */
type FieldCheck = (before: number, next: number, rules: WarningRules, listing: Pick<SellRequest, 'minQuantity'>) => string | null
const FIELD_CHECKS: Partial<Record<ListingFieldKey, readonly FieldCheck[]>> = {
  quantity: [(before, next, rules) => quantityRise(before, next, rules), (_before, next, _rules, listing) => belowMinimumOrder(next, listing.minQuantity)]
}

/**
 * A quantity raised far, said as a price moved far is: a slipped digit would offer stock the seller
 * does not have. Judged by the seller's own quantity rule read the other way (quantityRisesFar).
 * Bulk edit does not ask this of each row: a file of restocks raises many quantities at once, meant.
 */
function quantityRise(before: number, next: number, rules: WarningRules): string | null {
  return quantityRisesFar(before, next, rules) ? moveSentence(quantityField, before, next) : null
}
