/**
 * Crash safety: a process syncing the snapshot is SIGKILLed at random moments, 20 times. After every
 * kill the file opens, passes PRAGMA integrity_check, and holds a complete snapshot (the server's state,
 * or nothing before the first completed sync); then a sync converges to the server exactly.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'libsql'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../sandbox'
import { runUntilKilled } from '../killedChild.fixture'
import { createSellerApi } from '../sellerApi'
import { openSnapshot } from '../snapshot/snapshot'
import { createSyncEngine, DEFAULT_SYNC_SETTINGS } from './syncEngine'

const KEY = 'sk_test_kill_0123456789'
const KILLS = 20
const MIN_AFTER_COMPLETE = 8
const MAX_KILLS = 60
let sandbox: Sandbox

beforeAll(async () => {
  sandbox = await startSandbox({ apiKey: KEY, seed: 9, orders: 800, sellRequests: 500, now: new Date(), faults: { latencyMs: 1 } })
})
afterAll(() => sandbox.close())

/** Runs the child until killed `killAfterMs` after its first page written. */
const runChildUntilKilled = (file: string, killAfterMs: number) =>
  runUntilKilled(join(__dirname, 'syncUnderKill.child.ts'), [file, sandbox.baseUrl, KEY], 'page', killAfterMs)

it(`survives ${KILLS} SIGKILLs mid-sync and converges`, { timeout: 420_000 }, async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'seller-desk-kill-')), 'snapshot.sqlite')
  const serverOrders = sandbox.state.orders.map((o) => o.id).sort()
  const serverSellRequests = sandbox.state.sellRequests.map((s) => s.id).sort()
  let sawComplete = 0
  // Deterministic "random" moments spread over a sync's phases.
  let seed = 17
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31

  // At least KILLS kills, and enough of them after a first complete sync (how many it takes to get
  // there depends on the machine's load): the later ones hit syncs that replace a complete snapshot.
  let kills = 0
  for (; kills < KILLS || (sawComplete < MIN_AFTER_COMPLETE && kills < MAX_KILLS); kills++) {
    await runChildUntilKilled(file, Math.floor(random() * 600))

    const raw = new Database(file)
    expect((raw.prepare('PRAGMA integrity_check').raw().get() as [string])[0]).toBe('ok')
    raw.close()

    const snapshot = openSnapshot(file)
    expect(snapshot.notice).toBeNull()
    const { orders, sellRequests } = snapshot.dump()
    snapshot.close()
    // Whole or nothing per resource: never a half-swapped table.
    const orderIds = orders.map((o) => o.id).sort()
    const sellIds = sellRequests.map((s) => s.id).sort()
    if (orderIds.length > 0) expect(orderIds).toEqual(serverOrders)
    if (sellIds.length > 0) expect(sellIds).toEqual(serverSellRequests)
    if (orderIds.length > 0 && sellIds.length > 0) sawComplete++
  }
  console.log(`kills after a first complete sync: ${sawComplete} of ${kills}`)
  expect(kills).toBeGreaterThanOrEqual(KILLS)
  expect(sawComplete).toBeGreaterThanOrEqual(MIN_AFTER_COMPLETE)

  const snapshot = openSnapshot(file)
  const engine = createSyncEngine({
    api: createSellerApi({ baseUrl: sandbox.baseUrl, apiKey: KEY }),
    snapshot,
    settings: { ...DEFAULT_SYNC_SETTINGS, take: 50, historyDays: 3650 }
  })
  await engine.run('auto', new AbortController().signal)
  await engine.run('full', new AbortController().signal)
  const { orders, sellRequests } = snapshot.dump()
  expect(orders.map((o) => o.id).sort()).toEqual(serverOrders)
  expect(sellRequests.map((s) => s.id).sort()).toEqual(serverSellRequests)
  for (const row of sellRequests) expect(row.priceCents).toBe(sandbox.state.sellRequest(row.id)!.priceCents)
  snapshot.close()
})
