/**
 * A first full sync under a marketplace's rate limit: many requests answered 429 with a `Retry-After`
 * longer than the client waits, so each attempt reads some pages and stops. It is resumed for as long
 * as its attempts make progress, however long ago it started, and ends complete; a run that read
 * nothing for longer than the resume window starts over. A pass swapped in whose catch-up or check is
 * stopped is finished by the next attempt's catch-up and check, not read again; and the periodic
 * reconcile counts from the end of a full sync, not its start. Real HTTP (the sandbox), real SQLite, the
 * computer's clock injected.
 */
import { randomUUID } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { startSandbox, type Sandbox, type SandboxOptions } from '../../sandbox'
import { createSellerApi } from '../sellerApi'
import { nodeFetch } from '../sellerApi/nodeFetch'
import { openSnapshot, type Resource, type Snapshot } from '../snapshot/snapshot'
import { coveredCount } from './rowRanges'
import { createSyncEngine, DEFAULT_SYNC_SETTINGS, type SyncProgress, type SyncRequest, type SyncSettings } from './syncEngine'

const KEY = 'sk_test_rate_limited_0123456789'
const MINUTE = 60_000
let open: { sandbox: Sandbox; snapshot: Snapshot } | null = null
afterEach(async () => {
  open?.snapshot.close()
  await open?.sandbox.close()
  open = null
})

/** A sandbox, a snapshot and an engine on a clock the test moves; the client waits as it does in the app. */
async function setup(options: SandboxOptions, settings: Partial<SyncSettings>, onProgress?: (progress: SyncProgress) => void, fetch?: typeof nodeFetch) {
  const sandbox = await startSandbox({ apiKey: KEY, seed: 4, sellRequests: 0, now: new Date(), ...options })
  const snapshot = openSnapshot(join(mkdtempSync(join(tmpdir(), 'seller-desk-rate-limited-')), 'snapshot.sqlite'))
  open = { sandbox, snapshot }
  const clock = { ms: Date.now() }
  // The client's own longest wait for a Retry-After (the app's): a longer one ends the attempt.
  const api = createSellerApi({ baseUrl: sandbox.baseUrl, apiKey: KEY, backoffMs: 5, timeoutMs: 5_000, ...(fetch ? { fetch } : {}) })
  const engine = createSyncEngine({
    api,
    snapshot,
    settings: { ...DEFAULT_SYNC_SETTINGS, historyDays: 3650, ...settings },
    now: () => clock.ms,
    ...(onProgress ? { onProgress } : {})
  })
  // Every run the snapshot begins (a start or a start over), by when it started.
  const begun: number[] = []
  const beginRun = snapshot.beginRun
  snapshot.beginRun = (run) => {
    begun.push(run.startedMs)
    return beginRun(run)
  }
  // Every pass swapped in, by when its run started; `afterCommit` runs once one is (then is cleared).
  const committed: number[] = []
  const hooks: { afterCommit: (() => void) | null } = { afterCommit: null }
  const commitRun = snapshot.commitRun
  snapshot.commitRun = async (resource, ...rest) => {
    const startedMs = snapshot.run(resource)?.startedMs
    const done = await commitRun(resource, ...rest)
    if (startedMs !== undefined) committed.push(startedMs)
    hooks.afterCommit?.()
    hooks.afterCommit = null
    return done
  }
  const attempt = (request: SyncRequest = 'auto', resources: Resource[] = ['orders']) => engine.run(request, new AbortController().signal, resources)
  return { sandbox, snapshot, clock, begun, committed, hooks, attempt }
}

/** The marketplace's order ids the snapshot does not hold, and those it holds the marketplace does not. */
function differences(snapshot: Snapshot, sandbox: Sandbox) {
  const held = new Set(snapshot.dump().orders.map((order) => order.id))
  return {
    missing: sandbox.state.orders.filter((order) => !held.has(order.id)).length,
    gone: [...held].filter((id) => !sandbox.state.order(id)).length
  }
}

/** The same for the listings. */
function listingsApart(snapshot: Snapshot, sandbox: Sandbox) {
  const held = new Set(snapshot.dump().sellRequests.map((row) => row.id))
  return {
    missing: sandbox.state.sellRequests.filter((row) => !held.has(row.id)).length,
    gone: [...held].filter((id) => !sandbox.state.sellRequest(id)).length
  }
}

