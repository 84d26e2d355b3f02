import { DEFAULT_WARNING_RULES } from '@shared/contract'
import { priceField, quantityField } from '@shared/listingFields'
import { describe, expect, it } from 'vitest'
import { markWarning, type CellMark, type GridRow } from './gridCells'

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

describe('a warned cell’s words, made from the values its change was judged by', () => {
  const warned = (after: number, warnsFrom: number): CellMark => ({ invalid: null, after, warnsFrom })

  it('words the field’s rule from the listing’s value then and the value staged', () => {
    expect(markWarning(priceField, row('1600.00', '1000.00', warned(160_000, 100_000)), rules)).toBe('Price rises by 60% (from $1,000.00 to $1,600.00).')
    expect(markWarning(quantityField, row('1.00', '1.00', null, 1, 432, warned(1, 432)), rules)).toBe('Quantity falls by 99.7% (from 432 to 1).')
  })

  it('keeps the change’s words once a sync has moved the listing’s value (as Review words it), not the row’s value now', () => {
    expect(markWarning(priceField, row('1600.00', '1550.00', warned(160_000, 100_000)), rules)).toBe('Price rises by 60% (from $1,000.00 to $1,600.00).')
  })

  it('says nothing of a cell without a warning, of one that cannot be applied, or under rules that no longer find one', () => {
    expect(markWarning(priceField, row('1600.00', '1000.00', null), rules)).toBeNull()
    expect(markWarning(priceField, row('1600.00', '1000.00', { invalid: null, after: 160_000, warnsFrom: null }), rules)).toBeNull()
    expect(markWarning(priceField, row('0.00', '1000.00', { invalid: 'Price must be more than 0.', after: 0, warnsFrom: 100_000 }), rules)).toBeNull()
    // New rules saved, their marks on the way: the page's rules no longer find a warning in it.
    expect(markWarning(priceField, row('1600.00', '1000.00', warned(160_000, 100_000)), { ...rules, priceChangePercent: 70 })).toBeNull()
  })
})
