/**
 * The client and the sync against each choice a spec-following marketplace may make where the spec
 * says "not shown" (the demo marketplace's variants), over real HTTP into a real SQLite snapshot. One
 * case per choice here; sync/conformance.test.ts draws them together at random.
 */
import { mkdtempSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startSandbox, type Sandbox, type SandboxOptions } from '../../sandbox'
import { SellerDeskError } from '../../shared/errors'
import { openSnapshot, type Snapshot } from '../snapshot/snapshot'
import { createSyncEngine, DEFAULT_SYNC_SETTINGS, type SyncSettings } from '../sync/syncEngine'
import { createSellerApi, type SellerApiOptions } from './client'

const KEY = 'sk_test_variants_0123456789'
const open: { sandbox?: Sandbox; snapshot?: Snapshot } = {}

afterEach(async () => {
  open.snapshot?.close()
  await open.sandbox?.close()
  open.snapshot = undefined
  open.sandbox = undefined
})

async function marketplace(options: SandboxOptions = {}): Promise<Sandbox> {
  open.sandbox = await startSandbox({ apiKey: KEY, seed: 3, orders: 260, sellRequests: 230, now: new Date(), ...options })
  return open.sandbox
}

const apiOf = (sandbox: Sandbox, options: Partial<SellerApiOptions> = {}) =>
  createSellerApi({ baseUrl: sandbox.baseUrl, apiKey: KEY, backoffMs: 5, timeoutMs: 5_000, ...options })

function engineFor(sandbox: Sandbox, settings: Partial<SyncSettings> = {}, apiOptions: Partial<SellerApiOptions> = {}) {
  open.snapshot ??= openSnapshot(join(mkdtempSync(join(tmpdir(), 'seller-desk-variants-')), 'snapshot.sqlite'))
  const snapshot = open.snapshot
  const engine = createSyncEngine({
    api: apiOf(sandbox, apiOptions),
    snapshot,
    settings: { ...DEFAULT_SYNC_SETTINGS, historyDays: 3650, ...settings },
    ...(apiOptions.now ? { now: apiOptions.now } : {})
  })
  return { engine, snapshot, run: (kind: 'auto' | 'full' | 'incremental' = 'auto') => engine.run(kind, new AbortController().signal) }
}

/** The snapshot holds exactly what the marketplace holds: ids, statuses, items, prices, quantities. */
function expectSnapshotEqualsMarketplace(snapshot: Snapshot, sandbox: Sandbox) {
  const { orders, sellRequests } = snapshot.dump()
  const orderView = (id: string, status: string, items: { id: string; status: string }[]) => ({
    id,
    status,
    items: items.map((i) => `${i.id}:${i.status}`).sort()
  })
  expect(orders.map((o) => orderView(o.id, o.status, o.items)).sort((a, b) => a.id.localeCompare(b.id))).toEqual(
    sandbox.state.orders.map((o) => orderView(o.id, o.status, o.items)).sort((a, b) => a.id.localeCompare(b.id))
  )
  expect(sellRequests.map((s) => [s.id, s.priceCents, s.quantity]).sort()).toEqual(
    sandbox.state.sellRequests.map((s) => [s.id, s.priceCents, s.quantity]).sort()
  )
}

