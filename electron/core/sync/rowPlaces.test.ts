import { expect, it } from 'vitest'
import { RowPlaces } from './rowPlaces'

it('a row read at two positions with one update time marks the pages between as in doubt; one updated in between (moved to the front) marks none', () => {
  const tied = new RowPlaces()
  tied.note(3, 'a', '2026-11-20T10:00:00Z')
  tied.note(27, 'a', '2026-11-20T10:00:00Z')
  expect(tied.count).toBe(1)
  expect(tied.pagesInDoubt(10, 100)).toEqual([1, 2, 3])

  const moved = new RowPlaces()
  moved.note(27, 'a', '2026-11-20T10:00:00Z')
  moved.note(0, 'a', '2026-11-20T10:05:00Z')
  expect(moved.pagesInDoubt(10, 100)).toEqual([])

  // Rows that carry no update time (orders): any row read twice marks its stretch.
  const orders = new RowPlaces()
  orders.note(12, 'o')
  orders.note(15, 'o')
  expect(orders.pagesInDoubt(10, 100)).toEqual([2])
})
