/**
 * Sign-in, restore and sign-out against the demo marketplace with the real keychain (Secret Service in
 * the test's D-Bus session) or, where none answers, the encrypted-file store with real AES.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs'
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../sandbox'
import type { SessionInfo } from '../../shared/contract'
import { chooseSecretStore, type SecretStoreChoice } from '../secrets/chooseSecretStore'
import type { SecretStore } from '../secrets/secretStore'
import { snapshotFileFor } from '../snapshot/snapshot'
import { createSession } from './session'

const KEY = 'sk_test_session_abcdef0123456789'
const KEY_B = 'sk_test_session_second_9876543210'
let sandbox: Sandbox
let sandboxB: Sandbox
let secrets: SecretStoreChoice

beforeAll(async () => {
  sandbox = await startSandbox({ apiKey: KEY, orders: 10, sellRequests: 10 })
  sandboxB = await startSandbox({ apiKey: KEY_B, orders: 7, sellRequests: 4, seed: 99 })
  const key = randomBytes(32)
  secrets = await chooseSecretStore({
    service: `Seller Desk session test ${process.pid}`,
    fileEncryption: {
      file: join(mkdtempSync(join(tmpdir(), 'seller-desk-keys-')), 'keys.json'),
      weak: false,
      encryptor: {
        encrypt: (plain) => {
          const iv = randomBytes(12)
          const cipher = createCipheriv('aes-256-gcm', key, iv)
          const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
          return Buffer.concat([iv, cipher.getAuthTag(), body])
        },
        decrypt: (data) => {
          const buffer = Buffer.from(data)
          const decipher = createDecipheriv('aes-256-gcm', key, buffer.subarray(0, 12))
          decipher.setAuthTag(buffer.subarray(12, 28))
          return Buffer.concat([decipher.update(buffer.subarray(28)), decipher.final()]).toString('utf8')
        }
      }
    }
  })
  expect(secrets.store.kind === 'keychain' || secrets.store.kind === 'encrypted-file').toBe(true)
})
afterAll(async () => {
  await sandbox.close()
  await sandboxB.close()
})

function newSession(userDataDir: string, changes: SessionInfo[] = [], store: SecretStore = secrets.store, notices: string[] = []) {
  let demos = 0
  const session = createSession({
    userDataDir,
    secrets: { store, notice: null },
    onNotice: (message) => notices.push(message),
    onChange: (info) => changes.push(info),
    apiOptions: { retries: 0, timeoutMs: 2_000 },
    startDemoMarketplace: async () => {
      demos++
      const demo = await startSandbox({ orders: 5, sellRequests: 5 })
      return { baseUrl: demo.baseUrl, apiKey: demo.apiKey, close: () => demo.close() }
    }
  })
  return { session, demos: () => demos }
}

/**
 * A marketplace of its own rules in front of `target`: a request `refusal` names a reason for is
 * refused as a bad request with it, as a validating API answers; every other is passed on and its
 * answer relayed.
 */
async function validatingFront(target: Sandbox, refusal: (request: IncomingMessage, url: URL) => string | null) {
  const asked: URL[] = []
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://front')
    asked.push(url)
    const reason = refusal(request, url)
    if (reason !== null) {
      response.writeHead(400, { 'content-type': 'application/json' })
      return response.end(JSON.stringify({ statusCode: 400, message: reason, error: 'Bad Request' }))
    }
    const headers = { 'x-api-key': String(request.headers['x-api-key'] ?? ''), 'content-type': 'application/json' }
    void fetch(`${target.baseUrl}${request.url}`, { method: request.method ?? 'GET', headers }).then(async (upstream) => {
      response.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' })
      response.end(await upstream.text())
    })
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()))
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    asked,
    close: () => {
      server.closeAllConnections()
      return new Promise<void>((done) => server.close(() => done()))
    }
  }
}

/** A marketplace that serves no page smaller than its minimum (the spec states no limits on `take`). */
const MIN_TAKE_OF_FRONT = 10
const refusesSmallPages = (_request: IncomingMessage, url: URL) => {
  const take = url.searchParams.get('take')
  return take !== null && Number(take) < MIN_TAKE_OF_FRONT ? `take must not be less than ${MIN_TAKE_OF_FRONT}` : null
}

