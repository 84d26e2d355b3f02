/**
 * Who Seller Desk is signed in as: a marketplace (base URL + API key in the secret store) or the
 * built-in demo marketplace. Restores the last session at start, validates a key with a real call
 * before storing it, and deletes it on sign-out. The key stays here: SessionInfo never carries it.
 *
 * Several marketplace accounts may be kept: their keys sit in the secret store keyed by base URL, and
 * session.json lists them (base URL and seller, never a key). Signing in to another marketplace adds
 * an account and switches to it; switching reads the other account's key back from the store.
 */
import { createHash } from 'node:crypto'
import { join } from 'node:path'
import { z } from 'zod'
import { readJsonFile, writeFileAtomic } from '../atomicFile'
import type { AccountSummary, SessionInfo } from '../../shared/contract'
import { SellerDeskError, toErrorData } from '../../shared/errors'
import { createSellerApi, normaliseBaseUrl, type SellerApi, type SellerApiOptions } from '../sellerApi'
import type { SecretStoreChoice } from '../secrets/chooseSecretStore'

const SIGN_IN_TIMEOUT_MS = 10_000

export interface DemoMarketplace {
  baseUrl: string
  apiKey: string
  close(): Promise<void>
}

export interface SessionDeps {
  userDataDir: string
  secrets: SecretStoreChoice
  startDemoMarketplace: () => Promise<DemoMarketplace>
  onChange: (info: SessionInfo) => void
  /** Something the seller should know that is not an answer to a call (e.g. restore problems). */
  onNotice?: (message: string) => void
  apiOptions?: Omit<SellerApiOptions, 'baseUrl' | 'apiKey'>
}

const lastAccountSchema = z.union([
  z.object({ kind: z.literal('demo') }),
  z.object({ kind: z.literal('marketplace'), baseUrl: z.string(), sellerId: z.string().nullable().catch(null) }),
  z.null()
])
const savedAccountSchema = z.object({ baseUrl: z.string(), sellerId: z.string().nullable().catch(null) })
type SavedAccount = z.infer<typeof savedAccountSchema>
const settingsSchema = z.object({
  lastAccount: lastAccountSchema.catch(null),
  lastBaseUrl: z.string().nullable().catch(null),
  /** Marketplace accounts whose keys are in the secret store; missing in files from before accounts. */
  accounts: z.array(z.unknown()).optional().catch(undefined)
})
type SessionSettings = z.infer<typeof settingsSchema>

/**
 * Who the snapshot belongs to: the demo, or a marketplace address and the seller its key identifies. A
 * key whose seller no listing told (none listed at sign-in: only listings name their seller) has a
 * stand-in of its own (standInSellerId), so another key's data is never shown under it, and its own
 * comes back whenever it signs in again.
 */
export interface Account {
  demo: boolean
  baseUrl: string
  sellerId: string | null
}

const STAND_IN = 'unlisted-'
/**
 * A stand-in for the seller of a key no listing named: the same for the same key at the same address,
 * another for any other. A digest: the key cannot be read back from it.
 */
const standInSellerId = (baseUrl: string, apiKey: string) =>
  `${STAND_IN}${createHash('sha256').update(`Seller Desk stand-in seller\n${baseUrl}\n${apiKey}`).digest('hex').slice(0, 32)}`
/** The seller as the marketplace named it; null for a stand-in (it names no one). */
const namedSeller = (sellerId: string | null) => (sellerId?.startsWith(STAND_IN) ? null : sellerId)

export interface Session {
  info(): SessionInfo
  /** The signed-in account; null when signed out. */
  account(): Account | null
  /** The signed-in client; throws not-signed-in otherwise. */
  api(): SellerApi
  restore(): Promise<SessionInfo>
  /** Resolves once restore() has finished (at once if it was never called). */
  restored(): Promise<void>
  signIn(baseUrl: string, apiKey: string): Promise<SessionInfo>
  startDemo(): Promise<SessionInfo>
  signOut(): Promise<SessionInfo>
  /** The saved marketplace accounts, the current one marked. */
  accounts(): AccountSummary[]
  /** Signs in to a saved account with its stored key. */
  switchTo(baseUrl: string): Promise<SessionInfo>
  /** Forgets a saved account and deletes its key; signs out when it is the current one. */
  remove(baseUrl: string): Promise<SessionInfo>
  dispose(): Promise<void>
}

/**
 * The sign-in check refused as a request (a 4xx other than the key's statuses): said as such, with what
 * the marketplace said, and never as a wrong key, since a marketplace may refuse a request for reasons
 * of its own while the key is good. Any other failure is left as it is.
 */
function refusedCheck(error: unknown): unknown {
  if (!(error instanceof SellerDeskError) || error.kind !== 'invalid-input' || error.status === undefined) return error
  return new SellerDeskError(
    'invalid-input',
    `${error.message} Seller Desk asked it only to check the key, and cannot tell from this answer whether the key is right: check the address (the part before /v1); if it is right, the marketplace may not follow the Seller API as Seller Desk expects.`,
    { status: error.status }
  )
}