/** The listings newest first, as the marketplace lists them. */
const listingsNewestFirst = (sandbox: Sandbox) => [...sandbox.state.sellRequests].sort((a, b) => b.updatedAt - a.updatedAt || (a.id < b.id ? -1 : 1))

it('a first full sync the marketplace keeps stopping with a long Retry-After resumes at every attempt that made progress, past the resume window, and ends complete', async () => {
  const s = await setup(
    { orders: 2_000, faults: { rateLimitRate: 0.1, retryAfterSeconds: 60, faultSeed: 7 } },
    // Pages of few rows: the list takes many more attempts than fit in the resume window. One request
    // at a time, so the same requests are answered 429 at every run of the test.
    { take: 20, concurrency: 1 }
  )
  const startedMs = s.clock.ms
  let stopped = 0
  let report: Awaited<ReturnType<typeof s.attempt>> | null = null
  // An attempt every twenty minutes (a timed sync), until one ends.
  for (let attempt = 0; attempt < 150 && !report; attempt++) {
    const before = s.snapshot.run('orders')
    try {
      report = await s.attempt()
    } catch (error) {
      expect(error).toMatchObject({ kind: 'rate-limited' })
      stopped++
      // Every stopped attempt kept what it read: the run it leaves covers no less than the one it found.
      const after = s.snapshot.run('orders')
      if (before && after) {
        expect(after.startedMs, `attempt ${attempt} started the run over`).toBe(before.startedMs)
        expect(coveredCount(after.covered)).toBeGreaterThanOrEqual(coveredCount(before.covered))
      }
    }
    s.clock.ms += 20 * MINUTE
  }
  expect(report, 'the sync never ended').not.toBeNull()
  // The attempts spanned more than the resume window: the run was resumed long after it started.
  expect(s.clock.ms - startedMs).toBeGreaterThan(2 * DEFAULT_SYNC_SETTINGS.resumeWithinMs)
  expect(stopped).toBeGreaterThan(6)
  expect(report!.checks.orders).toEqual({ synced: 2_000, total: 2_000, complete: true })
  expect(differences(s.snapshot, s.sandbox)).toEqual({ missing: 0, gone: 0 })
})

it('an interrupted run resumes while its last progress is within the window, however long ago it started; once nothing was read for longer, it starts over', async () => {
  // After this many pages of an attempt, every request is answered 429 (null: none).
  let limitAfter: number | null = null
  const s = await setup({ orders: 300, faults: { retryAfterSeconds: 60 } }, { take: 20, concurrency: 1 }, (progress) => {
    if (limitAfter !== null && progress.kind === 'full' && progress.pagesDone >= limitAfter) {
      s.sandbox.injectNext('rate-limit', 1_000)
      limitAfter = null
    }
  })
  const t0 = s.clock.ms
  const at = async (minutes: number, pages: number | null) => {
    s.clock.ms = t0 + minutes * MINUTE
    s.sandbox.injectNext('rate-limit', pages === 0 ? 1_000 : 0)
    limitAfter = pages === 0 ? null : pages
    return s.attempt()
  }
  const covered = () => coveredCount(s.snapshot.run('orders')!.covered)

  await expect(at(0, 3)).rejects.toMatchObject({ kind: 'rate-limited' })
  const first = covered()
  expect(first).toBeGreaterThanOrEqual(3 * 20)
  await expect(at(45, 3)).rejects.toMatchObject({ kind: 'rate-limited' })
  const second = covered()
  expect(second).toBeGreaterThan(first)
  // Longer than the window since it started, within it since it last read rows: resumed.
  await expect(at(100, 3)).rejects.toMatchObject({ kind: 'rate-limited' })
  expect(s.begun).toEqual([t0])
  const third = covered()
  expect(third).toBeGreaterThan(second)
  // An attempt that reads nothing is no progress.
  await expect(at(130, 0)).rejects.toMatchObject({ kind: 'rate-limited' })
  expect(covered()).toBe(third)
  expect(s.begun).toEqual([t0])
  // Longer than the window since it last read rows (an attempt came between): started over, and read whole.
  const report = await at(161, null)
  expect(s.begun).toEqual([t0, t0 + 161 * MINUTE])
  expect(report.pagesFetched.orders).toBeGreaterThanOrEqual(300 / 20)
  expect(report.checks.orders).toEqual({ synced: 300, total: 300, complete: true })
  expect(differences(s.snapshot, s.sandbox)).toEqual({ missing: 0, gone: 0 })
})