describe('paging trusts what came back', () => {
  // Pages cut short at random may be cut short again when asked again: a second pass is allowed there.
  for (const [name, variant, rounds] of [
    ['caps take at 50', { maxTake: 50 }, 1],
    ['caps take below the default 10', { maxTake: 7 }, 1],
    ['ignores take (pages by 20)', { fixedTake: 20 }, 1],
    ['ignores take (pages by 250, more than asked)', { fixedTake: 250 }, 1],
    ['answers pages short in the middle', { shortPageRate: 0.3, variantSeed: 4 }, 2],
    ['caps take and answers pages short', { maxTake: 30, shortPageRate: 0.2, variantSeed: 9 }, 2],
    ['ignores take and answers pages short', { fixedTake: 20, shortPageRate: 0.2, variantSeed: 5 }, 2]
  ] as const) {
    it(`a marketplace that ${name}: every row, and the check says complete`, async () => {
      const sandbox = await marketplace({ variant: variant })
      const { run, snapshot } = engineFor(sandbox)
      const report = await run('full')
      expectSnapshotEqualsMarketplace(snapshot, sandbox)
      expect(report.checks).toEqual({ orders: { synced: 260, total: 260, complete: true }, sellRequests: { synced: 230, total: 230, complete: true } })
      expect(report.rounds.orders).toBeLessThanOrEqual(rounds)
      expect(report.rounds.sellRequests).toBeLessThanOrEqual(rounds)
    })
  }

  it('asks the capped size from the second page on (pages computed from what the server serves)', async () => {
    const sandbox = await marketplace({ variant: { maxTake: 50 }, orders: 0 })
    const before = sandbox.requestCount()
    const report = await engineFor(sandbox).run('full')
    // 230 sell requests at 50 a page: 5 pages, page 1 twice (a short first page is asked again before
    // it is taken for the page size), + 1 catch-up page at the size learned (its total serves the check).
    expect(report.pagesFetched.sellRequests).toBe(7)
    expect(sandbox.requestCount() - before).toBe(report.pagesFetched.orders + report.pagesFetched.sellRequests)
  })

  it('resumes an interrupted full sync when the page size found differs from the one stored', async () => {
    const sandbox = await marketplace({ orders: 0 })
    const controller = new AbortController()
    let pages = 0
    const { snapshot } = engineFor(sandbox)
    const first = createSyncEngine({
      api: apiOf(sandbox),
      snapshot,
      settings: { ...DEFAULT_SYNC_SETTINGS, take: 40, concurrency: 1 },
      onProgress: (p) => p.kind === 'full' && ++pages === 3 && controller.abort(new Error('stop'))
    })
    await expect(first.run('full', controller.signal, ['sellRequests'])).rejects.toThrow()
    const staged = snapshot.run('sellRequests')!
    expect(staged.pageSize).toBe(40)
    expect(staged.covered[0]![1]).toBeGreaterThanOrEqual(80)
    // The marketplace now pages by 25.
    sandbox.setVariant({ maxTake: 25 })
    const report = await engineFor(sandbox, { take: 40 }).engine.run('auto', new AbortController().signal, ['sellRequests'])
    expect(report.kinds.sellRequests).toBe('full')
    expect(report.checks.sellRequests).toEqual({ synced: 230, total: 230, complete: true })
    expect(
      snapshot
        .dump()
        .sellRequests.map((s) => s.id)
        .sort()
    ).toEqual(sandbox.state.sellRequests.map((s) => s.id).sort())
  })
})

describe('completeness, shown honestly', () => {
  it('a marketplace that counts rows it never lists: incomplete after reading again, with the numbers', async () => {
    const sandbox = await marketplace({ variant: { totalOffset: 7 } })
    const { run, snapshot } = engineFor(sandbox, { rounds: 2 })
    const report = await run('full')
    expect(report.checks).toEqual({ orders: { synced: 260, total: 267, complete: false }, sellRequests: { synced: 230, total: 237, complete: false } })
    expect(report.rounds).toEqual({ orders: 2, sellRequests: 2 })
    expect(snapshot.syncState('orders')).toMatchObject({ syncedCount: 260, serverTotal: 267, complete: false })
    // Once the marketplace counts right, the next automatic sync is a full one, and complete.
    sandbox.setVariant({ totalOffset: 0 })
    const after = await run('auto')
    expect(after.kinds).toEqual({ orders: 'full', sellRequests: 'full' })
    expect(after.checks).toEqual({ orders: { synced: 260, total: 260, complete: true }, sellRequests: { synced: 230, total: 230, complete: true } })
  })

  it('a marketplace that hides rows from its count: incomplete the other way', async () => {
    const sandbox = await marketplace({ variant: { totalOffset: -3 } })
    const report = await engineFor(sandbox, { rounds: 1 }).run('full')
    expect(report.checks.sellRequests).toEqual({ synced: 230, total: 227, complete: false })
  })
})

