/**
 * Crash safety of applying: a process applying a batch is SIGKILLed at random moments, 10 times. After
 * every kill the file passes PRAGMA integrity_check and still holds every change of the batch; then a
 * resume completes and the marketplace ends exactly in the intended state, every change applied.
 */
import { join } from 'node:path'
import Database from 'libsql'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../sandbox'
import { runUntilKilled } from '../killedChild.fixture'
import { createSellerApi } from '../sellerApi'
import { openSnapshot } from '../snapshot/snapshot'
import { createBulkEdit } from './bulkEdit'
import { syncedWorkspace } from './syncedWorkspace.fixture'

const KEY = 'sk_test_apply_kill_0123456789'
const KILLS = 10
const LISTINGS = 400
let sandbox: Sandbox

beforeAll(async () => {
  sandbox = await startSandbox({ apiKey: KEY, seed: 21, orders: 5, sellRequests: LISTINGS, now: new Date() })
})
afterAll(() => sandbox.close())

/** Runs the child; resolves 'killed', or 'finished' when the batch was done before the kill. */
async function runChildUntilKilled(file: string, batchId: string, killAfterMs: number): Promise<'killed' | 'finished'> {
  const args = [file, sandbox.baseUrl, KEY, batchId]
  const { killed } = await runUntilKilled(join(__dirname, 'applyUnderKill.child.ts'), args, 'ready', killAfterMs, { mayFinish: true })
  return killed ? 'killed' : 'finished'
}

it(`survives ${KILLS} SIGKILLs mid-apply and resumes to exactly the intended state`, { timeout: 60_000 }, async () => {
  const workspace = await syncedWorkspace(sandbox, KEY, 'apply-kill')
  const file = workspace.snapshot.file
  workspace.bulk.operation({ all: true }, { kind: 'adjustPricePercent', percent: -5 })
  workspace.bulk.operation({ all: true }, { kind: 'setQuantity', quantity: 17 })
  const intended = new Map(workspace.snapshot.dump().sellRequests.map((row) => [row.id, { priceCents: row.priceCents, quantity: 17 }]))
  for (const change of workspace.bulk.changes({ page: 1, take: 1000, only: 'all' }).rows) {
    if (change.field === 'priceCents') intended.get(change.sellRequestId)!.priceCents = change.after
  }
  sandbox.setFaults({ latencyMs: 20 })
  const batch = await workspace.bulk.apply(true) // queued, first PATCHes sent…
  await workspace.close() // …and closed at once (the PATCHes in flight answered): the children take over
  expect(batch.total).toBeGreaterThan(LISTINGS * 1.9) // a listing already at 17 has no quantity change

  let seed = 5
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
  let killedMidApply = 0
  for (let kill = 0; kill < KILLS; kill++) {
    const outcome = await runChildUntilKilled(file, batch.id, Math.floor(20 + random() * 230))
    const raw = new Database(file)
    expect((raw.prepare('PRAGMA integrity_check').raw().get() as [string])[0]).toBe('ok')
    const [total, pending] = raw.prepare("SELECT COUNT(*), SUM(status = 'pending') FROM bulk_changes WHERE batch_id = ?").raw().get(batch.id) as [
      number,
      number
    ]
    raw.close()
    expect(total).toBe(batch.total) // nothing dropped
    if (outcome === 'killed' && pending > 0) killedMidApply++
  }
  console.log(`kills that landed mid-apply: ${killedMidApply} of ${KILLS}`)
  expect(killedMidApply).toBeGreaterThanOrEqual(KILLS / 2)

  sandbox.setFaults({ latencyMs: 0 })
  const snapshot = openSnapshot(file)
  const bulk = createBulkEdit({ snapshot, api: createSellerApi({ baseUrl: sandbox.baseUrl, apiKey: KEY }), online: () => true, onProgress: () => {} })
  if (bulk.status().pendingBatch) bulk.resume(batch.id)
  await bulk.whenIdle()
  expect(bulk.history(1)[0]).toMatchObject({ id: batch.id, applied: batch.total, pending: 0, failed: 0, conflict: 0 })
  snapshot.close()
  for (const [id, values] of intended) expect(sandbox.state.sellRequest(id)).toMatchObject(values)
})
