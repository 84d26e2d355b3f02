import type { FilterEvaluationContext } from '@revolist/revogrid'
import { describe, expect, it } from 'vitest'
import { AMOUNT_FILTER, GRID_FILTER, unreadableAmountFilters } from './amountFilter'

const conditions = GRID_FILTER.customFilters!
/** Whether a cell of column `prop` holding `value` passes condition `name` with `typed` entered. */
const passes = (name: string, prop: string, value: unknown, typed: unknown) =>
  conditions[name]!.func(value, typed as string, { property: prop, sourceValue: value } as FilterEvaluationContext)

describe('the grid’s amount filter', () => {
  it('compares price cells (decimal text) with a price typed as the app reads prices', () => {
    expect(passes('amountGt', 'price', '306.00', '300')).toBe(true)
    expect(passes('amountGt', 'priceNow', '299.99', '300')).toBe(false)
    expect(passes('amountGt', 'price', '1299.50', '$1,000')).toBe(true)
    expect(passes('amountEq', 'price', '306.00', '306')).toBe(true)
    expect(passes('amountEq', 'price', '306.50', '306.5')).toBe(true)
    expect(passes('amountNotEq', 'price', '306.50', '306.50')).toBe(false)
    expect(passes('amountGte', 'price', '0.07', '0.07')).toBe(true)
    expect(passes('amountLt', 'price', '0.07', '0.08')).toBe(true)
    expect(passes('amountLte', 'price', '129.99', '129.98')).toBe(false)
    // A fraction of a cent (an invalid pending price) is compared as it is.
    expect(passes('amountGt', 'price', '12.345', '12.34')).toBe(true)
  })

  it('compares quantity cells (numbers) with a typed count', () => {
    expect(passes('amountGt', 'quantityNow', 301, '300')).toBe(true)
    expect(passes('amountEq', 'quantity', 0, '0')).toBe(true)
    expect(passes('amountLte', 'quantity', 12, '1,000')).toBe(true)
  })

  it('lets every row through while nothing is typed, none when what is typed is no number, and never a row not read yet', () => {
    expect(passes('amountGt', 'price', '10.00', '')).toBe(true)
    expect(passes('amountGt', 'price', '10.00', undefined)).toBe(true)
    expect(passes('amountGt', 'price', '10.00', 'abc')).toBe(false)
    expect(passes('amountNotEq', 'price', '10.00', 'abc')).toBe(false)
    expect(passes('amountGt', 'price', '', '0')).toBe(false)
  })

  it('offers only number conditions (no “Is blank”) under its own filter type', () => {
    expect(Object.values(conditions).map((c) => c.name)).toEqual(['=', '≠', '>', '≥', '<', '≤'])
    expect(new Set(Object.values(conditions).map((c) => c.columnFilterType))).toEqual(new Set([AMOUNT_FILTER]))
  })
})

describe('number filters that hold no number, said', () => {
  const names: Record<string, string> = { price: 'New price', priceNow: 'Price now', quantityNow: 'Qty now', name: 'Name' }
  const name = (prop: string) => names[prop] ?? prop

  it('names each column whose number filter holds what is no number, with why', () => {
    expect(unreadableAmountFilters({ quantityNow: [{ type: 'amountLt', value: 'lots' }] }, name)).toBe('Qty now filter: Not a number: “lots”.')
    expect(
      unreadableAmountFilters(
        {
          priceNow: [{ type: 'amountGt', value: 'abc' }],
          price: [
            { type: 'amountGte', value: '10' },
            { type: 'amountLt', value: '12..5' }
          ]
        },
        name
      )
    ).toBe('Price now filter: Not a number: “abc”. New price filter: Not a number: “12..5”.')
  })

  it('says nothing of values that read, of nothing typed yet, or of text filters', () => {
    expect(unreadableAmountFilters({}, name)).toBeNull()
    expect(unreadableAmountFilters({ priceNow: [{ type: 'amountGt', value: '$1,299.50' }], quantityNow: [{ type: 'amountEq', value: '' }] }, name)).toBeNull()
    expect(unreadableAmountFilters({ price: [{ type: 'amountGt' }] }, name)).toBeNull()
    expect(unreadableAmountFilters({ name: [{ type: 'contains', value: 'abc' }] }, name)).toBeNull()
  })
})