describe('records that move while we page', () => {
  it('churn on every page of a full sync: nothing missed or doubled once it stops and one more sync runs', async () => {
    const sandbox = await marketplace({ variant: { maxTake: 25, churnPerList: 3, variantSeed: 11 } })
    const { run, snapshot } = engineFor(sandbox, { safetyMarginMs: 0 })
    await run('full')
    sandbox.setVariant({ churnPerList: 0 })
    const report = await run('auto')
    expectSnapshotEqualsMarketplace(snapshot, sandbox)
    expect(report.checks.orders!.synced).toBe(sandbox.state.orders.length)
    expect(report.checks.sellRequests!.synced).toBe(sandbox.state.sellRequests.length)
    expect(new Set(snapshot.dump().orders.map((o) => o.id)).size).toBe(snapshot.dump().orders.length)
  })

  it('churn during an incremental sync, including deletions: the next sync converges', async () => {
    const sandbox = await marketplace({ variant: { maxTake: 20 } })
    const { run, snapshot } = engineFor(sandbox, { safetyMarginMs: 0 })
    await run('full')
    sandbox.churn(40)
    sandbox.setVariant({ churnPerList: 4, variantSeed: 2 })
    await run('incremental')
    sandbox.setVariant({ churnPerList: 0 })
    await run('auto')
    expectSnapshotEqualsMarketplace(snapshot, sandbox)
  })
})

describe('clock skew: incremental syncs start from the marketplace’s clock', () => {
  for (const [name, skewMs] of [
    ['ahead of', 10 * 60_000],
    ['behind', -10 * 60_000]
  ] as const) {
    it(`the computer 10 minutes ${name} the marketplace`, async () => {
      const sandbox = await marketplace()
      const computer = () => Date.now() + skewMs
      const { run, snapshot } = engineFor(sandbox, { safetyMarginMs: 1_000 }, { now: computer })
      await run('full')
      // Changes right after the sync, by the marketplace's clock.
      const touched = sandbox.touchOrders(5)
      const added = sandbox.addOrders(3)
      const edited = sandbox.state.sellRequests[0]!
      sandbox.state.editSellRequest(edited.id, { priceCents: 123_45 }, Date.now() + 60_000)
      const report = await run('incremental')
      expect(report.kinds).toEqual({ orders: 'incremental', sellRequests: 'incremental' })
      expect(report.newOrderIds.sort()).toEqual([...added].sort())
      expect(touched).toHaveLength(5)
      expectSnapshotEqualsMarketplace(snapshot, sandbox)
    })
  }

  it('without a Date header, the newest timestamp in the data stands in for the marketplace’s clock', async () => {
    const sandbox = await marketplace({ variant: { dateHeader: false } })
    const { run, snapshot } = engineFor(sandbox, { safetyMarginMs: 1_000 }, { now: () => Date.now() + 10 * 60_000 })
    await run('full')
    expect(snapshot.syncState('sellRequests').cursorMs).toBeLessThanOrEqual(Date.now())
    sandbox.addOrders(2)
    sandbox.state.editSellRequest(sandbox.state.sellRequests[5]!.id, { quantity: 77 }, Date.now() + 1_000)
    await run('incremental')
    expectSnapshotEqualsMarketplace(snapshot, sandbox)
  })
})