it('a first full sync the marketplace keeps stopping, its check after the swap too, swaps in one pass only: the next attempt finishes the check', async () => {
  // The fault seed under which the catch-up or the check after a swap is stopped again and again.
  const s = await setup({ orders: 2_000, faults: { rateLimitRate: 0.1, retryAfterSeconds: 60, faultSeed: 29 } }, { take: 20, concurrency: 1 })
  let report: Awaited<ReturnType<typeof s.attempt>> | null = null
  // Attempts that found a check owed: a pass swapped in whose check was stopped.
  let owed = 0
  for (let attempt = 0; attempt < 150 && !report; attempt++) {
    if (s.snapshot.syncState('orders').checkOwed) owed++
    try {
      report = await s.attempt()
    } catch (error) {
      expect(error).toMatchObject({ kind: 'rate-limited' })
      // Until the check has run, the seller is shown no shortfall: the state says it was not checked.
      if (s.committed.length) expect(s.snapshot.syncState('orders')).toMatchObject({ complete: false, serverTotal: null, syncedCount: null })
    }
    s.clock.ms += 20 * MINUTE
  }
  expect(report, 'the sync never ended').not.toBeNull()
  // One run, one pass swapped in: the attempts after it read what changed since and the count.
  expect(s.begun).toHaveLength(1)
  expect(s.committed).toEqual(s.begun)
  expect(owed).toBeGreaterThan(0)
  expect(report!.kinds.orders).toBe('incremental')
  expect(report!.checks.orders).toEqual({ synced: 2_000, total: 2_000, complete: true })
  expect(s.snapshot.syncState('orders')).toMatchObject({ complete: true, serverTotal: 2_000, syncedCount: 2_000, checkOwed: null })
  expect(differences(s.snapshot, s.sandbox)).toEqual({ missing: 0, gone: 0 })
})

it('the check a rate limit stopped after the swap is run by the next sync and judges the pass as the one right after it would have: a pass read whole ends complete; one a deletion ran through is read again', async () => {
  // Once set, a sell request of the first page is deleted when the pass has read this many pages.
  let deleteAfter: number | null = null
  const s = await setup({ orders: 0, sellRequests: 300, faults: { retryAfterSeconds: 60 } }, { take: 20, concurrency: 1 }, (progress) => {
    if (deleteAfter !== null && progress.kind === 'full' && progress.pagesDone >= deleteAfter) {
      deleteAfter = null
      s.sandbox.state.deleteSellRequest(s.sandbox.state.sellRequests.at(-1)!.id)
    }
  })
  const listings: Resource[] = ['sellRequests']
  const t0 = s.clock.ms
  const at = (minutes: number, request: SyncRequest) => {
    s.clock.ms = t0 + minutes * MINUTE
    s.sandbox.injectNext('rate-limit', 0)
    return s.attempt(request, listings)
  }
  // Every request after the swap is refused as rate-limited, with a Retry-After longer than the client waits.
  const stopAfterSwap = () => (s.hooks.afterCommit = () => s.sandbox.injectNext('rate-limit', 1_000))
  const listingDifferences = () => listingsApart(s.snapshot, s.sandbox)

  stopAfterSwap()
  await expect(at(0, 'auto')).rejects.toMatchObject({ kind: 'rate-limited' })
  expect(s.committed).toEqual([t0])
  expect(s.snapshot.syncState('sellRequests')).toMatchObject({ complete: false, serverTotal: null })
  // The next sync reads what changed since the pass and the count: no pass again.
  const finished = await at(20, 'auto')
  expect(s.begun).toEqual([t0])
  expect(finished.kinds.sellRequests).toBe('incremental')
  expect(finished.pagesFetched.sellRequests).toBeLessThan(300 / 20)
  expect(finished.checks.sellRequests).toEqual({ synced: 300, total: 300, complete: true })
  expect(s.snapshot.syncState('sellRequests')).toMatchObject({ complete: true, serverTotal: 300, syncedCount: 300, checkOwed: null })
  expect(listingDifferences()).toEqual({ missing: 0, gone: 0 })

  // A full sync through which a listing it read is deleted: the rows after it move back a place, and
  // the one at a page's edge is passed over. The deleted one stays held: the counts agree, the rows do not.
  stopAfterSwap()
  deleteAfter = 5
  await expect(at(40, 'full')).rejects.toMatchObject({ kind: 'rate-limited' })
  expect(s.committed).toEqual([t0, t0 + 40 * MINUTE])
  expect(s.snapshot.count('sellRequests')).toBe(s.sandbox.state.sellRequests.length)
  expect(listingDifferences()).toEqual({ missing: 1, gone: 1 })
  // The check finds what the pass saw (the total went down while it read): the list is read again.
  const readAgain = await at(60, 'auto')
  expect(s.begun).toEqual([t0, t0 + 40 * MINUTE, t0 + 60 * MINUTE])
  expect(readAgain.kinds.sellRequests).toBe('full')
  expect(readAgain.checks.sellRequests).toEqual({ synced: 299, total: 299, complete: true })
  expect(listingDifferences()).toEqual({ missing: 0, gone: 0 })
})

