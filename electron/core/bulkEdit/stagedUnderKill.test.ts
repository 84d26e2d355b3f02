/**
 * Crash safety of staged changes: a process staging step after step is SIGKILLed at random moments,
 * 10 times. After every kill the file passes PRAGMA integrity_check and its saved change set is exactly
 * the state after one whole step: never a torn step, never older than the last step reported saved.
 * The next process starts from it (restored) and goes on.
 */
import { join } from 'node:path'
import Database from 'libsql'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../sandbox'
import { runUntilKilled } from '../killedChild.fixture'
import { readStagedChanges } from '../snapshot/stagedChanges'
import { stateAfter } from './stagedUnderKill.steps'
import { syncedWorkspace } from './syncedWorkspace.fixture'

const KEY = 'sk_test_staged_kill_0123456789'
const KILLS = 10
let sandbox: Sandbox

beforeAll(async () => {
  sandbox = await startSandbox({ apiKey: KEY, seed: 33, orders: 5, sellRequests: 300, now: new Date() })
})
afterAll(() => sandbox.close())

/** Runs the child from `first` until killed `killAfterMs` after its first saved step; resolves the last step it reported saved. */
async function runChildUntilKilled(file: string, first: number, ids: string[], killAfterMs: number): Promise<number> {
  const args = [file, sandbox.baseUrl, String(first), ids.join(',')]
  const { stdout } = await runUntilKilled(join(__dirname, 'stagedUnderKill.child.ts'), args, 'saved', killAfterMs) // staging is under way
  const saved = [...stdout.matchAll(/saved (\d+)/g)].map((match) => Number(match[1]))
  return saved.length ? Math.max(...saved) : first - 1
}

it(`keeps the staged changes of every whole step through ${KILLS} SIGKILLs`, { timeout: 90_000 }, async () => {
  const workspace = await syncedWorkspace(sandbox, KEY, 'staged-kill')
  const file = workspace.snapshot.file
  const ids = workspace.snapshot.dump().sellRequests.map((row) => row.id)
  await workspace.close()

  let seed = 11
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
  let next = 0
  for (let kill = 0; kill < KILLS; kill++) {
    const reported = await runChildUntilKilled(file, next, ids, Math.floor(30 + random() * 300))
    const raw = new Database(file)
    expect((raw.prepare('PRAGMA integrity_check').raw().get() as [string])[0]).toBe('ok')
    const saved = new Map(readStagedChanges(raw).map((change) => [change.sellRequestId, change.after]))
    raw.close()
    // The saved set is the state after one whole step: the last one reported saved, or the next (saved, not yet reported).
    const last = [reported, reported + 1].find((step) => {
      const expected = stateAfter(ids, step)
      return expected.size === saved.size && [...expected].every(([id, price]) => saved.get(id) === price)
    })
    expect(last, `kill ${kill}: the saved change set is not the state after step ${reported} (or just after)`).toBeDefined()
    expect(last!).toBeGreaterThanOrEqual(next) // each child staged and saved before its kill
    next = last! + 1
  }
})