describe('retries: Retry-After in every form, 429 and 503 in bursts', () => {
  for (const form of ['seconds', 'http-date', 'absent'] as const) {
    it(`Retry-After as ${form}: waited for, then the list arrives`, async () => {
      const sandbox = await marketplace({ variant: { retryAfter: form, faultBurst: 3 }, faults: { retryAfterSeconds: 1 } })
      sandbox.injectNext('rate-limit', 2)
      const waits: number[] = []
      // The computer's clock 10 minutes behind: an HTTP date must still mean about a second.
      const api = apiOf(sandbox, { retries: 4, onRetry: ({ delayMs }) => waits.push(delayMs), now: () => Date.now() - 10 * 60_000 })
      const { total } = await api.listSellRequests({ take: 5 })
      expect(total).toBe(230)
      expect(waits).toHaveLength(2)
      for (const wait of waits) {
        if (form === 'absent')
          expect(wait).toBeLessThan(100) // our own backoff
        else expect(wait).toBeGreaterThanOrEqual(form === 'seconds' ? 1_000 : 0)
        expect(wait).toBeLessThanOrEqual(2_000)
      }
    })
  }

  it('an HTTP date with no Date header, the computer 10 minutes behind: our own backoff, not a 10-minute wait', async () => {
    const sandbox = await marketplace({ variant: { retryAfter: 'http-date', dateHeader: false }, faults: { retryAfterSeconds: 1 } })
    sandbox.injectNext('rate-limit', 2)
    const waits: number[] = []
    const api = apiOf(sandbox, { retries: 3, onRetry: ({ delayMs }) => waits.push(delayMs), now: () => Date.now() - 10 * 60_000 })
    expect((await api.listSellRequests({ take: 5 })).total).toBe(230)
    expect(waits).toHaveLength(2)
    for (const wait of waits) expect(wait).toBeLessThan(100)
  })

  it('an HTTP date that has passed (no Date header, the computer 10 minutes ahead): retried at once, not after our own backoff', async () => {
    const sandbox = await marketplace({ variant: { retryAfter: 'http-date', dateHeader: false }, faults: { retryAfterSeconds: 1 } })
    sandbox.injectNext('rate-limit', 2)
    const waits: number[] = []
    const api = apiOf(sandbox, { retries: 3, backoffMs: 3_000, onRetry: ({ delayMs }) => waits.push(delayMs), now: () => Date.now() + 10 * 60_000 })
    expect((await api.listSellRequests({ take: 5 })).total).toBe(230)
    expect(waits).toEqual([0, 0])
  })

  it('bursts of 429 and 503 during a full sync: retried through, every row', async () => {
    const sandbox = await marketplace({ variant: { faultBurst: 3, retryAfter: 'absent' }, faults: { rateLimitRate: 0.15, unavailableRate: 0.1, faultSeed: 5 } })
    const { run, snapshot } = engineFor(sandbox, { retriesPerPage: 12 })
    await run('full')
    expectSnapshotEqualsMarketplace(snapshot, sandbox)
  })
})

describe('error bodies: a useful message in every shape, never markup', () => {
  for (const form of ['json', 'json-array', 'text', 'html', 'empty'] as const) {
    it(`a ${form} body on a refused edit`, async () => {
      const sandbox = await marketplace({ variant: { errorBody: form } })
      const error = await apiOf(sandbox)
        .editSellRequest(sandbox.state.sellRequests[0]!.id, { priceCents: -5 })
        .catch((e: unknown) => e)
      expect(error).toBeInstanceOf(SellerDeskError)
      const message = (error as SellerDeskError).message
      expect(message).toMatch(/^The marketplace refused the request \(HTTP 400\)\./)
      expect(message).not.toMatch(/<|>/)
      if (form === 'empty') expect(message).not.toMatch(/said/)
      // A proxy's page names only the status; the others say what was wrong.
      else if (form === 'html') expect(message).toMatch(/said: “400 Bad Request”/)
      else expect(message).toMatch(/said: “.*price.*”/i)
      expect(message).not.toContain(KEY)
    })
  }

  it('an HTML page from a proxy: its title, not its markup', async () => {
    const sandbox = await marketplace({ variant: { errorBody: 'html' } })
    sandbox.injectNext('server-error', 4)
    const error = (await apiOf(sandbox, { retries: 3 })
      .listOrders({ take: 5 })
      .catch((e: unknown) => e)) as SellerDeskError
    expect(error.kind).toBe('server')
    expect(error.message).toMatch(/HTTP 500/)
    expect(error.message).not.toMatch(/<|html|nginx<\/?/i)
  })

  for (const status of [401, 403] as const) {
    it(`a wrong key answered ${status}: an auth error saying to check the key`, async () => {
      const sandbox = await marketplace({ variant: { authStatus: status } })
      const error = (await createSellerApi({ baseUrl: sandbox.baseUrl, apiKey: 'wrong-key-000000' })
        .listOrders()
        .catch((e: unknown) => e)) as SellerDeskError
      expect(error.kind).toBe('auth')
      expect(error.message).toMatch(new RegExp(`did not accept the API key \\(HTTP ${status}\\)`))
    })
  }
})