it('the periodic reconcile counts from the end of the last full sync: one that read for longer than the interval is followed by incremental syncs until the interval has passed since it ended', async () => {
  // While set, each page of the full pass takes this long by the computer's clock.
  let pageMinutes: number | null = 30
  const s = await setup({ orders: 300 }, { take: 20, concurrency: 1 }, (progress) => {
    if (pageMinutes !== null && progress.kind === 'full') s.clock.ms += pageMinutes * MINUTE
  })
  const t0 = s.clock.ms
  const first = await s.attempt()
  pageMinutes = null
  const endedMs = s.clock.ms
  expect(first.kinds.orders).toBe('full')
  expect(first.checks.orders).toEqual({ synced: 300, total: 300, complete: true })
  expect(endedMs - t0).toBeGreaterThan(DEFAULT_SYNC_SETTINGS.reconcileEveryMs)
  // What the seller is told of the full sync is unchanged: it holds every change up to its start.
  expect(s.snapshot.syncState('orders').lastFullMs).toBe(t0)

  s.clock.ms = endedMs + 20 * MINUTE
  const next = await s.attempt()
  expect(next.kinds.orders).toBe('incremental')
  expect(next.checks.orders).toEqual({ synced: 300, total: 300, complete: true })
  s.clock.ms = endedMs + DEFAULT_SYNC_SETTINGS.reconcileEveryMs - MINUTE
  expect((await s.attempt()).kinds.orders).toBe('incremental')
  s.clock.ms = endedMs + DEFAULT_SYNC_SETTINGS.reconcileEveryMs + MINUTE
  const reconciled = await s.attempt()
  expect(reconciled.kinds.orders).toBe('full')
  expect(s.begun).toEqual([t0, endedMs + DEFAULT_SYNC_SETTINGS.reconcileEveryMs + MINUTE])
  expect(differences(s.snapshot, s.sandbox)).toEqual({ missing: 0, gone: 0 })
})

it('a listing that cannot be read, read by an attempt the rate limit then stopped, is still named and counted when a later attempt ends the pass: one pass, complete', async () => {
  // After this many pages of an attempt's pass, every request is answered 429 (null: none).
  let limitAfter: number | null = 2
  const s = await setup({ orders: 0, sellRequests: 300, faults: { retryAfterSeconds: 60 } }, { take: 20, concurrency: 1 }, (progress) => {
    if (limitAfter !== null && progress.kind === 'full' && progress.pagesDone >= limitAfter) {
      limitAfter = null
      s.sandbox.injectNext('rate-limit', 1_000)
    }
  })
  // On the second page: past the first page, which the catch-up after the pass reads again.
  const garbled = listingsNewestFirst(s.sandbox)[30]!
  s.sandbox.spoilRows('sellRequests', [garbled.id])
  await expect(s.attempt('auto', ['sellRequests'])).rejects.toMatchObject({ kind: 'rate-limited' })
  expect(coveredCount(s.snapshot.run('sellRequests')!.covered)).toBe(40)

  s.clock.ms += 20 * MINUTE
  s.sandbox.injectNext('rate-limit', 0)
  const report = await s.attempt('auto', ['sellRequests'])
  // The row the first attempt found unreadable is accounted for: no second pass over the whole list.
  expect(report.rounds.sellRequests).toBe(1)
  expect(s.begun).toHaveLength(1)
  expect(report.checks.sellRequests).toEqual({
    synced: 299,
    total: 300,
    complete: true,
    unreadable: [{ id: garbled.id, label: `${garbled.name} (SKU ${garbled.sku})`, position: 30, problem: 'price: expected an amount in dollars' }]
  })
  expect(s.snapshot.unreadable('sellRequests')).toEqual(report.checks.sellRequests!.unreadable)
})

