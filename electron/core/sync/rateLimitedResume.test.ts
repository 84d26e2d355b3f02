/**
 * A first full sync under a marketplace's rate limit: many requests answered 429 with a `Retry-After`
 * longer than the client waits, so each attempt reads some pages and stops. It is resumed for as long
 * as its attempts make progress, however long ago it started, and ends complete; a run that read
 * nothing for longer than the resume window starts over. Real HTTP (the sandbox), real SQLite, the
 * computer's clock injected.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { startSandbox, type Sandbox, type SandboxOptions } from '../../sandbox'
import { createSellerApi } from '../sellerApi'
import { openSnapshot, type Snapshot } from '../snapshot/snapshot'
import { coveredCount } from './rowRanges'
import { createSyncEngine, DEFAULT_SYNC_SETTINGS, type SyncProgress, type SyncSettings } from './syncEngine'

const KEY = 'sk_test_rate_limited_0123456789'
const MINUTE = 60_000
let open: { sandbox: Sandbox; snapshot: Snapshot } | null = null
afterEach(async () => {
  open?.snapshot.close()
  await open?.sandbox.close()
  open = null
})

/** A sandbox, a snapshot and an engine on a clock the test moves; the client waits as it does in the app. */
async function setup(options: SandboxOptions, settings: Partial<SyncSettings>, onProgress?: (progress: SyncProgress) => void) {
  const sandbox = await startSandbox({ apiKey: KEY, seed: 4, sellRequests: 0, now: new Date(), ...options })
  const snapshot = openSnapshot(join(mkdtempSync(join(tmpdir(), 'seller-desk-rate-limited-')), 'snapshot.sqlite'))
  open = { sandbox, snapshot }
  const clock = { ms: Date.now() }
  // The client's own longest wait for a Retry-After (the app's): a longer one ends the attempt.
  const api = createSellerApi({ baseUrl: sandbox.baseUrl, apiKey: KEY, backoffMs: 5, timeoutMs: 5_000 })
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
  return { sandbox, snapshot, clock, begun, attempt: () => engine.run('auto', new AbortController().signal, ['orders']) }
}

/** The marketplace's order ids the snapshot does not hold, and those it holds the marketplace does not. */
function differences(snapshot: Snapshot, sandbox: Sandbox) {
  const held = new Set(snapshot.dump().orders.map((order) => order.id))
  return {
    missing: sandbox.state.orders.filter((order) => !held.has(order.id)).length,
    gone: [...held].filter((id) => !sandbox.state.order(id)).length
  }
}

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
