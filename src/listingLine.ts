/**
 * A listing named so that listings with the same name can be told apart: its name, then its SKU, grade
 * and price. Used wherever the seller is asked about, or told about, particular listings (delete).
 */
import type { SellRequest } from '@shared/domain'
import { formatCount } from '@shared/formatCount'
import { formatMoney } from '@shared/money'

export type NamedListing = Pick<SellRequest, 'name' | 'sku' | 'priceCents' | 'properties'>

/** A listing's grade in words: "Grade A", or the grade as the marketplace says it when it names itself ("Grade B+"). */
export const gradeWords = (grade: string): string => (/grade/i.test(grade) ? grade : `Grade ${grade}`)

/** SKU, grade (when the listing has one) and price: what tells two listings of one product apart. */
export function listingDetails(listing: NamedListing): string {
  const grade = listing.properties?.['grade']?.trim()
  return [listing.sku ? `SKU ${listing.sku}` : null, grade ? gradeWords(grade) : null, formatMoney(listing.priceCents)]
    .filter((part): part is string => part !== null)
    .join(', ')
}

/**
 * A listing named in a sentence or a status line, short: its name quoted, then its SKU, which tells apart
 * the listings of one model (they share a name). A listing without a SKU is named by its name alone.
 */
export function nameAndSku(listing: Pick<NamedListing, 'name' | 'sku'>): string {
  return listing.sku ? `“${listing.name}” (${listing.sku})` : `“${listing.name}”`
}

export function listingLine(listing: NamedListing): string {
  return `${listing.name} — ${listingDetails(listing)}`
}

/** The question before deleting listings: one word for them ("listing"), and each one named apart. */
export function deleteQuestion(listings: readonly NamedListing[]): { title: string; question: string; lines: string[]; warning: string; confirm: string } {
  const one = listings.length === 1
  return {
    title: one ? 'Delete listing' : `Delete ${formatCount(listings.length, 'listing', 'listings')}`,
    question: one ? 'Delete this listing?' : `Delete these ${formatCount(listings.length, 'listing', 'listings')}?`,
    lines: listings.map(listingLine),
    warning: `Buyers will no longer see ${one ? 'it' : 'them'}. This cannot be undone.`,
    confirm: one ? 'Delete listing' : `Delete ${formatCount(listings.length, 'listing', 'listings')}`
  }
}
