/**
 * The note of the last batch's changes that did not apply (bulk.status's `unapplied`), read from the
 * apply queue against the demo marketplace: which changes and why, gone once a retry applies them, put
 * away by the seller (and kept away after reopening) until a retry, and replaced by a newer batch.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../sandbox'
import type { AppSettings, UnappliedChange } from '../../shared/contract'
import { createSellerApi } from '../sellerApi'
import { openWorkspace, type Workspace } from '../workspace'

const KEY = 'sk_test_unapplied_note_42'
const settings = { syncIntervalMinutes: 5, historyDays: 30, notifyNewOrders: false } as AppSettings
let sandbox: Sandbox
let workspace: Workspace
let userDataDir: string

function open(): Workspace {
  return openWorkspace({
    userDataDir,
    account: { demo: false, baseUrl: sandbox.baseUrl, sellerId: 'seller-unapplied' },
    api: createSellerApi({ baseUrl: sandbox.baseUrl, apiKey: KEY, backoffMs: 5 }),
    settings: () => settings,
    emit: () => {}
  })
}

beforeEach(async () => {
  sandbox = await startSandbox({ apiKey: KEY, orders: 5, sellRequests: 30, seed: 23, now: new Date() })
  userDataDir = mkdtempSync(join(tmpdir(), 'seller-desk-unapplied-'))
  workspace = open()
  await workspace.sync.sync()
  await workspace.sync.idle()
})
afterEach(async () => {
  await workspace.close()
  await sandbox.close()
})

const ids = () => workspace.snapshot.dump().sellRequests.map((listing) => listing.id)

/** Every change of the batch that did not apply, page after page. */
function unappliedOf(batchId: string): UnappliedChange[] {
  const first = workspace.bulk.unappliedChanges(batchId, 0)
  const changes = [...first.changes]
  while (changes.length < first.total) changes.push(...workspace.bulk.unappliedChanges(batchId, changes.length).changes)
  return changes
}

/** Stages these listings' prices up by a dollar and applies them; the batch once it has ended. */
async function applyPriceRise(listingIds: string[]) {
  workspace.bulk.operation({ ids: listingIds }, { kind: 'adjustPriceAmount', amountCents: 100 })
  const batch = await workspace.bulk.apply(true)
  await workspace.bulk.whenIdle()
  return batch
}

it('names the last batch’s changes the marketplace refused, each with its reason, until a retry applies them', async () => {
  const chosen = ids().slice(0, 20)
  sandbox.setFaults({ errorRate: 0.5, faultSeed: 4, latencyMs: 5 })
  workspace.bulk.operation({ ids: chosen }, { kind: 'adjustPriceAmount', amountCents: 100 })
  const batch = await workspace.bulk.apply(true)
  // While it runs, its panel tells how it goes: no note yet.
  expect(workspace.bulk.status().unapplied).toBeNull()
  await workspace.bulk.whenIdle()

  const note = workspace.bulk.status().unapplied
  expect(note).toMatchObject({ id: batch.id, running: false, pending: 0 })
  expect(note!.failed).toBeGreaterThan(0)
  expect(note!.failed).toBeLessThan(20)
  const changes = unappliedOf(batch.id)
  expect(changes).toHaveLength(note!.failed)
  // Exactly the listings whose new price the marketplace does not hold, each with the marketplace's reason.
  const notHeld = chosen.filter((id) => !changes.some(([listing]) => listing === id))
  for (const [id, field, status, after, message] of changes) {
    expect({ field, status }).toEqual({ field: 'priceCents', status: 'failed' })
    expect(sandbox.state.sellRequest(id)!.priceCents).not.toBe(after)
    expect(message).toMatch(/marketplace/i)
  }
  const applied = workspace.bulk.batchRows({ batchId: batch.id, status: 'applied', page: 1, take: 50 }).rows
  expect(applied.map((row) => row.sellRequestId).sort()).toEqual(notHeld.sort())
  for (const row of applied) expect(sandbox.state.sellRequest(row.sellRequestId)!.priceCents).toBe(row.after)
  // Paged by listing: a later page goes on where the first ended.
  expect(workspace.bulk.unappliedChanges(batch.id, 1).changes[0]).toEqual(changes[1])

  sandbox.setFaults({ errorRate: 0 })
  await workspace.bulk.retryFailed(batch.id)
  expect(workspace.bulk.status().unapplied).toBeNull()
  await workspace.bulk.whenIdle()
  expect(workspace.bulk.status().unapplied).toBeNull()
  expect(unappliedOf(batch.id)).toEqual([])
})

it('put away, the note stays away (also after reopening) until a retry, which notes what still does not apply', async () => {
  const [changedElsewhere, deleted, fine] = ids()
  const before = sandbox.state.sellRequest(changedElsewhere!)!.priceCents
  workspace.bulk.operation({ ids: [changedElsewhere!, deleted!, fine!] }, { kind: 'adjustPriceAmount', amountCents: 100 })
  sandbox.state.editSellRequest(changedElsewhere!, { priceCents: before + 5 }, Date.now())
  sandbox.state.deleteSellRequest(deleted!)
  const batch = await workspace.bulk.apply(true)
  await workspace.bulk.whenIdle()

  expect(workspace.bulk.status().unapplied).toMatchObject({ id: batch.id, applied: 1, failed: 1, conflict: 1 })
  const byListing = new Map(unappliedOf(batch.id).map((change) => [change[0], change]))
  expect([...byListing.keys()].sort()).toEqual([changedElsewhere, deleted].sort())
  expect(byListing.get(changedElsewhere!)).toMatchObject([
    changedElsewhere,
    'priceCents',
    'conflict',
    before + 100,
    expect.stringMatching(/Changed on the marketplace/)
  ])
  expect(byListing.get(deleted!)?.[2]).toBe('failed')

  expect(await workspace.bulk.dismissUnapplied(batch.id)).toEqual({ unapplied: null })
  expect(workspace.bulk.status().unapplied).toBeNull()
  // What did not apply is still the batch's, for History and its export.
  expect(unappliedOf(batch.id)).toHaveLength(2)
  await workspace.close()
  workspace = open()
  expect(workspace.bulk.status().unapplied).toBeNull()

  // The deleted listing fails again: news, noted again.
  await workspace.bulk.retryFailed(batch.id)
  await workspace.bulk.whenIdle()
  expect(workspace.bulk.status().unapplied).toMatchObject({ id: batch.id, failed: 1, conflict: 1 })
})

it('a newer batch replaces the note of the one before, whatever its own outcome; History keeps both', async () => {
  const [first, second] = ids()
  sandbox.state.deleteSellRequest(first!)
  const failing = await applyPriceRise([first!])
  expect(workspace.bulk.status().unapplied).toMatchObject({ id: failing.id, failed: 1 })

  const next = await applyPriceRise([second!])
  expect(workspace.bulk.status().unapplied).toBeNull()
  expect(workspace.bulk.history(5).map((batch) => [batch.id, batch.failed])).toEqual([
    [next.id, 0],
    [failing.id, 1]
  ])
})

it('refuses the changes of a batch that is not on this computer', async () => {
  expect(() => workspace.bulk.unappliedChanges('00000000-0000-4000-8000-000000000000', 0)).toThrow(/not on this computer/)
  await expect(workspace.bulk.dismissUnapplied('00000000-0000-4000-8000-000000000000')).rejects.toThrow(/not on this computer/)
})
