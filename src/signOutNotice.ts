/**
 * What signing out does, said before (next to the button) and after (a notice), so nothing needs a
 * question first: nothing is lost. Signing out deletes the account's API key from this computer and
 * closes its snapshot; the snapshot file stays (Seller Desk never deletes one), with any changes staged
 * in Bulk edit, and opens again when the same seller signs in to the same marketplace.
 */
export function signOutNotice(demo: boolean): { before: string; after: string } {
  if (demo) return { before: 'Signing out closes the demo marketplace.', after: 'You left the demo marketplace.' }
  return {
    before:
      'Signing out deletes this account’s API key from this computer; your other accounts stay. Your synced orders and listings, and changes staged in Bulk edit, stay on this computer for when you sign in again.',
    after: 'Signed out: the API key is deleted from this computer. Your synced orders and listings stay on it for when you sign in again.'
  }
}
