import { describe, expect, it } from 'vitest'
import { retryButton } from './retryButton'

describe('what a batch offers to send again', () => {
  it('names what it sends: failed changes, canceled ones, or both; nothing when neither', () => {
    expect(retryButton({ failed: 3, cancelled: 0 })).toEqual({ label: 'Retry failed', title: 'Send the 3 failed changes again' })
    expect(retryButton({ failed: 0, cancelled: 1 })).toEqual({ label: 'Send canceled', title: 'Send the 1 change canceled before sending' })
    expect(retryButton({ failed: 1, cancelled: 24 })).toEqual({
      label: 'Retry failed and canceled',
      title: 'Send the 1 failed change again, and the 24 canceled ones'
    })
    expect(retryButton({ failed: 0, cancelled: 0 })).toBeNull()
  })
})
