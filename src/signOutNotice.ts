/**
 * What signing out does, said before (next to the button), asked (a real marketplace's key is deleted,
 * and a seller who clicked by mistake would have to find it again) and said after (a notice). Signing
 * out deletes the account's API key from this computer and closes its snapshot; the snapshot file
 * stays (Seller Desk never deletes one), with any changes staged in Bulk edit, and opens again when the
 * same seller signs in to the same marketplace. The demo has no key: it is left without a question.
 */
export interface SignOutNotice {
  before: string
  /** The question before signing out, or null when nothing is lost (the demo). */
  question: string | null
  after: string
}

export function signOutNotice(demo: boolean, marketplace = 'this marketplace'): SignOutNotice {
  if (demo) return { before: 'Signing out closes the demo marketplace.', question: null, after: 'You left the demo marketplace.' }
  return {
    before:
      'Signing out deletes this account’s API key from this computer; your other accounts stay. Your synced orders and listings, and changes staged in Bulk edit, stay on this computer for when you sign in again.',
    question: `Sign out of ${marketplace}? Its API key is deleted from this computer, so you will need the key to sign in again. Your synced orders and listings, and changes staged in Bulk edit, stay on this computer.`,
    after: 'Signed out: the API key is deleted from this computer. Your synced orders and listings stay on it for when you sign in again.'
  }
}
