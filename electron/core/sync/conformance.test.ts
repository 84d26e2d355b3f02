/**
 * Conformance: the sync against marketplaces drawn at random from what the spec allows where it says
 * "not shown" (page size caps, ignored `take` or one above the cap refused, short pages, a page past the
 * end answered empty, as the last page again, 404 or 400, total as number or string, Retry-After
 * forms, error body shapes, 429/503 bursts, a clock 10 minutes off either way, no Date header, order
 * dates with up to six fractional digits and in a zone other than UTC, unknown fields and statuses, edits that need both fields), with
 * records created, updated and deleted while it pages. Real HTTP, real SQLite file.
 *
 * The invariant: once the changes stop, one more sync leaves the snapshot equal to the marketplace
 * (order ids, statuses, items; sell request ids, prices, quantities), and says it is complete; edits and
 * deletions work against every variant. CONFORMANCE_RUNS sets how many marketplaces are drawn, and
 * CONFORMANCE_SEED which (CI draws the same ones each time; `random` for new ones).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { expect, it } from 'vitest'
import { DEFAULT_VARIANT, startSandbox, type Faults, type Sandbox, type Variant } from '../../sandbox'
import { createSellerApi } from '../sellerApi'
import { openSnapshot, type Snapshot } from '../snapshot/snapshot'
import { createSyncEngine, DEFAULT_SYNC_SETTINGS } from './syncEngine'

const KEY = 'sk_test_conformance_0123456789'
const RUNS = Number(process.env['CONFORMANCE_RUNS'] ?? 60)
/** The same marketplaces every run unless asked for others (CONFORMANCE_SEED=random, or a number). */
const SEED = process.env['CONFORMANCE_SEED'] === 'random' ? undefined : Number(process.env['CONFORMANCE_SEED'] ?? 20261124)
const MINUTE = 60_000

const marketplaceArb = fc.record({
  variant: fc.record({
    maxTake: fc.option(fc.constantFrom(3, 7, 10, 25, 50, 99), { nil: null }),
    fixedTake: fc.option(fc.constantFrom(5, 20, 150), { nil: null, freq: 4 }),
    takeAboveMax: fc.constantFrom('cap', 'refused'),
    pastEnd: fc.constantFrom('empty', 'last', 'not-found', 'refused'),
    shortPageRate: fc.constantFrom(0, 0, 0.1, 0.25),
    totalForm: fc.constantFrom('spec', 'number', 'string'),
    retryAfter: fc.constantFrom('seconds', 'http-date', 'absent'),
    errorBody: fc.constantFrom('json', 'json-array', 'text', 'html', 'empty'),
    dateHeader: fc.boolean(),
    orderDateDigits: fc.integer({ min: 0, max: 6 }),
    orderTimeOffsetMinutes: fc.constantFrom(0, 0, -300, 180, 330),
    unknownFields: fc.boolean(),
    patchRequires: fc.constantFrom('either', 'both'),
    faultBurst: fc.integer({ min: 1, max: 3 }),
    variantSeed: fc.integer({ min: 0, max: 10_000 })
  }),
  faults: fc.record({
    rateLimitRate: fc.constantFrom(0, 0.05, 0.12),
    unavailableRate: fc.constantFrom(0, 0.05),
    faultSeed: fc.integer({ min: 0, max: 10_000 })
  }),
  clockSkewMs: fc.constantFrom(-10 * MINUTE, 0, 10 * MINUTE),
  orders: fc.integer({ min: 0, max: 140 }),
  sellRequests: fc.integer({ min: 1, max: 110 }),
  seed: fc.integer({ min: 1, max: 10_000 }),
  churnPerList: fc.integer({ min: 0, max: 3 }),
  churnBetween: fc.integer({ min: 0, max: 25 }),
  take: fc.constantFrom(10, 37, 100),
  concurrency: fc.integer({ min: 1, max: 4 }),
  safetyMarginMs: fc.constantFrom(0, 1_000)
})

type Case = typeof marketplaceArb extends fc.Arbitrary<infer T> ? T : never

