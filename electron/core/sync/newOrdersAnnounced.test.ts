/**
 * New orders are announced once each, whatever becomes of the sync that stored them: a sync that stores
 * new orders and then fails (its check stopped by the marketplace's rate limit after the swap, its
 * listings part failing after the orders were read) announces them all the same, and the sync that
 * finishes its work announces none of them again; orders staged by a pass that is stopped are announced
 * once that pass is swapped in. Real HTTP (the sandbox), real SQLite, the sync service as the app runs it.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../sandbox'
import { createSellerApi } from '../sellerApi'
import { nodeFetch } from '../sellerApi/nodeFetch'
import { openSnapshot, type Snapshot } from '../snapshot/snapshot'
import { createSyncService, type SyncService } from './syncService'

const KEY = 'sk_test_announced_0123456789'
let open: { sandbox: Sandbox; snapshot: Snapshot; service: SyncService } | null = null
afterEach(async () => {
  open?.service.stop()
  open?.snapshot.close()
  await open?.sandbox.close()
  open = null
})

/**
 * A service over a sandbox and a snapshot synced once. `beforeRequest` sees each API request before it
 * is sent; `afterCommit` runs once a full sync's pass is swapped in (then is cleared).
 */
async function setUp() {
  const sandbox = await startSandbox({ apiKey: KEY, seed: 6, orders: 120, sellRequests: 40, now: new Date(), faults: { retryAfterSeconds: 60 } })
  const snapshot = openSnapshot(join(mkdtempSync(join(tmpdir(), 'seller-desk-announced-')), 'snapshot.sqlite'))
  const hooks: { beforeRequest: ((url: URL) => void) | null; afterCommit: (() => void) | null } = { beforeRequest: null, afterCommit: null }
  const commitRun = snapshot.commitRun
  snapshot.commitRun = async (...args) => {
    const done = await commitRun(...args)
    hooks.afterCommit?.()
    hooks.afterCommit = null
    return done
  }
  const announced: string[][] = []
  const service = createSyncService({
    api: createSellerApi({
      baseUrl: sandbox.baseUrl,
      apiKey: KEY,
      retries: 1,
      backoffMs: 5,
      timeoutMs: 5_000,
      fetch: (input, init) => {
        hooks.beforeRequest?.(new URL((input as Request).url))
        return nodeFetch(input, init)
      }
    }),
    snapshot,
    settings: () => ({ syncIntervalMinutes: 60, historyDays: 3650 }),
    engine: { take: 20, retriesPerPage: 1, concurrency: 1 },
    onStatus: () => undefined,
    onNewOrders: (ids) => announced.push(ids)
  })
  open = { sandbox, snapshot, service }
  await service.sync()
  await service.idle()
  expect(announced).toEqual([]) // the first sync is not "new"
  return { sandbox, snapshot, service, hooks, announced }
}

it('a full sync whose check the rate limit stops after its swap announces the new orders it stored; the sync that finishes the check announces none again', async () => {
  const s = await setUp()
  const added = s.sandbox.addOrders(3)
  s.hooks.afterCommit = () => s.sandbox.injectNext('rate-limit', 1_000)
  const stopped = await s.service.sync('full')
  expect(stopped.lastError).toMatchObject({ kind: 'rate-limited' })
  expect(s.snapshot.syncState('orders').checkOwed).not.toBeNull()
  expect(s.announced).toEqual([expect.arrayContaining(added)])
  expect(s.announced[0]).toHaveLength(3)

  s.sandbox.injectNext('rate-limit', 0)
  const finished = await s.service.sync()
  expect(finished.lastError).toBeNull()
  expect(s.snapshot.syncState('orders')).toMatchObject({ checkOwed: null, complete: true })
  expect(s.announced).toHaveLength(1)
})

it('a sync that stores new orders and then fails on the listings announces the orders; the next sync announces none of them again', async () => {
  const s = await setUp()
  const added = s.sandbox.addOrders(2)
  // The listings' part starts once the orders are stored and checked: from its first request on, the marketplace fails.
  s.hooks.beforeRequest = (url) => {
    if (!url.pathname.endsWith('/sell-requests')) return
    s.hooks.beforeRequest = null
    s.sandbox.injectNext('server-error', 1_000)
  }
  const failed = await s.service.sync()
  expect(failed.lastError).toMatchObject({ kind: 'server' })
  expect(s.snapshot.summarizeOrders(added).count).toBe(2)
  expect(s.announced).toEqual([expect.arrayContaining(added)])

  s.sandbox.injectNext('server-error', 0)
  const more = s.sandbox.addOrders(1)
  const next = await s.service.sync()
  expect(next.lastError).toBeNull()
  expect(s.announced).toEqual([expect.arrayContaining(added), more])
})

it('new orders a pass staged before the rate limit stopped it are announced once, when a later attempt swaps the pass in', async () => {
  const s = await setUp()
  const added = s.sandbox.addOrders(2)
  // The third page of the orders' pass and everything after it: answered 429, longer than the client waits.
  s.hooks.beforeRequest = (url) => {
    if (url.pathname.endsWith('/orders/seller') && url.searchParams.get('page') === '3' && url.searchParams.get('take') === '20') {
      s.hooks.beforeRequest = null
      s.sandbox.injectNext('rate-limit', 1_000)
    }
  }
  const stopped = await s.service.sync('full')
  expect(stopped.lastError).toMatchObject({ kind: 'rate-limited' })
  expect(s.snapshot.run('orders')).not.toBeNull()
  // Staged, not in the orders list yet: nothing to announce.
  expect(s.snapshot.summarizeOrders(added).count).toBe(0)
  expect(s.announced).toEqual([])

  s.sandbox.injectNext('rate-limit', 0)
  await s.service.sync()
  expect(s.snapshot.run('orders')).toBeNull()
  expect(s.announced).toEqual([expect.arrayContaining(added)])
  expect(s.announced[0]).toHaveLength(2)
  await s.service.sync()
  expect(s.announced).toHaveLength(1)
})
