import { describe, expect, it } from 'vitest'
import { confirmText } from './confirmText'

describe('confirmText', () => {
  it('speaks of one change as "this change"', () => {
    expect(confirmText(1, 1, 0)).toBe('I checked this change to 1 listing.')
    expect(confirmText(1, 1, 1)).toBe('I checked this change to 1 listing and its warning.')
  })
  it('counts many changes and the warnings among them', () => {
    expect(confirmText(6, 5, 0)).toBe('I checked these 6 changes to 5 listings.')
    expect(confirmText(6, 5, 1)).toBe('I checked these 6 changes to 5 listings, including one with a warning.')
    expect(confirmText(6, 5, 2)).toBe('I checked these 6 changes to 5 listings, including 2 with warnings.')
    expect(confirmText(2, 1, 2)).toBe('I checked these 2 changes to 1 listing, all with warnings.')
  })
  it('writes large counts with separators', () => {
    expect(confirmText(1234, 1200, 1001)).toBe('I checked these 1,234 changes to 1,200 listings, including 1,001 with warnings.')
  })
})