describe('session', () => {
  it('validates the key with a real call before storing it, and stores nothing when wrong', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'seller-desk-session-'))
    const { session } = newSession(dir)
    await expect(session.signIn(sandbox.baseUrl, 'not-the-key')).rejects.toMatchObject({ kind: 'auth' })
    expect(session.info().signedIn).toBe(false)
    expect(await secrets.store.get(sandbox.baseUrl)).toBeNull()
    await expect(session.signIn('not a url', KEY)).rejects.toMatchObject({ kind: 'invalid-input' })
    await expect(session.signIn(`${sandbox.baseUrl}/wrong/path`, KEY)).rejects.toThrow(/No Seller API answered/)
    expect(session.info().signedIn).toBe(false)
  })

  it('signs in to a marketplace that refuses small pages (400), reading the seller from one request', async () => {
    const front = await validatingFront(sandbox, refusesSmallPages)
    const dir = mkdtempSync(join(tmpdir(), 'seller-desk-session-'))
    const { session } = newSession(dir)
    try {
      expect(await session.signIn(front.baseUrl, KEY)).toMatchObject({ signedIn: true, baseUrl: front.baseUrl })
      expect(session.account()?.sellerId).toBe(sandbox.state.sellerId)
      expect(await secrets.store.get(front.baseUrl)).toBe(KEY)
      expect(front.asked, 'one request, and none the marketplace refused').toHaveLength(1)
      expect(refusesSmallPages({} as IncomingMessage, front.asked[0]!)).toBeNull()
    } finally {
      await session.signOut()
      await front.close()
    }
  })

  it('a sign-in check the marketplace refuses (400) is said as refused, with its words, never as a wrong key; nothing is stored', async () => {
    const front = await validatingFront(sandbox, (_request, url) => (url.pathname.startsWith('/v1/') ? 'searchTerm is required' : null))
    const dir = mkdtempSync(join(tmpdir(), 'seller-desk-session-'))
    const { session } = newSession(dir)
    try {
      const refused = session.signIn(front.baseUrl, KEY)
      await expect(refused).rejects.toMatchObject({ kind: 'invalid-input', status: 400 })
      const message = await refused.catch((error: Error) => error.message)
      expect(message).toContain('The marketplace said: “searchTerm is required”')
      expect(message).toContain('cannot tell from this answer whether the key is right')
      expect(message).not.toMatch(/did not accept the API key|wrong key|whole key for this marketplace/i)
      expect(session.info().signedIn).toBe(false)
      expect(await secrets.store.get(front.baseUrl)).toBeNull()
      expect(session.accounts()).toEqual([])
    } finally {
      await front.close()
    }
  })

  it('signs out even when the keychain fails, and says the key may remain', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'seller-desk-session-'))
    const notices: string[] = []
    const failingDelete: SecretStore = { ...secrets.store, delete: () => Promise.reject(new Error('locked')) }
    const { session } = newSession(dir, [], failingDelete, notices)
    await session.signIn(sandbox.baseUrl, KEY)
    expect((await session.signOut()).signedIn).toBe(false)
    expect(notices.join(' ')).toMatch(/could not be removed/)
    const again = newSession(dir).session
    expect((await again.restore()).signedIn).toBe(false)
    await secrets.store.delete(sandbox.baseUrl)
  })

  it('tells the seller when the saved key is gone at start', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'seller-desk-session-'))
    await newSession(dir).session.signIn(sandbox.baseUrl, KEY)
    await secrets.store.delete(sandbox.baseUrl)
    const notices: string[] = []
    const restored = newSession(dir, [], secrets.store, notices).session
    expect((await restored.restore()).signedIn).toBe(false)
    expect(notices.join(' ')).toMatch(/not found/)
  })

  it('signs in, restores at next start, signs out and forgets the key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'seller-desk-session-'))
    const changes: SessionInfo[] = []
    const first = newSession(dir, changes).session
    const info = await first.signIn(`${sandbox.baseUrl}/`, KEY)
    expect(info).toMatchObject({ signedIn: true, baseUrl: sandbox.baseUrl, demo: false, keyStorage: secrets.store.kind })
    expect(JSON.stringify(info)).not.toContain(KEY)
    expect(changes.at(-1)?.signedIn).toBe(true)
    expect(await secrets.store.get(sandbox.baseUrl)).toBe(KEY)
    // Nothing in user data holds the key.
    for (const file of readdirSync(dir)) expect(readFileSync(join(dir, file), 'utf8')).not.toContain(KEY)

    const second = newSession(dir).session
    const restored = await second.restore()
    expect(restored).toMatchObject({ signedIn: true, baseUrl: sandbox.baseUrl })
    expect(second.account()).toMatchObject({ demo: false, baseUrl: sandbox.baseUrl })
    expect(second.account()?.sellerId).toMatch(/^[0-9a-f-]{36}$/)
    expect((await second.api().listOrders({ take: 1 })).total).toBe(10)
    const out = await second.signOut()
    expect(out).toMatchObject({ signedIn: false, lastBaseUrl: sandbox.baseUrl })
    expect(await secrets.store.get(sandbox.baseUrl)).toBeNull()
    const third = newSession(dir).session
    expect((await third.restore()).signedIn).toBe(false)
    expect(() => third.api()).toThrowError(/signed out/)
  })

  it('starts the demo marketplace, restores it at next start, and stops it on sign-out', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'seller-desk-session-'))
    const first = newSession(dir)
    const info = await first.session.startDemo()
    expect(info).toMatchObject({ signedIn: true, demo: true, keyStorage: null })
    expect((await first.session.api().listSellRequests({ take: 1 })).total).toBe(5)
    await first.session.dispose()

    const second = newSession(dir)
    expect((await second.session.restore()).demo).toBe(true)
    expect(second.demos()).toBe(1)
    const demoUrl = second.session.info().baseUrl!
    await second.session.signOut()
    await expect(fetch(`${demoUrl}/v1/sell-requests`)).rejects.toThrow()
  })

  describe('accounts', () => {
    const userData = (dir: string) =>
      readdirSync(dir)
        .map((file) => readFileSync(join(dir, file), 'utf8'))
        .join('\n')
    const savedAccounts = (dir: string) => (JSON.parse(readFileSync(join(dir, 'session.json'), 'utf8')) as { accounts: unknown[] }).accounts

    /**
     * A marketplace at one address answering `apiKey` of `sellerId`, with that many listings; restartAs
     * puts another key there (of another seller, or the same) with as many listings, or `listings`.
     */
    async function oneAddress(apiKey: string, sellerId: string, sellRequests: number) {
      let there = await startSandbox({ apiKey, orders: 3, sellRequests, sellerId })
      const { port, baseUrl } = there
      return {
        baseUrl,
        restartAs: async (nextKey: string, nextSeller: string, listings = sellRequests) => {
          await there.close()
          there = await startSandbox({ apiKey: nextKey, port, orders: 3, sellRequests: listings, sellerId: nextSeller })
        },
        close: () => there.close()
      }
    }

    it('refuses a key of another seller at an address it holds an account for, changing nothing; takes a new key of the same seller', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'seller-desk-session-'))
      const { session } = newSession(dir)
      const { baseUrl, restartAs, close } = await oneAddress('sk_test_first_seller_0001', 'seller-first', 3)
      try {
        await session.signIn(baseUrl, 'sk_test_first_seller_0001')
        await restartAs('sk_test_other_seller_0002', 'seller-other')
        await expect(session.signIn(baseUrl, 'sk_test_other_seller_0002')).rejects.toMatchObject({
          kind: 'invalid-input',
          message: expect.stringMatching(/already holds an account at .* for another seller.*remove that account first/)
        })
        expect(await secrets.store.get(baseUrl)).toBe('sk_test_first_seller_0001')
        expect(session.accounts()).toEqual([expect.objectContaining({ baseUrl, sellerId: 'seller-first' })])
        expect(savedAccounts(dir)).toEqual([{ baseUrl, sellerId: 'seller-first' }])

        // The same seller's new key (rotated) replaces the old one.
        await restartAs('sk_test_first_seller_0003', 'seller-first')
        await session.signIn(baseUrl, 'sk_test_first_seller_0003')
        expect(await secrets.store.get(baseUrl)).toBe('sk_test_first_seller_0003')

        // Removed, the address takes the other seller's key.
        await restartAs('sk_test_other_seller_0002', 'seller-other')
        await session.remove(baseUrl)
        await session.signIn(baseUrl, 'sk_test_other_seller_0002')
        expect(session.accounts()).toEqual([expect.objectContaining({ baseUrl, sellerId: 'seller-other', current: true })])
      } finally {
        await close()
        await secrets.store.delete(baseUrl).catch(() => undefined)
      }
    })

    it('a seller with no listings (no listing names whose a key is): the same key always comes back to its own data, at next start, after signing out and once a listing names its seller; another key there is refused, changing nothing, and once the account is removed starts with data of its own', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'seller-desk-session-'))
      const { session } = newSession(dir)
      const { baseUrl, restartAs, close } = await oneAddress('sk_test_unlisted_one_0001', 'seller-one', 0)
      const dataFile = () => snapshotFileFor(dir, session.account()!)
      try {
        await session.signIn(baseUrl, 'sk_test_unlisted_one_0001')
        const first = dataFile()
        // The stand-in names no seller where accounts are listed, and nothing of the key is saved.
        expect(session.accounts()).toEqual([expect.objectContaining({ baseUrl, sellerId: null, current: true })])
        expect(userData(dir)).not.toContain('sk_test_unlisted')
        // At next start, and signed out and in again with the same key: the same data.
        const again = newSession(dir).session
        await again.restore()
        expect(snapshotFileFor(dir, again.account()!)).toBe(first)
        await session.signOut()
        await session.signIn(baseUrl, 'sk_test_unlisted_one_0001')
        expect(dataFile()).toBe(first)
        // Its first listing names its seller: the key given again, signed in, goes on with its data (the
        // window, which knows the account by its address, keeps showing that data).
        await restartAs('sk_test_unlisted_one_0001', 'seller-one', 2)
        await session.signIn(baseUrl, 'sk_test_unlisted_one_0001')
        expect(dataFile()).toBe(first)
        await restartAs('sk_test_unlisted_one_0001', 'seller-one')

        // Another key: perhaps another seller's, which no listing can tell. Refused, changing nothing.
        await restartAs('sk_test_unlisted_two_0002', 'seller-two')
        await expect(session.signIn(baseUrl, 'sk_test_unlisted_two_0002')).rejects.toMatchObject({
          kind: 'invalid-input',
          message: expect.stringMatching(
            /already holds an account at .* for another key, and no listing tells whether this one is the same seller’s.*remove that account first/
          )
        })
        expect(await secrets.store.get(baseUrl)).toBe('sk_test_unlisted_one_0001')
        expect(dataFile()).toBe(first)
        // Removed, the address takes it, with data of its own: never the first one's orders.
        await session.remove(baseUrl)
        await session.signIn(baseUrl, 'sk_test_unlisted_two_0002')
        expect(dataFile()).not.toBe(first)
      } finally {
        await close()
        await secrets.store.delete(baseUrl).catch(() => undefined)
      }
    })

    it('adds an account per marketplace, switches with the stored key, and keeps keys out of session.json', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'seller-desk-session-'))
      const changes: SessionInfo[] = []
      const session = newSession(dir, changes).session
      await session.signIn(sandbox.baseUrl, KEY)
      await session.signIn(sandboxB.baseUrl, KEY_B)
      expect(session.info()).toMatchObject({ signedIn: true, baseUrl: sandboxB.baseUrl })
      expect(session.accounts()).toEqual([
        { baseUrl: sandbox.baseUrl, label: new URL(sandbox.baseUrl).host, sellerId: expect.stringMatching(/^[0-9a-f-]{36}$/), current: false },
        { baseUrl: sandboxB.baseUrl, label: new URL(sandboxB.baseUrl).host, sellerId: expect.stringMatching(/^[0-9a-f-]{36}$/), current: true }
      ])
      expect(session.accounts()[0]!.sellerId).not.toBe(session.accounts()[1]!.sellerId)
      // Both keys stay in the secret store; neither is in user data.
      expect(await secrets.store.get(sandbox.baseUrl)).toBe(KEY)
      expect(await secrets.store.get(sandboxB.baseUrl)).toBe(KEY_B)
      expect(savedAccounts(dir)).toHaveLength(2)
      expect(userData(dir)).not.toContain(KEY)
      expect(userData(dir)).not.toContain(KEY_B)
      expect((await session.api().listOrders({ take: 1 })).total).toBe(7)

      // Switching restores that account's key: the client answers with A's data.
      const switched = await session.switchTo(`${sandbox.baseUrl}/`)
      expect(switched).toMatchObject({ signedIn: true, baseUrl: sandbox.baseUrl, demo: false })
      expect(changes.at(-1)?.baseUrl).toBe(sandbox.baseUrl)
      expect(session.account()).toMatchObject({ baseUrl: sandbox.baseUrl, sellerId: session.accounts()[0]!.sellerId })
      expect((await session.api().listOrders({ take: 1 })).total).toBe(10)
      expect(session.accounts().map((account) => account.current)).toEqual([true, false])

      // The list and the current account come back at next start.
      const again = newSession(dir).session
      expect((await again.restore()).baseUrl).toBe(sandbox.baseUrl)
      expect(again.accounts().map((account) => account.baseUrl)).toEqual([sandbox.baseUrl, sandboxB.baseUrl])
      expect((await again.switchTo(sandboxB.baseUrl)).baseUrl).toBe(sandboxB.baseUrl)
      expect((await again.api().listOrders({ take: 1 })).total).toBe(7)

      await again.remove(sandbox.baseUrl)
      await again.remove(sandboxB.baseUrl)
    })

    it('removes an account and its key; removing the current one opens another saved account, or signs out when none is left', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'seller-desk-session-'))
      const session = newSession(dir).session
      await session.signIn(sandbox.baseUrl, KEY)
      await session.signIn(sandboxB.baseUrl, KEY_B)

      // The current one (B) while A is saved: on to A, B's key gone.
      expect(await session.remove(sandboxB.baseUrl)).toMatchObject({ signedIn: true, baseUrl: sandbox.baseUrl })
      expect(await secrets.store.get(sandboxB.baseUrl)).toBeNull()
      expect((await session.api().listOrders({ take: 1 })).total).toBe(10)
      expect(session.accounts().map((account) => account.baseUrl)).toEqual([sandbox.baseUrl])
      await session.signIn(sandboxB.baseUrl, KEY_B)

      // Not the current one: stays signed in to B.
      expect(await session.remove(sandbox.baseUrl)).toMatchObject({ signedIn: true, baseUrl: sandboxB.baseUrl })
      expect(await secrets.store.get(sandbox.baseUrl)).toBeNull()
      expect(session.accounts().map((account) => account.baseUrl)).toEqual([sandboxB.baseUrl])
      await expect(session.switchTo(sandbox.baseUrl)).rejects.toMatchObject({ kind: 'not-found' })

      // The current one: signed out, key gone, nothing restored at next start.
      expect((await session.remove(sandboxB.baseUrl)).signedIn).toBe(false)
      expect(await secrets.store.get(sandboxB.baseUrl)).toBeNull()
      expect(session.accounts()).toEqual([])
      expect(savedAccounts(dir)).toEqual([])
      expect((await newSession(dir).session.restore()).signedIn).toBe(false)
    })

    it('says clearly when a saved account’s key is gone, and stays on the current account', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'seller-desk-session-'))
      const session = newSession(dir).session
      await session.signIn(sandbox.baseUrl, KEY)
      await session.signIn(sandboxB.baseUrl, KEY_B)
      await secrets.store.delete(sandbox.baseUrl)
      await expect(session.switchTo(sandbox.baseUrl)).rejects.toThrow(/no longer stored/)
      expect(session.info()).toMatchObject({ signedIn: true, baseUrl: sandboxB.baseUrl })
      await session.remove(sandbox.baseUrl)
      await session.remove(sandboxB.baseUrl)
    })

    it('sign-out forgets only the current account; the demo is not an account', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'seller-desk-session-'))
      const session = newSession(dir).session
      await session.signIn(sandbox.baseUrl, KEY)
      await session.signIn(sandboxB.baseUrl, KEY_B)
      await session.signOut()
      expect(await secrets.store.get(sandboxB.baseUrl)).toBeNull()
      expect(await secrets.store.get(sandbox.baseUrl)).toBe(KEY)
      expect(session.accounts()).toEqual([{ baseUrl: sandbox.baseUrl, label: new URL(sandbox.baseUrl).host, sellerId: expect.any(String), current: false }])

      await session.startDemo()
      expect(session.accounts().map((account) => account.current)).toEqual([false])
      // From the demo, switching back to a saved account stops the demo and uses the stored key.
      expect(await session.switchTo(sandbox.baseUrl)).toMatchObject({ signedIn: true, demo: false, baseUrl: sandbox.baseUrl })
      expect((await session.api().listOrders({ take: 1 })).total).toBe(10)
      await session.remove(sandbox.baseUrl)
      await session.dispose()
    })
  })
})
