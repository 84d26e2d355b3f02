import { describe, expect, it } from 'vitest'
import { signOutNotice } from './signOutNotice'

describe('sign out says what happens to the offline copy', () => {
  it('an account: the key goes, the synced orders stay on this computer', () => {
    const notice = signOutNotice(false)
    expect(notice.before).toContain('Your synced orders and listings, and changes staged in Bulk edit, stay on this computer for when you sign in again.')
    expect(notice.before).toContain('deletes this account’s API key')
    expect(notice.question).toBe(
      'Sign out of this marketplace? Its API key is deleted from this computer, so you will need the key to sign in again. Your synced orders and listings, and changes staged in Bulk edit, stay on this computer.'
    )
    expect(notice.after).toMatch(/^Signed out: the API key is deleted from this computer\. Your synced orders and listings stay on it/)
  })

  it('the question names the marketplace being left', () => {
    expect(signOutNotice(false, 'market.example.com:8443').question).toMatch(/^Sign out of market\.example\.com:8443\? Its API key is deleted/)
  })

  it('the demo: it closes, and nothing is asked (it has no key)', () => {
    expect(signOutNotice(true)).toEqual({ before: 'Signing out closes the demo marketplace.', question: null, after: 'You left the demo marketplace.' })
  })
})
