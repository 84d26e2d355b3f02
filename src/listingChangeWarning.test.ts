import { DEFAULT_WARNING_RULES } from '@shared/bulkEditBasics'
import { priceField, quantityField } from '@shared/listingFields'
import { describe, expect, it } from 'vitest'
import { listingChangeWarning } from './listingChangeWarning'

const listing = { priceCents: 10_000, quantity: 30, minQuantity: 1 }
const rules = { ...DEFAULT_WARNING_RULES, priceChangePercent: 50, quantityCutPercent: 90 }
const quantityTo = (next: number, under = rules, from = listing) => listingChangeWarning(quantityField, from, next, under)

describe('a change of one listing: what is said before it is saved', () => {
  it('a quantity raised far is warned about, as a price raised far is', () => {
    expect(listingChangeWarning(priceField, listing, 100_000, rules)).toBe('Price rises by 900% (from $100.00 to $1,000.00).')
    expect(quantityTo(1_000)).toBe('Quantity rises by 3,233% (from 30 to 1,000).')
    expect(quantityTo(5_000, rules, { ...listing, quantity: 12 })).toBe('Quantity rises by 41,567% (from 12 to 5,000).')
  })

  it('a rise is warned about from the same ratio as a cut: the seller’s percentage read both ways', () => {
    // At the rules' percentage: a cut past it warns, and a rise past the same ratio the other way.
    expect(quantityTo(3)).toBe(null)
    expect(quantityTo(2)).toBe('Quantity falls by 93% (from 30 to 2).')
    expect(quantityTo(300)).toBe(null)
    expect(quantityTo(301)).toBe('Quantity rises by 903% (from 30 to 301).')
    // At a lower percentage: the same line on each side, closer to the quantity it was.
    const half = { ...rules, quantityCutPercent: 50 }
    expect(quantityTo(15, half)).toBe(null)
    expect(quantityTo(14, half)).toBe('Quantity falls by 53% (from 30 to 14).')
    expect(quantityTo(60, half)).toBe(null)
    expect(quantityTo(61, half)).toBe('Quantity rises by 103% (from 30 to 61).')
  })

  it('a rise is said as a fall is: one short of doubling never reads as a doubling', () => {
    const low = { ...rules, quantityCutPercent: 40 }
    expect(quantityTo(1_999, low, { ...listing, quantity: 1_000 })).toBe('Quantity rises by 99.9% (from 1,000 to 1,999).')
    expect(quantityTo(400, low, { ...listing, quantity: 1_000 })).toBe('Quantity falls by 60% (from 1,000 to 400).')
  })

  it('a restock of a listing sold out, a sell-out and an unchanged quantity are not warned about', () => {
    expect(quantityTo(1_000, rules, { ...listing, quantity: 0 })).toBe(null)
    expect(quantityTo(0)).toBe(null)
    expect(quantityTo(30)).toBe(null)
  })

  it('a rise far yet under the minimum order says both', () => {
    expect(quantityTo(400, rules, { ...listing, quantity: 2, minQuantity: 500 })).toBe(
      'Quantity rises by 19,900% (from 2 to 400). Buyers buy at least 500, so with 400 in stock nobody can buy it.'
    )
  })
})
