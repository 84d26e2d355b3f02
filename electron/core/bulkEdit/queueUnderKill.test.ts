/**
 * Crash safety of queueing an apply: a process queueing a batch a few changes at a time is SIGKILLed
 * at random moments, 10 times, each time with the change set staged afresh. After every kill the file
 * passes PRAGMA integrity_check and every change staged before it is in exactly one place: still
 * staged, or queued in a batch begun by that process (with the same value); such a batch's label
 * words the changes it holds, not those the process meant to queue.
 */
import { join } from 'node:path'
import Database from 'libsql'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../sandbox'
import { runUntilKilled } from '../killedChild.fixture'
import { createSellerApi } from '../sellerApi'
import { openSnapshot } from '../snapshot/snapshot'
import { readStagedChanges } from '../snapshot/stagedChanges'
import { createBulkEdit } from './bulkEdit'
import { syncedWorkspace } from './syncedWorkspace.fixture'

const KEY = 'sk_test_queue_kill_0123456789'
const KILLS = 10
const LISTINGS = 400
let sandbox: Sandbox

beforeAll(async () => {
  sandbox = await startSandbox({ apiKey: KEY, seed: 41, orders: 5, sellRequests: LISTINGS, now: new Date() })
})
afterAll(() => sandbox.close())

/** Runs the child; resolves once it was killed `killAfterMs` after it began queueing (or ended first). */
const runChildUntilKilled = (file: string, killAfterMs: number) =>
  runUntilKilled(join(__dirname, 'queueUnderKill.child.ts'), [file, sandbox.baseUrl, KEY], 'queueing', killAfterMs, { mayFinish: true })

/** The file's staged changes, queued changes (batch id → `listing:field` → value after) and batches' labels. */
function saved(file: string): { staged: Map<string, number>; queued: Map<string, Map<string, number>>; labels: Map<string, string> } {
  const raw = new Database(file)
  try {
    expect((raw.prepare('PRAGMA integrity_check').raw().get() as [string])[0]).toBe('ok')
    const staged = new Map(readStagedChanges(raw).map((change) => [`${change.sellRequestId}:${change.field}`, change.after]))
    const queued = new Map<string, Map<string, number>>()
    for (const [batchId, id, field, after] of raw.prepare('SELECT batch_id, sell_request_id, field, after_value FROM bulk_changes').raw().all() as [
      string,
      string,
      string,
      number
    ][]) {
      if (!queued.has(batchId)) queued.set(batchId, new Map())
      queued.get(batchId)!.set(`${id}:${field}`, after)
    }
    const labels = new Map(raw.prepare('SELECT id, label FROM bulk_batches').raw().all() as [string, string][])
    return { staged, queued, labels }
  } finally {
    raw.close()
  }
}

/** The label of a batch holding these changes (`listing:field`): prices, then quantities, on how many listings. */
function labelFor(keys: string[]): string {
  const count = (field: string) => keys.filter((key) => key.endsWith(`:${field}`)).length
  const counts = [
    [count('priceCents'), 'prices'],
    [count('quantity'), 'quantities']
  ].flatMap(([n, plural]) => (n ? [`${n} ${plural}`] : []))
  const listings = new Set(keys.map((key) => key.slice(0, key.lastIndexOf(':')))).size
  return `${counts.join(' and ')} on ${listings} listings`
}

it(`every change staged is in exactly one place through ${KILLS} SIGKILLs while a batch is queued`, { timeout: 90_000 }, async () => {
  const workspace = await syncedWorkspace(sandbox, KEY, 'queue-kill')
  const file = workspace.snapshot.file
  await workspace.close()

  let seed = 9
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
  let killedMidQueue = 0
  for (let kill = 0; kill < KILLS; kill++) {
    // A fresh change set on every listing (price and quantity), saved with the account.
    const snapshot = openSnapshot(file)
    const bulk = createBulkEdit({ snapshot, api: createSellerApi({ baseUrl: sandbox.baseUrl, apiKey: KEY }), online: () => true, onProgress: () => {} })
    bulk.operation({ all: true }, { kind: 'adjustPricePercent', percent: kill + 1 })
    bulk.operation({ all: true }, { kind: 'setQuantity', quantity: 100 + kill })
    await bulk.close()
    snapshot.close()
    const before = saved(file)
    expect(before.staged.size).toBeGreaterThan(LISTINGS * 1.9)

    await runChildUntilKilled(file, Math.floor(random() * 40))
    const after = saved(file)
    // Batches begun by this child: what it took out of the change set, and nothing else.
    const taken = new Map<string, number>()
    for (const [batchId, changes] of after.queued) {
      if (before.queued.has(batchId)) continue
      for (const [key, value] of changes) {
        expect(taken.has(key)).toBe(false)
        taken.set(key, value)
      }
      expect(after.labels.get(batchId)).toBe(labelFor([...changes.keys()]))
    }
    for (const [key, value] of before.staged) {
      const places = [after.staged.get(key), taken.get(key)].filter((found) => found !== undefined)
      expect(places, key).toEqual([value])
    }
    expect(after.staged.size + taken.size).toBe(before.staged.size)
    if (taken.size > 0 && after.staged.size > 0) killedMidQueue++
  }
  console.log(`kills that landed mid-queue: ${killedMidQueue} of ${KILLS}`)
  expect(killedMidQueue).toBeGreaterThanOrEqual(KILLS / 2)
})
