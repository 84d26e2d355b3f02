/**
 * A returning seller's snapshot opens at once and is checked in full apart (IntegrityCheck 'later'):
 * one found damaged then is set aside with a notice, and the account starts afresh from the marketplace,
 * as a file found damaged as it opens always was.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'libsql'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../sandbox'
import type { Events, SyncStatus } from '../shared/contract'
import type { Order, Page } from '../shared/domain'
import { createSessionSecretStore } from './secrets/secretStore'
import { createSellerDesk, type SellerDesk } from './sellerDesk'

const KEY = 'sk_live_unit_checked_apart_1'
const ORDERS = 120
let sandbox: Sandbox
let dir: string

beforeAll(async () => {
  sandbox = await startSandbox({ apiKey: KEY, orders: ORDERS, sellRequests: 60, seed: 5, now: new Date() })
  dir = mkdtempSync(join(tmpdir(), 'seller-desk-checked-apart-'))
})
afterAll(async () => {
  await sandbox.close()
  rmSync(dir, { recursive: true, force: true })
})

const store = createSessionSecretStore()
const notices: Events['notice'][] = []

function deskOn(autoSync: boolean): Promise<SellerDesk> {
  return createSellerDesk({
    userDataDir: dir,
    secrets: { store, notice: null },
    app: { name: 'Seller Desk', version: '0.0.0-test', platform: 'linux', runtime: 'preview', dateLocale: 'en-US' },
    emit: (event, payload) => {
      if (event === 'notice') notices.push(payload as Events['notice'])
    },
    startDemoMarketplace: () => Promise.reject(new Error('no demo in this test')),
    autoSync,
    syncEngine: { historyDays: 3650 }
  })
}

async function call<T>(desk: SellerDesk, name: string, input: unknown = {}): Promise<T> {
  const outcome = await desk.router.dispatch(name, input)
  if (!outcome.ok) throw new Error(`${name}: ${outcome.error.message}`)
  return outcome.value as T
}

const until = async (what: string, check: () => boolean | Promise<boolean>, timeoutMs = 20_000) => {
  const end = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

it('a snapshot damaged where opening does not read is opened at once, found damaged apart, set aside with a notice, and synced afresh', async () => {
  const first = await deskOn(false)
  await first.session.restore()
  await call(first, 'session.signIn', { baseUrl: sandbox.baseUrl, apiKey: KEY })
  await call<SyncStatus>(first, 'sync.run', { kind: 'full' })
  await until('the first sync', async () => !(await call<SyncStatus>(first, 'sync.status')).running)
  const listed = (desk: SellerDesk) => call<Page<Order>>(desk, 'orders.list', { page: 1, take: 10, sortBy: 'date', sortDir: 'DESC' })
  const synced = (await listed(first)).total
  expect(synced).toBeGreaterThan(ORDERS / 2)
  await first.dispose()

  // A page in the middle of the orders' documents: opening reads none of it.
  const [name] = readdirSync(join(dir, 'snapshots')).filter((file) => file.endsWith('.sqlite'))
  const file = join(dir, 'snapshots', name!)
  const raw = new Database(file, { readonly: true })
  const [page] = raw.prepare("SELECT pageno FROM dbstat WHERE name = 'order_docs' AND pagetype = 'leaf' LIMIT 1 OFFSET 2").raw().get() as [number]
  const [pageSize] = raw.prepare('PRAGMA page_size').raw().get() as [number]
  raw.close()
  const bytes = readFileSync(file)
  bytes.fill(0x5a, (page - 1) * pageSize, page * pageSize)
  writeFileSync(file, bytes)

  const desk = await deskOn(true)
  try {
    await desk.session.restore()
    await until('the damaged file set aside', () => readdirSync(join(dir, 'snapshots')).some((file) => file.includes('.unreadable-')))
    // Found as the account opened: it stays on screen until closed, whether or not a page listened yet.
    expect(notices).toContainEqual({
      level: 'warning',
      message: 'The saved copy of your orders and listings could not be read, so Seller Desk set it aside and is downloading a fresh one.',
      untilClosed: true
    })
    // The fresh file is synced at once: every order is back.
    await until('every order synced again', async () => (await listed(desk)).total === synced)
  } finally {
    await desk.dispose()
  }
})
