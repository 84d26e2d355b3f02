/**
 * Sign-in, restore and sign-out against the demo marketplace with the real keychain (Secret Service in
 * the test's D-Bus session) or, where none answers, the encrypted-file store with real AES.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../sandbox'
import type { SessionInfo } from '../contract'
import { chooseSecretStore, type SecretStoreChoice } from '../secrets/chooseSecretStore'
import type { SecretStore } from '../secrets/secretStore'
import { createSession } from './session'

const KEY = 'sk_test_session_abcdef0123456789'
let sandbox: Sandbox
let secrets: SecretStoreChoice

beforeAll(async () => {
  sandbox = await startSandbox({ apiKey: KEY, orders: 10, sellRequests: 10 })
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
afterAll(() => sandbox.close())

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
})
