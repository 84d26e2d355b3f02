import { describe, expect, it } from 'vitest'
import { describeIncomplete, describeShortfall } from './syncCompleteness'

describe('sync completeness in words', () => {
  it('says how many of how many could be synced, per list', () => {
    expect(describeShortfall({ resource: 'orders', synced: 1204, total: 1516 })).toBe('1,204 of 1,516 orders could be synced')
    expect(describeShortfall({ resource: 'sellRequests', synced: 642, total: 1200 })).toBe('642 of 1,200 sell requests could be synced')
  })

  it('says so when the marketplace counts fewer than it listed', () => {
    expect(describeShortfall({ resource: 'orders', synced: 12, total: 10 })).toBe('12 orders synced, but the marketplace counts 10')
    expect(describeShortfall({ resource: 'sellRequests', synced: 10, total: 10 })).toBe(
      '10 sell requests synced while the marketplace kept changing them: some may be out of date'
    )
  })

  it('joins both lists, and is null when complete', () => {
    expect(describeIncomplete([])).toBeNull()
    expect(
      describeIncomplete([
        { resource: 'orders', synced: 1, total: 2 },
        { resource: 'sellRequests', synced: 3, total: 4 }
      ])
    ).toBe('1 of 2 orders could be synced; 3 of 4 sell requests could be synced')
  })
})