/** Everything the marketplace serves, read with plain fetch while nothing changes and no fault is on. */
async function served(sandbox: Sandbox) {
  const variant = sandbox.variant
  sandbox.setVariant({ maxTake: null, fixedTake: null, shortPageRate: 0, churnPerList: 0 })
  sandbox.setFaults({ rateLimitRate: 0, unavailableRate: 0 })
  try {
    const get = async (path: string) => (await (await fetch(`${sandbox.baseUrl}${path}`, { headers: { 'x-api-key': KEY } })).json()) as Record<string, unknown>
    /** Every row of a list, 1,000 a page. */
    const all = async <T>(path: string, rowsOf: (body: Record<string, unknown>) => { total: number | string; data: T[] }) => {
      const rows: T[] = []
      for (let page = 1; ; page++) {
        const { total, data } = rowsOf(await get(`${path}?take=1000&page=${page}`))
        rows.push(...data)
        if (data.length === 0 || rows.length >= Number(total)) return rows
      }
    }
    const orders = await all(
      `/v1/orders/seller`,
      (body) => body as unknown as { total: string; data: { id: string; status: string; items: { id: string; status: string }[] }[] }
    )
    const sells = await all(`/v1/sell-requests`, (body) => (body as { data: { total: number; data: { id: string; price: number; quantity: number }[] } }).data)
    return {
      orders: orders
        .map((o) => [
          o.id,
          o.status,
          o.items
            .map((i) => `${i.id}:${i.status}`)
            .sort()
            .join()
        ])
        .sort(),
      sellRequests: sells.map((s) => [s.id, Math.round(s.price * 100), s.quantity]).sort()
    }
  } finally {
    sandbox.setVariant({ maxTake: variant.maxTake, fixedTake: variant.fixedTake, shortPageRate: variant.shortPageRate })
  }
}

function held(snapshot: Snapshot) {
  const { orders, sellRequests } = snapshot.dump()
  return {
    orders: orders
      .map((o) => [
        o.id,
        o.status,
        o.items
          .map((i) => `${i.id}:${i.status}`)
          .sort()
          .join()
      ])
      .sort(),
    sellRequests: sellRequests.map((s) => [s.id, s.priceCents, s.quantity]).sort()
  }
}

async function conforms(c: Case): Promise<void> {
  const variant: Partial<Variant> = {
    ...DEFAULT_VARIANT,
    ...c.variant,
    // A cap below the spec's default take (10) is only met by capping: refusing it would refuse the spec's own example.
    takeAboveMax: c.variant.maxTake !== null && c.variant.maxTake >= 10 ? c.variant.takeAboveMax : 'cap',
    churnPerList: c.churnPerList
  }
  const faults: Partial<Faults> = { ...c.faults, retryAfterSeconds: 0 }
  const sandbox = await startSandbox({
    apiKey: KEY,
    seed: c.seed,
    orders: c.orders,
    sellRequests: c.sellRequests,
    now: new Date(Date.now() + c.clockSkewMs),
    variant,
    faults
  })
  const dir = mkdtempSync(join(tmpdir(), 'seller-desk-conformance-'))
  const snapshot = openSnapshot(join(dir, 'snapshot.sqlite'))
  try {
    const api = createSellerApi({ baseUrl: sandbox.baseUrl, apiKey: KEY, backoffMs: 2, timeoutMs: 5_000 })
    const engine = createSyncEngine({
      api,
      snapshot,
      settings: { ...DEFAULT_SYNC_SETTINGS, take: c.take, concurrency: c.concurrency, safetyMarginMs: c.safetyMarginMs, historyDays: 3650, retriesPerPage: 15 }
    })
    const run = (kind: 'auto' | 'full') => engine.run(kind, new AbortController().signal)

    // While records change: a full sync, changes between syncs, an automatic one.
    await run('full')
    sandbox.churn(c.churnBetween)
    await run('auto')

    // The changes stop; one more sync.
    sandbox.setVariant({ churnPerList: 0 })
    const report = await run('auto')
    expect(held(snapshot)).toEqual(await served(sandbox))
    expect(report.checks.orders).toEqual({ synced: snapshot.count('orders'), total: snapshot.count('orders'), complete: true })
    expect(report.checks.sellRequests).toEqual({ synced: snapshot.count('sellRequests'), total: snapshot.count('sellRequests'), complete: true })

    // Edits and deletions work against this marketplace too.
    const [edited, deleted] = snapshot.dump().sellRequests
    if (edited) {
      const priceCents = edited.priceCents + 101
      await api.editSellRequest(edited.id, { priceCents }, {}, snapshot.sellRequestValues(edited.id) ?? undefined)
      expect(sandbox.state.sellRequest(edited.id)).toMatchObject({ priceCents, quantity: edited.quantity })
    }
    if (deleted) {
      await api.deleteSellRequest(deleted.id)
      expect(sandbox.state.sellRequest(deleted.id)).toBeUndefined()
    }
    await run('auto')
    expect(held(snapshot)).toEqual(await served(sandbox))
  } finally {
    snapshot.close()
    rmSync(dir, { recursive: true, force: true })
    await sandbox.close()
  }
}

it(`converges on ${RUNS} marketplaces drawn from what the spec leaves open, with records changing while it pages`, { timeout: 600_000 }, async () => {
  // A marketplace that takes longer than this has found a loop: it fails with its case, not the suite's
  // timeout. (The slowest fair case, 5-row pages with 3 changes after each, takes several seconds.)
  await fc.assert(fc.asyncProperty(marketplaceArb, conforms), {
    numRuns: RUNS,
    endOnFailure: true,
    timeout: 90_000,
    ...(SEED !== undefined ? { seed: SEED } : {})
  })
})
