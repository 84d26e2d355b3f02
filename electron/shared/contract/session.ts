/** Signing in and out, and the accounts Seller Desk holds a key for. */
import { z } from 'zod'
import { call, noInput } from './common'

export const signInInput = z
  .object({
    baseUrl: z.string().trim().min(1, 'Enter the marketplace address.').max(2048),
    apiKey: z.string().trim().min(1, 'Enter your API key.').max(4096, 'That API key is too long.')
  })
  .strict()

/** An account to switch to or remove: the marketplace address (its key stays in the secret store). */
export const accountInput = z.object({ baseUrl: z.string().trim().min(1, 'Choose an account.').max(2048) }).strict()

/** How the API key is kept on this computer. */
export type KeyStorage = 'keychain' | 'encrypted-file' | 'session-only'

export interface SessionInfo {
  signedIn: boolean
  baseUrl: string | null
  /** The last marketplace address used, to prefill sign-in after signing out. */
  lastBaseUrl: string | null
  /** Signed in to the built-in demo marketplace. */
  demo: boolean
  keyStorage: KeyStorage | null
  /** Something the seller should know about where the key is kept (e.g. session only). */
  keyStorageNotice: string | null
}

export { accountKeyOf } from '../accountKey'

/** The input of a call that names its account (see `accountKeyOf`). */
export const accountKeyInput = z.string().min(1).max(2100)

/** A marketplace account Seller Desk holds a key for (the demo is not one). */
export interface AccountSummary {
  baseUrl: string
  /** The marketplace's host, as shown to the seller. */
  label: string
  sellerId: string | null
  /** The account signed in now. */
  current: boolean
}

export const sessionCalls = {
  'session.get': call<SessionInfo>()(noInput),
  'session.signIn': call<SessionInfo>()(signInInput),
  'session.startDemo': call<SessionInfo>()(noInput),
  'session.signOut': call<SessionInfo>()(noInput),
  'accounts.list': call<{ accounts: AccountSummary[] }>()(noInput),
  /** Signs in to another saved account with its stored key. */
  'accounts.switch': call<SessionInfo>()(accountInput),
  /** Forgets an account and deletes its key; signs out when it is the current one. */
  'accounts.remove': call<SessionInfo>()(accountInput)
} as const
