import { describe, expect, it } from 'vitest'
import { pendingSummary } from './pendingSummary'

describe('what bulk edit says is still to be sent', () => {
  it('says what an apply under way has not sent yet, before any changes staged meanwhile', () => {
    expect(pendingSummary({ changes: 0, listings: 0 }, { pending: 16 })).toBe('16 changes still being sent')
    expect(pendingSummary({ changes: 0, listings: 0 }, { pending: 1 })).toBe('1 change still being sent')
    expect(pendingSummary({ changes: 3, listings: 2 }, { pending: 12 })).toBe('12 changes still being sent · 3 pending changes on 2 listings')
  })

  it('says the pending changes alone once nothing is being sent', () => {
    expect(pendingSummary({ changes: 0, listings: 0 }, null)).toBe('No pending changes')
    expect(pendingSummary({ changes: 0, listings: 0 }, { pending: 0 })).toBe('No pending changes')
    expect(pendingSummary({ changes: 1, listings: 1 }, null)).toBe('1 pending change on 1 listing')
    expect(pendingSummary({ changes: 5, listings: 2 }, { pending: 0 })).toBe('5 pending changes on 2 listings')
  })
})