export function createSession(deps: SessionDeps): Session {
  const settingsFile = join(deps.userDataDir, 'session.json')
  let current: { api: SellerApi; demo: DemoMarketplace | null; sellerId: string | null } | null = null
  let lastBaseUrl: string | null = null
  let accounts: SavedAccount[] = []
  let restoring: Promise<unknown> = Promise.resolve()
  const notice = (message: string) => deps.onNotice?.(message)

  const info = (): SessionInfo => ({
    signedIn: current !== null,
    baseUrl: current?.api.baseUrl ?? null,
    lastBaseUrl,
    demo: current?.demo != null,
    keyStorage: current ? (current.demo ? null : deps.secrets.store.kind) : null,
    keyStorageNotice: current && !current.demo ? deps.secrets.notice : null
  })

  const makeApi = (baseUrl: string, apiKey: string) => createSellerApi({ ...deps.apiOptions, baseUrl, apiKey })

  /** Writes who is signed in and the saved accounts (never a key). */
  async function save() {
    const lastAccount: SessionSettings['lastAccount'] = !current
      ? null
      : current.demo
        ? { kind: 'demo' }
        : { kind: 'marketplace', baseUrl: current.api.baseUrl, sellerId: current.sellerId }
    await writeFileAtomic(settingsFile, JSON.stringify({ lastAccount, lastBaseUrl, accounts } satisfies SessionSettings))
  }

  function remember(account: SavedAccount) {
    const at = accounts.findIndex((saved) => saved.baseUrl === account.baseUrl)
    if (at >= 0) accounts[at] = account
    else accounts.push(account)
  }

  const forgetAccount = (baseUrl: string) => {
    accounts = accounts.filter((saved) => saved.baseUrl !== baseUrl)
  }

  const labelOf = (baseUrl: string) => {
    try {
      return new URL(baseUrl).host || baseUrl
    } catch {
      return baseUrl
    }
  }

  /** Deletes a key; a keychain that fails is told, not thrown (the account is gone from Seller Desk either way). */
  async function deleteKey(baseUrl: string, done: string) {
    await deps.secrets.store
      .delete(baseUrl)
      .catch(() =>
        notice(`${done}, but the API key could not be removed from the system keychain. Remove “Seller Desk” entries there yourself if you want it gone.`)
      )
  }

  async function replace(next: typeof current) {
    const previous = current
    current = next
    if (previous?.demo && previous.demo !== next?.demo) await previous.demo.close()
    deps.onChange(info())
  }

  async function startDemo(): Promise<SessionInfo> {
    if (current?.demo) return info()
    const demo = await deps.startDemoMarketplace()
    await replace({ api: makeApi(demo.baseUrl, demo.apiKey), demo, sellerId: null })
    await save()
    return info()
  }

  /** Opens a saved account with its key from the secret store (the one signed in to so far is left as it is). */
  async function switchTo(baseUrlText: string): Promise<SessionInfo> {
    const baseUrl = normaliseBaseUrl(baseUrlText)
    const account = accounts.find((saved) => saved.baseUrl === baseUrl)
    if (!account) throw new SellerDeskError('not-found', `Seller Desk has no account for ${labelOf(baseUrl)}. Add it by signing in.`)
    if (current && !current.demo && current.api.baseUrl === baseUrl) return info()
    const apiKey = await deps.secrets.store.get(baseUrl).catch(() => {
      throw new SellerDeskError('keychain', 'The API key could not be read from the system keychain. Unlock the keychain and try again.')
    })
    if (!apiKey) {
      throw new SellerDeskError(
        'not-found',
        `The API key for ${labelOf(baseUrl)} is no longer stored on this computer. Remove the account and add it again with its key.`
      )
    }
    lastBaseUrl = baseUrl
    await replace({ api: makeApi(baseUrl, apiKey), demo: null, sellerId: account.sellerId })
    await save()
    return info()
  }

  return {
    info,

    account: () => (current ? { demo: current.demo !== null, baseUrl: current.api.baseUrl, sellerId: current.sellerId } : null),

    api() {
      if (!current) throw new SellerDeskError('not-signed-in', 'You are signed out. Sign in to a marketplace or explore the demo.')
      return current.api
    },

    restore() {
      const work = (async () => {
        const { value } = await readJsonFile<unknown>(settingsFile, null)
        const parsed = settingsSchema.safeParse(value)
        const settings: SessionSettings = parsed.success ? parsed.data : { lastAccount: null, lastBaseUrl: null }
        lastBaseUrl = settings.lastBaseUrl
        const account = settings.lastAccount
        accounts = (settings.accounts ?? []).flatMap((entry) => {
          const saved = savedAccountSchema.safeParse(entry)
          return saved.success ? [saved.data] : []
        })
        // A file from before accounts were kept: the signed-in marketplace is the one account.
        if (settings.accounts === undefined && account?.kind === 'marketplace') accounts = [{ baseUrl: account.baseUrl, sellerId: account.sellerId }]
        if (account?.kind === 'demo') {
          await startDemo().catch(() => notice('The demo marketplace could not start. Try “Explore the demo marketplace” again.'))
        } else if (account?.kind === 'marketplace') {
          const apiKey = await deps.secrets.store.get(account.baseUrl).catch(() => undefined)
          if (apiKey) await replace({ api: makeApi(account.baseUrl, apiKey), demo: null, sellerId: account.sellerId })
          else if (apiKey === undefined)
            notice('Your saved API key could not be read from the system keychain. Unlock the keychain and restart Seller Desk, or sign in again.')
          else notice('Your saved API key was not found on this computer any more. Sign in again to continue.')
        }
        return info()
      })()
      restoring = work.catch(() => undefined)
      return work
    },

    restored: () => restoring.then(() => undefined),

    async signIn(baseUrlText, apiKey) {
      const baseUrl = normaliseBaseUrl(baseUrlText)
      const api = makeApi(baseUrl, apiKey)
      // A real call proves the address and the key before anything is stored.
      // It also tells which seller the key belongs to: the snapshot is kept per base URL and seller.
      // Asked with no page size at all: the only one the spec promises is its default, which is small,
      // and a marketplace that refuses sizes below a minimum of its own must still let the seller in.
      const probe = await api.listSellRequests({}, { retries: 0, timeoutMs: SIGN_IN_TIMEOUT_MS }).catch((error: unknown) => {
        if (error instanceof SellerDeskError && (error.kind === 'not-found' || error.kind === 'malformed-response')) {
          throw new SellerDeskError(
            'invalid-input',
            `No Seller API answered at ${baseUrl}. Check the address: it is the part before /v1 (for example https://api.example.com).`
          )
        }
        throw refusedCheck(error)
      })
      const named = probe.sellRequests[0]?.seller || null
      const saved = accounts.find((account) => account.baseUrl === baseUrl)
      // The key saved here goes on as the account it is, with its data, even where its listings name its
      // seller now (the window knows an account by its address, and its data must not change under it);
      // any other key is the seller its listings name, or with none a seller of its own.
      const sameKey = saved !== undefined && (await deps.secrets.store.get(baseUrl).catch(() => null)) === apiKey
      const sellerId = sameKey ? saved.sellerId : (named ?? standInSellerId(baseUrl, apiKey))
      // One account per marketplace address (its key is kept by the address): a key of another seller
      // there would replace the saved account's silently, leaving its data unreachable, and so would one
      // whose seller cannot be told from the saved one's.
      if (saved && !sameKey && saved.sellerId !== sellerId) {
        const bothNamed = namedSeller(saved.sellerId) !== null && namedSeller(sellerId) !== null
        throw new SellerDeskError(
          'invalid-input',
          `Seller Desk already holds an account at ${labelOf(baseUrl)} ${bothNamed ? 'for another seller' : 'for another key, and no listing tells whether this one is the same seller’s'}, and keeps one account per marketplace address. To use this key, remove that account first (Settings, Accounts).`
        )
      }
      await deps.secrets.store.set(baseUrl, apiKey)
      lastBaseUrl = baseUrl
      remember({ baseUrl, sellerId })
      await replace({ api, demo: null, sellerId })
      await save()
      return info()
    },

    startDemo,

    async signOut() {
      const forget = current && !current.demo ? current.api.baseUrl : null
      // End the session here first: a keychain that fails must not keep the seller signed in.
      await replace(null)
      if (forget) forgetAccount(forget)
      await save()
      if (forget) await deleteKey(forget, 'You are signed out')
      return info()
    },

    accounts: () =>
      accounts.map(({ baseUrl, sellerId }) => ({
        baseUrl,
        label: labelOf(baseUrl),
        sellerId: namedSeller(sellerId),
        current: current !== null && !current.demo && current.api.baseUrl === baseUrl
      })),

    switchTo,

    async remove(baseUrlText) {
      const baseUrl = normaliseBaseUrl(baseUrlText)
      if (!accounts.some((saved) => saved.baseUrl === baseUrl)) {
        throw new SellerDeskError('not-found', `Seller Desk has no account for ${labelOf(baseUrl)}.`)
      }
      const wasCurrent = current !== null && !current.demo && current.api.baseUrl === baseUrl
      // The current one removed while others are saved: on to the first of them (signed out only when
      // none is left, or its key cannot be read), straight from one to the other.
      const next = wasCurrent ? accounts.find((saved) => saved.baseUrl !== baseUrl) : undefined
      let stayedOut: unknown = null
      if (next) await switchTo(next.baseUrl).catch((error: unknown) => (stayedOut = error))
      const signedOut = wasCurrent && (!next || stayedOut !== null)
      if (signedOut) await replace(null)
      forgetAccount(baseUrl)
      await save()
      await deleteKey(baseUrl, signedOut ? 'You are signed out' : 'The account was removed')
      if (next && stayedOut !== null) {
        notice(`The account was removed, and ${labelOf(next.baseUrl)} could not be opened: ${toErrorData(stayedOut).message}`)
      }
      return info()
    },

    async dispose() {
      if (current?.demo) await current.demo.close()
      current = null
    }
  }
}
