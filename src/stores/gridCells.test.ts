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

describe('a warned cell’s words, made from the values its row shows', () => {
  it('words the field’s rule from the current and the pending value', () => {
    expect(markWarning(priceField, row('1600.00', '1000.00', { invalid: null, warns: true }), rules)).toBe('Price rises by 60% (from $1,000.00 to $1,600.00).')
    expect(markWarning(quantityField, row('1.00', '1.00', null, 1, 432, { invalid: null, warns: true }), rules)).toBe(
      'Quantity falls by 99.7% (from 432 to 1).'
    )
  })

  it('says nothing of a cell without a warning, of one that cannot be applied, or of one whose values no longer concern the rule', () => {
    expect(markWarning(priceField, row('1600.00', '1000.00', null), rules)).toBeNull()
    expect(markWarning(priceField, row('1600.00', '1000.00', { invalid: null, warns: false }), rules)).toBeNull()
    expect(markWarning(priceField, row('0.00', '1000.00', { invalid: 'Price must be more than 0.', warns: false }), rules)).toBeNull()
    // Read again since it was staged: the price now is close to the pending one.
    expect(markWarning(priceField, row('1600.00', '1550.00', { invalid: null, warns: true }), rules)).toBeNull()
  })
})
