/**
 * Names the account a session is signed in to, for calls that belong to one account (its remembered
 * view and filters): 'demo', or 'marketplace:' and its address. The core refuses such a call when another
 * account is open, so what a window saved for the account it was leaving never lands in the next one.
 * Apart from the contract's schemas (no zod): the renderer's first bundle uses it.
 */
export function accountKeyOf(account: { demo: boolean; baseUrl: string | null }): string {
  return account.demo ? 'demo' : `marketplace:${account.baseUrl ?? ''}`
}
