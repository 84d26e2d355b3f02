import { LISTING_FIELD_SET } from '@shared/listingFields'
import { expect, it } from 'vitest'
import { unappliedCount, unappliedLine, unappliedReasons } from './unappliedNote'

it('counts and names the changes that did not apply, by kind when there is more than one', () => {
  expect(unappliedCount({ failed: 9, conflict: 2, cancelled: 1 })).toBe(12)
  expect(unappliedLine({ failed: 12, conflict: 0, cancelled: 0 })).toBe('12 changes did not apply')
  expect(unappliedLine({ failed: 1, conflict: 0, cancelled: 0 })).toBe('1 change did not apply')
  expect(unappliedLine({ failed: 0, conflict: 1, cancelled: 0 })).toBe('1 change did not apply: changed elsewhere')
  expect(unappliedLine({ failed: 0, conflict: 0, cancelled: 3 })).toBe('3 changes did not apply: canceled')
  expect(unappliedLine({ failed: 1200, conflict: 3, cancelled: 0 })).toBe('1,203 changes did not apply (1,200 failed, 3 changed elsewhere)')
})

it('gives each listing one reason naming each of its changes, the value it was to set and why not', () => {
  const reasons = unappliedReasons(
    [
      ['a', 'priceCents', 'failed', 129_999, 'The marketplace refused it.'],
      ['a', 'quantity', 'cancelled', 4, null],
      ['b', 'quantity', 'conflict', 12, 'Changed on the marketplace since you staged this (quantity is now 3).'],
      ['c', 'weight', 'failed', 5, 'No such field.']
    ],
    LISTING_FIELD_SET
  )
  expect(Object.fromEntries(reasons)).toEqual({
    a: 'Price $1,299.99: The marketplace refused it. · Quantity 4: Canceled',
    b: 'Quantity 12: Changed on the marketplace since you staged this (quantity is now 3).',
    c: 'weight 5: No such field.'
  })
})