it('listings created while a pass reads, some read by an attempt the rate limit stopped: a deletion the later attempt ran into is seen, and the list read again', async () => {
  // Pages of ten, two on the wire at once. The first attempt reads a page, then new listings push the
  // list on by more than a page, so its second page holds one of them; then it is stopped. The next
  // attempt has the marketplace answer one page before the page ahead of it, and between the two a
  // listing the first attempt read is deleted and two are created: a row is passed over, the deleted
  // one is held, and the counts agree. Only the rows created meanwhile, the first attempt's included,
  // tell a deletion from the total's change.
  let stage: 'first attempt' | 'second attempt' | 'free' = 'first attempt'
  let pushedOn = false
  let secondPageTaken!: () => void
  const secondPage = new Promise<void>((resolve) => (secondPageTaken = resolve))
  let fourthPageAnswered!: () => void
  const fourthPage = new Promise<void>((resolve) => (fourthPageAnswered = resolve))
  const s = await setup(
    { orders: 0, sellRequests: 60, faults: { retryAfterSeconds: 60 } },
    { take: 10, concurrency: 2 },
    (progress) => {
      if (progress.kind !== 'full' || progress.resource !== 'sellRequests') return
      if (stage === 'first attempt' && progress.pagesDone === 1 && !pushedOn) {
        pushedOn = true
        create(11)
      }
      if (stage === 'first attempt' && progress.pagesDone === 2) secondPageTaken()
    },
    async (input, init) => {
      const url = new URL((input as Request).url)
      const page = url.pathname.endsWith('/sell-requests') && url.searchParams.get('take') === '10' ? Number(url.searchParams.get('page')) : 0
      if (stage === 'first attempt' && page >= 3) {
        await secondPage
        s.sandbox.injectNext('rate-limit', 1_000)
      }
      if (stage === 'second attempt' && page === 3) {
        // Asked together with the page after it: answered once that one was.
        await fourthPage
        stage = 'free'
        s.sandbox.state.deleteSellRequest(deleted.id)
        create(2)
      }
      const response = await nodeFetch(input, init)
      if (stage === 'second attempt' && page === 4) fourthPageAnswered()
      return response
    }
  )
  const listed = listingsNewestFirst(s.sandbox)
  const deleted = listed[1]!
  const create = (n: number) => {
    for (let i = 0; i < n; i++) {
      const at = Date.now() + i
      s.sandbox.state.addSellRequest({ ...listed[0]!, id: randomUUID(), sku: `NEW-${randomUUID()}`, createdAt: at, updatedAt: at })
    }
  }
  const listings: Resource[] = ['sellRequests']

  await expect(s.attempt('auto', listings)).rejects.toMatchObject({ kind: 'rate-limited' })
  expect(coveredCount(s.snapshot.run('sellRequests')!.covered)).toBe(20)

  s.clock.ms += 20 * MINUTE
  s.sandbox.injectNext('rate-limit', 0)
  stage = 'second attempt'
  const report = await s.attempt('auto', listings)
  expect(stage).toBe('free')
  // Complete only with the marketplace's rows: the pass is judged as one, on all the rows created
  // meanwhile, which the total's change does not account for. The list is read again.
  expect(report.checks.sellRequests).toEqual({ synced: 72, total: 72, complete: true })
  expect(listingsApart(s.snapshot, s.sandbox)).toEqual({ missing: 0, gone: 0 })
  expect(report.rounds.sellRequests).toBe(2)
})