/**
 * The sandbox behind a marketplace that sends an empty list's rows as null or not at all, as a server in
 * Go does (a nil slice is encoded as null; `omitempty` leaves it out): a proxy over real HTTP. It counts
 * the empty pages it rewrote, by list.
 */
async function emptyRowsAs(sandbox: Sandbox, form: 'null' | 'left out') {
  const rewritten = { orders: 0, sellRequests: 0 }
  const server = createServer((request, response) => {
    void (async () => {
      const upstream = await fetch(`${sandbox.baseUrl}${request.url}`, { headers: { 'x-api-key': String(request.headers['x-api-key']) } })
      let text = await upstream.text()
      const list = request.url!.startsWith('/v1/sell-requests') ? 'sellRequests' : 'orders'
      const body = upstream.ok ? (JSON.parse(text) as { data: unknown[] | { data: unknown[] } }) : null
      const holder = (body && list === 'sellRequests' ? body.data : body) as { data?: unknown[] | null } | null
      if (holder && Array.isArray(holder.data) && holder.data.length === 0) {
        if (form === 'null') holder.data = null
        else delete holder.data
        rewritten[list]++
        text = JSON.stringify(body)
      }
      response.writeHead(upstream.status, { 'content-type': 'application/json' })
      response.end(text)
    })()
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()))
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    rewritten,
    close: () => {
      server.closeAllConnections()
      return new Promise<void>((done) => server.close(() => done()))
    }
  }
}

describe('what the spec leaves open in the data', () => {
  for (const form of ['null', 'left out'] as const) {
    it(`an empty list's rows ${form === 'null' ? 'as null' : 'left out'}: read as no rows by a full and an incremental sync`, async () => {
      // A seller with no listings yet (every page of listings is empty), and orders none of which changed
      // in the last minutes (the page of changes an incremental sync asks for is empty).
      const sandbox = await marketplace({ orders: 12, sellRequests: 0 })
      const proxy = await emptyRowsAs(sandbox, form)
      try {
        const { run, snapshot } = engineFor(sandbox, {}, { baseUrl: proxy.baseUrl })
        const checks = { orders: { synced: 12, total: 12, complete: true }, sellRequests: { synced: 0, total: 0, complete: true } }
        expect((await run('full')).checks).toEqual(checks)
        expectSnapshotEqualsMarketplace(snapshot, sandbox)
        // No order changed since: the orders an incremental sync asks for are none.
        expect((await run('incremental')).checks).toEqual(checks)
        expectSnapshotEqualsMarketplace(snapshot, sandbox)
        expect(proxy.rewritten.orders).toBeGreaterThan(0)
        expect(proxy.rewritten.sellRequests).toBeGreaterThan(0)
      } finally {
        await proxy.close()
      }
    })
  }

  for (const totalForm of ['spec', 'number', 'string'] as const) {
    it(`total as ${totalForm}`, async () => {
      const sandbox = await marketplace({ variant: { totalForm } })
      const api = apiOf(sandbox)
      expect((await api.listOrders({ take: 1 })).total).toBe(260)
      expect((await api.listSellRequests({ take: 1 })).total).toBe(230)
    })
  }

  for (const digits of [0, 1, 3, 6]) {
    it(`zone-less order dates with ${digits} fractional digits, taken as UTC`, async () => {
      const sandbox = await marketplace({ variant: { orderDateDigits: digits } })
      const { orders } = await apiOf(sandbox).listOrders({ take: 20, sortDir: 'DESC' })
      for (const order of orders) {
        const record = sandbox.state.order(order.id)!
        expect(Date.parse(order.orderDate)).toBe(
          digits >= 3 ? Math.floor(record.orderDateMicros / 1000) : Math.floor(record.orderDateMicros / 10 ** (6 - digits)) * 10 ** (3 - digits)
        )
      }
    })
  }

  it('unknown fields, property keys and status values are kept', async () => {
    const sandbox = await marketplace({ variant: { unknownFields: true } })
    const { run, snapshot } = engineFor(sandbox)
    await run('full')
    // What the marketplace serves (its statuses differ from its records here), read with plain fetch.
    const served = async (path: string) =>
      (await (await fetch(`${sandbox.baseUrl}${path}`, { headers: { 'x-api-key': KEY } })).json()) as Record<string, unknown>
    const wireOrders = ((await served('/v1/orders/seller?take=1000')) as { data: { id: string; status: string; items: { id: string; status: string }[] }[] })
      .data
    const view = (o: { id: string; status: string; items: { id: string; status: string }[] }) => [
      o.id,
      o.status,
      o.items
        .map((i) => `${i.id}:${i.status}`)
        .sort()
        .join()
    ]
    expect(snapshot.dump().orders.map(view).sort()).toEqual(wireOrders.map(view).sort())
    const wireSells = ((await served('/v1/sell-requests?take=1000')) as { data: { data: { id: string; status: string }[] } }).data.data
    expect(
      snapshot
        .dump()
        .sellRequests.map((r) => [r.id, r.status])
        .sort()
    ).toEqual(wireSells.map((r) => [r.id, r.status]).sort())
    const { orders, sellRequests } = snapshot.dump()
    expect(sellRequests.some((s) => Object.keys(s.extra).length > 0)).toBe(true)
    expect(sellRequests.some((s) => Object.keys(s.properties).some((key) => !['color', 'grade', 'carrier', 'storage'].includes(key)))).toBe(true)
    expect(orders.some((o) => Object.keys(o.extra).length > 0)).toBe(true)
    expect(new Set(orders.flatMap((o) => o.items.map((i) => i.status)))).not.toEqual(new Set(['awaiting-shipment', 'ready-to-ship']))
  })
})

