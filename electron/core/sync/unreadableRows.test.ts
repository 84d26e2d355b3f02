/**
 * The sync against a marketplace that sends a few rows it cannot be read (a listing whose price is
 * "abc", an order with no id) among good ones: the good rows are all held, the unreadable ones fill
 * their places (no gap, no page read again and again), a copy held from before is kept, and the outcome
 * names them. Real HTTP (the sandbox spoils the rows: spoilRows), real SQLite.
 */
import { randomUUID } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { startSandbox, type Sandbox, type SandboxOptions } from '../../sandbox'
import { createSellerApi } from '../sellerApi'
import { openSnapshot, type Snapshot } from '../snapshot/snapshot'
import { createSyncEngine, DEFAULT_SYNC_SETTINGS, type SyncSettings } from './syncEngine'

const KEY = 'sk_test_unreadable_0123456789'
let open: { sandbox: Sandbox; snapshot: Snapshot } | null = null
afterEach(async () => {
  open?.snapshot.close()
  await open?.sandbox.close()
  open = null
})

async function setup(options: SandboxOptions, settings: Partial<SyncSettings> = {}) {
  const sandbox = await startSandbox({ apiKey: KEY, seed: 5, now: new Date(), ...options })
  const snapshot = openSnapshot(join(mkdtempSync(join(tmpdir(), 'seller-desk-unreadable-')), 'snapshot.sqlite'))
  open = { sandbox, snapshot }
  const api = createSellerApi({ baseUrl: sandbox.baseUrl, apiKey: KEY, backoffMs: 5, timeoutMs: 5_000 })
  const engine = createSyncEngine({ api, snapshot, settings: { ...DEFAULT_SYNC_SETTINGS, historyDays: 3650, take: 100, ...settings } })
  return {
    sandbox,
    snapshot,
    run: (kind: 'auto' | 'full' | 'catchUp', resources?: ('orders' | 'sellRequests')[]) => engine.run(kind, new AbortController().signal, resources)
  }
}

/** The listings newest first, as the marketplace lists them. */
const newestFirst = (sandbox: Sandbox) => [...sandbox.state.sellRequests].sort((a, b) => b.updatedAt - a.updatedAt || (a.id < b.id ? -1 : 1))
const heldIds = (snapshot: Snapshot, resource: 'orders' | 'sellRequests') => new Set(snapshot.dump()[resource].map((row) => row.id))
const PRICE = 'price: expected an amount in dollars'

it('a full sync with rows that cannot be read: every good row held, no gap and no list read again, the rows named', async () => {
  const s = await setup({ orders: 30, sellRequests: 300 })
  const listings = newestFirst(s.sandbox)
  const [garbled, noId] = [listings[10]!, listings[250]!]
  s.sandbox.spoilRows('sellRequests', [garbled.id])
  // (Spoiled one list at a time: the sandbox names one set per list.)
  const report = await s.run('full', ['sellRequests'])
  const held = heldIds(s.snapshot, 'sellRequests')
  expect(held.size).toBe(299)
  expect(held.has(garbled.id)).toBe(false)
  expect(report.checks.sellRequests).toEqual({
    synced: 299,
    total: 300,
    complete: true,
    unreadable: [{ id: garbled.id, label: `${garbled.name} (SKU ${garbled.sku})`, position: 10, problem: PRICE }]
  })
  // One pass of 3 pages, its catch-up's page and the count: nothing read again for the row not held.
  expect(report.rounds.sellRequests).toBe(1)
  expect(report.pagesFetched.sellRequests).toBeLessThanOrEqual(6)

  // A row with no id: the one it was cannot be told, so it is one the app holds no copy of.
  s.sandbox.spoilRows('sellRequests', [noId.id], 'no-id')
  const again = await s.run('full', ['sellRequests'])
  expect(heldIds(s.snapshot, 'sellRequests').size).toBe(299)
  expect(again.checks.sellRequests).toMatchObject({ synced: 299, total: 300, complete: true })
  expect(again.checks.sellRequests!.unreadable).toEqual([
    { id: null, label: `${noId.name} (SKU ${noId.sku})`, position: 250, problem: expect.stringMatching(/^id: /) as unknown }
  ])
  expect(again.rounds.sellRequests).toBe(1)
  expect(s.snapshot.syncState('sellRequests')).toMatchObject({ complete: true, syncedCount: 299, serverTotal: 300 })
  expect(s.snapshot.unreadableSummary('sellRequests', 3)).toEqual({
    count: 1,
    missing: 1,
    first: [{ id: null, label: `${noId.name} (SKU ${noId.sku})`, position: 250, problem: expect.any(String) as unknown }]
  })
})

