import { DEFAULT_WARNING_RULES } from '@shared/contract'
import { priceField, quantityField } from '@shared/listingFields'
import { describe, expect, it } from 'vitest'
import { markVerdict, type CellMark, type GridRow } from './gridCells'

const row = (price: string, priceNow: string, priceMark: CellMark | null, quantity = 10, quantityNow = 10, quantityMark: CellMark | null = null): GridRow => ({
  id: 'id-1',
  name: 'Phone',
  sku: 'SKU-1',
  brand: 'Brand',
  grade: 'A',
  color: 'Black',
  storage: '128GB',
  carrier: 'Unlocked',
  status: 'Open',
  updatedAt: '2026-11-01T00:00:00.000Z',
  priceNow,
  quantityNow,
  price,
  quantity,
  priceMark,
  quantityMark
})
const rules = { ...DEFAULT_WARNING_RULES, priceChangePercent: 50, quantityCutPercent: 90 }

describe('a marked cell’s verdict: its kind, and its words made from the values its change was judged by', () => {
  const warned = (after: number, warnsFrom: number): CellMark => ({ invalid: null, after, warnsFrom })

  it('words a warning by the field’s rule from the listing’s value then and the value staged', () => {
    expect(markVerdict(priceField, row('1600.00', '1000.00', warned(160_000, 100_000)), rules)).toEqual({
      kind: 'warning',
      words: 'Price rises by 60% (from $1,000.00 to $1,600.00).'
    })
    expect(markVerdict(quantityField, row('1.00', '1.00', null, 1, 432, warned(1, 432)), rules)).toEqual({
      kind: 'warning',
      words: 'Quantity falls by 99.7% (from 432 to 1).'
    })
  })

  it('keeps the change’s words once a sync has moved the listing’s value (as Review words it), not the row’s value now', () => {
    expect(markVerdict(priceField, row('1600.00', '1550.00', warned(160_000, 100_000)), rules)?.words).toBe('Price rises by 60% (from $1,000.00 to $1,600.00).')
  })

  it('says why a change cannot be applied, whether or not it would also warn', () => {
    expect(markVerdict(priceField, row('0.00', '1000.00', { invalid: 'Price must be more than 0.', after: 0, warnsFrom: 100_000 }), rules)).toEqual({
      kind: 'invalid',
      words: 'Price must be more than 0.'
    })
  })

  it('has no words for a pending change without a warning, or a warned one the page’s rules no longer find', () => {
    expect(markVerdict(priceField, row('1600.00', '1000.00', { invalid: null, after: 160_000, warnsFrom: null }), rules)).toEqual({
      kind: 'staged',
      words: null
    })
    // New rules saved, their marks on the way: still marked as warned, but the page's rules find no warning to word.
    expect(markVerdict(priceField, row('1600.00', '1000.00', warned(160_000, 100_000)), { ...rules, priceChangePercent: 70 })).toEqual({
      kind: 'warning',
      words: null
    })
  })

  it('is null for a cell with no pending change', () => {
    expect(markVerdict(priceField, row('1600.00', '1000.00', null), rules)).toBeNull()
  })
})
