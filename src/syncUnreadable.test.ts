import { describe, expect, it } from 'vitest'
import { describeUnreadable, describeUnreadableDetail, describeUnreadableList, unreadableLabel } from './syncUnreadable'

const price = 'price: expected an amount in dollars'

describe('rows that could not be read, in words', () => {
  it('says how many per list in a few words, and nothing when every row was read', () => {
    expect(describeUnreadable([])).toBeNull()
    expect(describeUnreadableDetail([])).toBeNull()
    expect(
      describeUnreadable([
        { resource: 'orders', count: 1, missing: 1, first: [] },
        { resource: 'sellRequests', count: 1_204, missing: 3, first: [] }
      ])
    ).toBe('1 order could not be read; 1,204 sell requests could not be read')
  })

  it('says them in the header in words short enough never to be cut, over every list', () => {
    expect(unreadableLabel([])).toBeNull()
    expect(unreadableLabel([{ resource: 'sellRequests', count: 1, missing: 0, first: [] }])).toBe('1 row unreadable')
    expect(
      unreadableLabel([
        { resource: 'orders', count: 2, missing: 1, first: [] },
        { resource: 'sellRequests', count: 1_204, missing: 3, first: [] }
      ])
    ).toBe('1,206 rows unreadable')
  })

  it('names the first rows and why, by what a seller knows them by where they say, else by id, a row with no id by where the list holds it, and how many more', () => {
    expect(
      describeUnreadableList({
        resource: 'sellRequests',
        count: 5,
        missing: 5,
        first: [
          { id: 'SR-1', label: null, position: 0, problem: price },
          { id: null, label: null, position: 249, problem: 'id: expected an id' },
          { id: 'SR-7', label: 'iPhone 15 512GB (SKU APL-IP15-512)', position: 300, problem: price }
        ]
      })
    ).toBe(
      '5 sell requests could not be read: SR-1 (price: expected an amount in dollars), a row with no id (row 250 of the list) (id: expected an id), iPhone 15 512GB (SKU APL-IP15-512) (price: expected an amount in dollars), and 2 more; none of them is in Seller Desk'
    )
  })

  it('says which show as last read and which are not in the app', () => {
    const one = { id: 'SR-1', label: null, position: 3, problem: price }
    expect(describeUnreadableList({ resource: 'sellRequests', count: 1, missing: 0, first: [one] })).toBe(
      '1 sell request could not be read: SR-1 (price: expected an amount in dollars); it shows as it was when last read'
    )
    expect(
      describeUnreadableList({ resource: 'orders', count: 1, missing: 1, first: [{ ...one, problem: 'totalPrice: expected an amount in dollars' }] })
    ).toBe('1 order could not be read: SR-1 (totalPrice: expected an amount in dollars); it is not in Seller Desk')
    expect(describeUnreadableList({ resource: 'sellRequests', count: 3, missing: 1, first: [one] })).toBe(
      '3 sell requests could not be read: SR-1 (price: expected an amount in dollars), and 2 more; 2 of them show as last read, 1 is not in Seller Desk'
    )
    expect(describeUnreadableList({ resource: 'sellRequests', count: 2, missing: 0, first: [one, { ...one, id: 'SR-2' }] })).toMatch(
      /; they show as they were when last read$/
    )
  })
})