it('a listing held that becomes unreadable is kept as it was by a full sync, and named; once readable again it is read', async () => {
  const s = await setup({ orders: 10, sellRequests: 250 })
  await s.run('full')
  const target = newestFirst(s.sandbox)[120]!
  const wasCents = target.priceCents
  s.sandbox.state.editSellRequest(target.id, { priceCents: wasCents + 500 }, target.updatedAt)
  s.sandbox.spoilRows('sellRequests', [target.id])

  const report = await s.run('full', ['sellRequests'])
  expect(s.snapshot.sellRequestValues(target.id)).toEqual({ priceCents: wasCents, quantity: target.quantity })
  expect(s.snapshot.count('sellRequests')).toBe(250)
  expect(report.checks.sellRequests).toEqual({
    synced: 250,
    total: 250,
    complete: true,
    unreadable: [{ id: target.id, label: `${target.name} (SKU ${target.sku})`, position: 120, problem: PRICE }]
  })
  expect(s.snapshot.unreadableSummary('sellRequests', 3)).toMatchObject({ count: 1, missing: 0 })

  s.sandbox.spoilRows('sellRequests', [])
  const healed = await s.run('full', ['sellRequests'])
  expect(s.snapshot.sellRequestValues(target.id)!.priceCents).toBe(wasCents + 500)
  expect(healed.checks.sellRequests).toEqual({ synced: 250, total: 250, complete: true })
  expect(s.snapshot.unreadableSummary('sellRequests', 3).count).toBe(0)
})

it('an incremental sync with rows that cannot be read among those changed: stays incremental, holds the rest, keeps the one held, names both', async () => {
  const s = await setup({ orders: 10, sellRequests: 200 })
  await s.run('full')
  const changed = s.sandbox.changeTogether('sellRequests', 6)
  const kept = changed[0]!
  const keptCents = s.snapshot.sellRequestValues(kept)!.priceCents
  const fresh = { ...s.sandbox.state.sellRequests[0]!, id: randomUUID(), sku: 'NEW-UNREADABLE', createdAt: Date.now(), updatedAt: Date.now() + 1_000 }
  s.sandbox.state.addSellRequest(fresh)
  s.sandbox.spoilRows('sellRequests', [kept, fresh.id])

  const report = await s.run('auto', ['sellRequests'])
  expect(report.kinds.sellRequests).toBe('incremental')
  for (const id of changed.slice(1)) expect(s.snapshot.sellRequestValues(id)!.priceCents).toBe(s.sandbox.state.sellRequest(id)!.priceCents)
  expect(s.snapshot.sellRequestValues(kept)!.priceCents).toBe(keptCents)
  expect(heldIds(s.snapshot, 'sellRequests').has(fresh.id)).toBe(false)
  expect(report.checks.sellRequests).toMatchObject({ synced: 200, total: 201, complete: true })
  expect(report.checks.sellRequests!.unreadable!.map((row) => [row.id, row.problem])).toEqual(
    expect.arrayContaining([
      [kept, PRICE],
      [fresh.id, PRICE]
    ])
  )
  expect(s.snapshot.unreadableSummary('sellRequests', 3)).toMatchObject({ count: 2, missing: 1 })

  // Nothing changed since: the next one stays incremental too, and says the same.
  const next = await s.run('auto', ['sellRequests'])
  expect(next.kinds.sellRequests).toBe('incremental')
  expect(next.checks.sellRequests).toMatchObject({ synced: 200, total: 201, complete: true })
  // Readable again and changed: read whole, named no more.
  s.sandbox.spoilRows('sellRequests', [])
  s.sandbox.state.editSellRequest(fresh.id, { quantity: 3 }, Date.now() + 2_000)
  s.sandbox.state.editSellRequest(kept, { quantity: 4 }, Date.now() + 2_000)
  const healed = await s.run('auto', ['sellRequests'])
  expect(healed.kinds.sellRequests).toBe('incremental')
  expect(healed.checks.sellRequests).toEqual({ synced: 201, total: 201, complete: true })
  expect(s.snapshot.sellRequestValues(kept)!.quantity).toBe(4)
})

it('orders: a full and an incremental sync with orders that cannot be read hold every other order and name those', async () => {
  const s = await setup({ orders: 250, sellRequests: 20 })
  const byDate = s.sandbox.state.orders
  s.sandbox.spoilRows('orders', [byDate[5]!.id, byDate[140]!.id])
  const report = await s.run('full', ['orders'])
  expect(heldIds(s.snapshot, 'orders').size).toBe(248)
  expect(report.checks.orders).toMatchObject({ synced: 248, total: 250, complete: true })
  expect(report.checks.orders!.unreadable!.map((row) => [row.id, row.problem]).sort()).toEqual(
    [
      [byDate[5]!.id, 'totalPrice: expected an amount in dollars'],
      [byDate[140]!.id, 'totalPrice: expected an amount in dollars']
    ].sort()
  )
  expect(report.rounds.orders).toBe(1)

  const placed = s.sandbox.addOrders(4)
  s.sandbox.spoilRows('orders', [byDate[5]!.id, byDate[140]!.id, placed[0]!])
  const incremental = await s.run('auto', ['orders'])
  expect(incremental.kinds.orders).toBe('incremental')
  const held = heldIds(s.snapshot, 'orders')
  expect(placed.slice(1).every((id) => held.has(id))).toBe(true)
  expect(held.has(placed[0]!)).toBe(false)
  expect(incremental.checks.orders).toMatchObject({ synced: 251, total: 254, complete: true })
  expect(incremental.checks.orders!.unreadable!.map((row) => row.id)).toEqual(expect.arrayContaining([byDate[5]!.id, byDate[140]!.id, placed[0]!]))
})