describe('edits: only the changed field, both when the marketplace insists', () => {
  for (const patchRequires of ['either', 'both'] as const) {
    it(`a marketplace that requires ${patchRequires === 'both' ? 'both fields' : 'either field'}: a price edit keeps the quantity`, async () => {
      const sandbox = await marketplace({ variant: { patchRequires } })
      const target = sandbox.state.sellRequests[4]!
      const quantity = target.quantity
      const api = apiOf(sandbox)
      const before = sandbox.requestCount()
      const { sellRequest } = await api.editSellRequest(target.id, { priceCents: 99_99 }, {}, { priceCents: target.priceCents, quantity })
      expect(sellRequest).toMatchObject({ priceCents: 99_99, quantity })
      expect(sandbox.state.sellRequest(target.id)).toMatchObject({ priceCents: 99_99, quantity })
      expect(sandbox.requestCount() - before).toBe(patchRequires === 'both' ? 2 : 1)
      // Learned: the next one-field edit goes out whole at once.
      const next = sandbox.state.sellRequests[6]!
      const again = sandbox.requestCount()
      await api.editSellRequest(next.id, { quantity: 3 }, {}, { priceCents: next.priceCents, quantity: next.quantity })
      expect(sandbox.state.sellRequest(next.id)).toMatchObject({ quantity: 3 })
      expect(sandbox.requestCount() - again).toBe(1)
    })
  }

  it('a refused edit with nothing to complete it with is reported, and changes nothing', async () => {
    const sandbox = await marketplace({ variant: { patchRequires: 'both' } })
    const target = sandbox.state.sellRequests[4]!
    const price = target.priceCents
    await expect(apiOf(sandbox).editSellRequest(target.id, { priceCents: 1_00 })).rejects.toMatchObject({ kind: 'invalid-input', status: 400 })
    expect(sandbox.state.sellRequest(target.id)!.priceCents).toBe(price)
  })
})
