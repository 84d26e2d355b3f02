/**
 * The sync engine against the real demo marketplace over loopback and a real SQLite snapshot file.
 */
import { mkdtempSync } from 'node:fs'
import { MessageChannel } from 'node:worker_threads'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../sandbox'
import type { Order, SellRequest } from '../../shared/domain'
import { createSellerApi, type SellerApi } from '../sellerApi'
import { nodeFetch } from '../sellerApi/nodeFetch'
import { openSnapshot, type Snapshot } from '../snapshot/snapshot'
import { coveredCount } from './rowRanges'
import { createSyncEngine, DEFAULT_SYNC_SETTINGS, type SyncSettings } from './syncEngine'
import { countTurns } from '../eventLoopTurns.fixture'

const KEY = 'sk_test_sync_0123456789'
/** How many rows fetched batches hold. */
const rowsOf = (batches: readonly { rows: readonly unknown[] }[]) => batches.reduce((sum, batch) => sum + batch.rows.length, 0)
let sandbox: Sandbox
let snapshot: Snapshot

beforeEach(async () => {
  sandbox = await startSandbox({ apiKey: KEY, seed: 5, orders: 450, sellRequests: 330, now: new Date() })
  snapshot = openSnapshot(join(mkdtempSync(join(tmpdir(), 'seller-desk-sync-')), 'snapshot.sqlite'))
})
afterEach(async () => {
  snapshot.close()
  await sandbox.close()
})

function engine(settings: Partial<SyncSettings> = {}, onProgress?: Parameters<typeof createSyncEngine>[0]['onProgress']) {
  return createSyncEngine({
    api: createSellerApi({ baseUrl: sandbox.baseUrl, apiKey: KEY, backoffMs: 5, timeoutMs: 3_000 }),
    snapshot,
    settings: { ...DEFAULT_SYNC_SETTINGS, take: 50, historyDays: 3650, ...settings },
    ...(onProgress ? { onProgress } : {})
  })
}

/** The server's state, read through the API with plain fetch: what the snapshot must equal. */
async function serverState(): Promise<{ orderIds: string[]; sellRequests: Map<string, { price: number; quantity: number; updatedAt: string }> }> {
  const get = async (path: string) => (await (await fetch(`${sandbox.baseUrl}${path}`, { headers: { 'x-api-key': KEY } })).json()) as Record<string, unknown>
  const orders = (await get('/v1/orders/seller?take=1000')) as { data: { id: string }[] }
  const sells = (await get('/v1/sell-requests?take=1000')) as { data: { data: { id: string; price: number; quantity: number; updatedAt: string }[] } }
  return {
    orderIds: orders.data.map((o) => o.id).sort(),
    sellRequests: new Map(sells.data.data.map((s) => [s.id, { price: Math.round(s.price * 100), quantity: s.quantity, updatedAt: s.updatedAt }]))
  }
}

function expectSnapshotEqualsServer(server: Awaited<ReturnType<typeof serverState>>) {
  const { orders, sellRequests } = snapshot.dump()
  expect(orders.map((o: Order) => o.id).sort()).toEqual(server.orderIds)
  expect(sellRequests).toHaveLength(server.sellRequests.size)
  for (const row of sellRequests as SellRequest[]) {
    expect(server.sellRequests.get(row.id), row.id).toEqual({ price: row.priceCents, quantity: row.quantity, updatedAt: row.updatedAt })
  }
}

describe('full sync', () => {
  it('hands each part over with the positions of its own rows, also when it waits for its turn behind pages read meanwhile', async () => {
    const market = await startSandbox({ apiKey: KEY, seed: 8, orders: 1_500, sellRequests: 10, now: new Date() })
    try {
      const real = createSellerApi({ baseUrl: market.baseUrl, apiKey: KEY, backoffMs: 5, timeoutMs: 3_000 })
      // Answers are read once six of them wait (or a moment has passed): they queue for their turns together.
      let held: (() => void)[] = []
      let timer: ReturnType<typeof setTimeout> | undefined
      const release = () => {
        clearTimeout(timer)
        for (const go of held) go()
        held = []
      }
      const api: SellerApi = {
        ...real,
        listOrders: (query, options) =>
          real.listOrders(query, {
            ...options,
            beforeReading: async () => {
              await new Promise<void>((resolve) => {
                held.push(resolve)
                clearTimeout(timer)
                if (held.length >= 6) release()
                else timer = setTimeout(release, 30)
              })
              await options?.beforeReading?.()
            }
          })
      }
      // What each hand-over records as staged, against the rows handed over so far.
      const handed: { recorded: number; rows: number }[] = []
      let rows = 0
      const partRows = new WeakMap<object, number>()
      const stagingPart = snapshot.stagingPart
      snapshot.stagingPart = async (resource, batches, pause) => {
        const part = await stagingPart(resource, batches, pause)
        partRows.set(part, rowsOf(batches))
        return part
      }
      const stagePages = snapshot.stagePages
      snapshot.stagePages = (run, batches) => {
        rows += Array.isArray(batches) ? rowsOf(batches) : partRows.get(batches)!
        handed.push({ recorded: coveredCount(run.covered), rows })
        return stagePages(run, batches)
      }
      await createSyncEngine({ api, snapshot, settings: { ...DEFAULT_SYNC_SETTINGS, take: 100, historyDays: 3650 } }).run(
        'full',
        new AbortController().signal,
        ['orders']
      )
      expect(snapshot.count('orders')).toBe(1_500)
      expect(handed.length).toBeGreaterThan(3)
      expect(handed.filter(({ recorded, rows }) => recorded !== rows)).toEqual([])
    } finally {
      await market.close()
    }
  })

  it('reads the answers that arrive together one per turn of the event loop, so a call arriving meanwhile waits for one page at most', async () => {
    // Every answer delayed alike: the four requests on the wire answer together.
    sandbox.setFaults({ latencyMs: 20, jitterMs: 0 })
    const { port1, port2 } = new MessageChannel()
    let pagesRead = 0
    const readBeforeAnswered: number[] = []
    // A call reaches the core's thread as a port's message: one is sent as each page is read.
    port2.on('message', (readWhenSent: number) => readBeforeAnswered.push(pagesRead - readWhenSent))
    let last = 0
    await engine({ take: 10, concurrency: 4 }, (progress) => {
      if (progress.resource !== 'orders' || progress.pagesDone === last) return
      last = progress.pagesDone
      pagesRead++
      port1.postMessage(pagesRead)
    }).run('full', new AbortController().signal, ['orders'])
    await new Promise((resolve) => setTimeout(resolve, 20))
    port1.close()
    expect(pagesRead).toBeGreaterThanOrEqual(45)
    expect(readBeforeAnswered).toHaveLength(pagesRead)
    // Answered before the next page was read.
    expect(Math.max(...readBeforeAnswered)).toBe(0)
  })

  it('reads a page of 1,000 rows and makes its staging writes over turns of the run, so a call arriving meanwhile waits for neither whole', async () => {
    const market = await startSandbox({ apiKey: KEY, seed: 9, orders: 10, sellRequests: 1_000, now: new Date() })
    try {
      const real = createSellerApi({ baseUrl: market.baseUrl, apiKey: KEY, backoffMs: 5, timeoutMs: 3_000 })
      // A call reaches the core's thread as a port's message: one is sent as a page's reading begins, and
      // one as the writes of a part begin to be made.
      const { port1, port2 } = new MessageChannel()
      let answered = 0
      port2.on('message', () => answered++)
      const ask = () => {
        port1.postMessage(null)
        return answered
      }
      const turns = countTurns()
      // Per page of 1,000 read, and per part of 1,000 staged: the calls answered and the turns taken meanwhile.
      const spans: { what: 'read' | 'writes'; answered: number; turns: number }[] = []
      const api: SellerApi = {
        ...real,
        listSellRequests: async (query, options) => {
          let began: { answered: number; turn: number } | null = null
          const page = await real.listSellRequests(query, {
            ...options,
            beforeReading: async () => {
              await options?.beforeReading?.()
              began ??= { answered: ask(), turn: turns.now() }
            }
          })
          if (page.sellRequests.length === 1_000) spans.push({ what: 'read', answered: answered - began!.answered, turns: turns.now() - began!.turn })
          return page
        }
      }
      const stagingPart = snapshot.stagingPart
      snapshot.stagingPart = async (resource, batches, pause) => {
        const began = { answered: ask(), turn: turns.now() }
        const part = await stagingPart(resource, batches, pause)
        if (rowsOf(batches) === 1_000) spans.push({ what: 'writes', answered: answered - began.answered, turns: turns.now() - began.turn })
        return part
      }
      await createSyncEngine({ api, snapshot, settings: { ...DEFAULT_SYNC_SETTINGS, take: 1_000 }, turnMs: 0 }).run('full', new AbortController().signal, [
        'sellRequests'
      ])
      turns.stop()
      port1.close()
      expect(snapshot.count('sellRequests')).toBe(1_000)
      expect(
        snapshot
          .dump()
          .sellRequests.map((row) => row.id)
          .sort()
      ).toEqual(market.state.sellRequests.map((row) => row.id).sort())
      // The page read, and its rows' writes made, each over many turns (a step of 64 rows a turn), with the call answered meanwhile.
      for (const span of spans) {
        expect(span.answered, span.what).toBeGreaterThanOrEqual(1)
        expect(span.turns, span.what).toBeGreaterThanOrEqual(span.what === 'read' ? 2 * Math.floor(1_000 / 64) : Math.floor(1_000 / 64))
      }
      expect(spans.some(({ what }) => what === 'read')).toBe(true)
      expect(spans.some(({ what }) => what === 'writes')).toBe(true)
    } finally {
      await market.close()
    }
  })

  it('keeps at most `concurrency` list requests on the wire, reading answers while the next ones travel', async () => {
    let onWire = 0
    let most = 0
    // Counts a request from sending to its answer's last byte (read here, before the client gets it).
    const counting: typeof fetch = async (input, init) => {
      onWire++
      most = Math.max(most, onWire)
      try {
        const answer = await nodeFetch(input, init)
        return new Response(await answer.arrayBuffer(), { status: answer.status, headers: answer.headers })
      } finally {
        onWire--
      }
    }
    sandbox.setFaults({ latencyMs: 15 })
    const report = await createSyncEngine({
      api: createSellerApi({ baseUrl: sandbox.baseUrl, apiKey: KEY, backoffMs: 5, timeoutMs: 3_000, fetch: counting }),
      snapshot,
      settings: { ...DEFAULT_SYNC_SETTINGS, take: 20, concurrency: 3, historyDays: 3650 }
    }).run('full', new AbortController().signal)
    expect(report.pagesFetched.orders).toBeGreaterThan(20)
    expect(most).toBe(3)
    expectSnapshotEqualsServer(await serverState())
  })

  describe('the resources overlap', () => {
    const sent: string[] = []
    let faultWhen: ((path: string) => boolean) | null = null
    const recording: typeof fetch = (input, init) => {
      const path = new URL(input instanceof Request ? input.url : String(input)).pathname
      sent.push(path)
      if (faultWhen?.(path)) {
        faultWhen = null
        // This request only (another resource's may be on the wire meanwhile): the connection is lost.
        return Promise.reject(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }))
      }
      return nodeFetch(input, init)
    }
    const progress: string[] = []
    const run = (retriesPerPage = 6, on: Snapshot = snapshot, requested: 'full' | 'auto' = 'full') =>
      createSyncEngine({
        api: createSellerApi({ baseUrl: sandbox.baseUrl, apiKey: KEY, backoffMs: 5, timeoutMs: 3_000, fetch: recording }),
        snapshot: on,
        settings: { ...DEFAULT_SYNC_SETTINGS, take: 50, historyDays: 3650, retriesPerPage },
        onProgress: (p) => progress.push(`${p.kind} ${p.resource}`)
      }).run(requested, new AbortController().signal)
    beforeEach(() => {
      sent.length = 0
      progress.length = 0
      faultWhen = null
      sandbox.setFaults({ latencyMs: 15 })
    })

    it("reads the sell requests' pages while the orders are committed, caught up and checked, one resource's progress at a time", async () => {
      await run()
      expectSnapshotEqualsServer(await serverState())
      const firstSellRequests = sent.indexOf('/v1/sell-requests')
      expect(firstSellRequests).toBeGreaterThan(0)
      // The orders' catch-up and check went out after the sell requests' first page.
      expect(sent.lastIndexOf('/v1/orders/seller')).toBeGreaterThan(firstSellRequests)
      expect(progress.filter((line, k) => line !== progress[k - 1])).toEqual(['full orders', 'full sellRequests'])
    })

    it("an orders failure midway through their list asks for no sell request; one after it lets the sell requests finish, and is the run's", async () => {
      let orderPages = 0
      faultWhen = (path) => path === '/v1/orders/seller' && ++orderPages === 4
      await expect(run(0)).rejects.toMatchObject({ kind: 'network' })
      expect(orderPages).toBe(4)
      expect(sent.filter((path) => path === '/v1/sell-requests')).toEqual([])

      sent.length = 0
      faultWhen = (path) => path === '/v1/orders/seller' && sent.includes('/v1/sell-requests')
      await expect(run(0)).rejects.toMatchObject({ kind: 'network' })
      expect(snapshot.count('sellRequests')).toBe(330)
      expect(snapshot.syncState('sellRequests').complete).toBe(true)
    })

    it('a failure before any page is asked for ends the run instead of leaving it waiting', async () => {
      const broken: Snapshot = {
        ...snapshot,
        syncState: () => {
          throw new Error('the snapshot cannot be read')
        }
      }
      await expect(run(6, broken, 'auto')).rejects.toThrow(/cannot be read/)
      expect(sent).toEqual([])
    })
  })

  it('brings every page of both resources into the snapshot, with progress', async () => {
    const progress: number[] = []
    const report = await engine({}, (p) => p.kind === 'full' && p.resource === 'orders' && progress.push(p.pagesDone)).run('auto', new AbortController().signal)
    expect(report.kinds).toEqual({ orders: 'full', sellRequests: 'full' })
    expect(report.newOrderIds).toEqual([]) // a first sync announces nothing
    // 450 / 50 = 9 whole pages, and a 10th: a whole last page may hide rows a total does not count.
    expect(progress.at(-1)).toBe(10)
    expectSnapshotEqualsServer(await serverState())
    expect(snapshot.syncState('orders').serverTotal).toBe(450)
    expect(snapshot.syncState('sellRequests').lastFullMs).not.toBeNull()
  })

  it('keeps only orders within the history window', async () => {
    await engine({ historyDays: 30 }).run('full', new AbortController().signal)
    const cutoff = Date.now() - 30 * 86_400_000
    const { orders } = snapshot.dump()
    expect(orders.length).toBeGreaterThan(0)
    expect(orders.length).toBeLessThan(450)
    // Within the window by order date or by last update (the API's fromDate covers both).
    const hiddenUpdated = new Map(sandbox.state.orders.map((o) => [o.id, o]))
    for (const order of orders) expect(hiddenUpdated.has(order.id)).toBe(true)
    expect(orders.filter((o) => Date.parse(o.orderDate) >= cutoff).length).toBeGreaterThan(orders.length * 0.8)
  })

  it('announces orders placed in the synced window only: an older order updated today is kept for its update, not announced as new', async () => {
    await engine({ historyDays: 30 }).run('full', new AbortController().signal)
    const cutoff = Date.now() - 30 * 86_400_000
    const held = new Set(snapshot.dump().orders.map((order) => order.id))
    const old = sandbox.state.orders.find((order) => order.orderDateMicros / 1000 < cutoff - 86_400_000 && !held.has(order.id))!
    sandbox.state.updateOrder(old.id, Date.now(), (order) => {
      order.status = 'refunded'
    })
    const added = sandbox.addOrders(2)
    const report = await engine({ historyDays: 30 }).run('incremental', new AbortController().signal)
    expect(report.kinds.orders).toBe('incremental')
    expect(snapshot.dump().orders.find((order) => order.id === old.id)?.status).toBe('refunded')
    expect(report.newOrderIds.sort()).toEqual([...added].sort())
    // The same when a full sync is the first to see them (the periodic reconcile).
    const older = sandbox.state.orders.find((order) => order.orderDateMicros / 1000 < cutoff - 86_400_000 && order.status !== 'refunded')!
    sandbox.state.updateOrder(older.id, Date.now(), (order) => {
      order.status = 'refunded'
    })
    const more = sandbox.addOrders(2)
    const full = await engine({ historyDays: 30 }).run('full', new AbortController().signal)
    expect(snapshot.dump().orders.find((order) => order.id === older.id)?.status).toBe('refunded')
    expect(full.newOrderIds.sort()).toEqual([...more].sort())
    // More days kept: the full sync that reads them brings old orders the snapshot did not hold, none new.
    const newest = sandbox.addOrders(1)
    const longer = await engine({ historyDays: 120 }).run('full', new AbortController().signal)
    const brought = snapshot.dump().orders.filter((order) => Date.parse(order.orderDate) < cutoff - 86_400_000 && !held.has(order.id))
    expect(brought.length).toBeGreaterThan(10)
    expect(longer.newOrderIds).toEqual(newest)
  })

  it('reconciles deletions made elsewhere: an incremental sync sees the count disagree and reads everything', async () => {
    await engine().run('full', new AbortController().signal)
    const victim = snapshot.dump().sellRequests[0]!
    await fetch(`${sandbox.baseUrl}/v1/sell-requests/${victim.id}`, { method: 'DELETE', headers: { 'x-api-key': KEY } })
    const report = await engine().run('incremental', new AbortController().signal)
    expect(report.kinds).toEqual({ orders: 'incremental', sellRequests: 'full' })
    expect(report.checks.sellRequests).toEqual({ synced: 329, total: 329, complete: true })
    expect(snapshot.dump().sellRequests.some((s) => s.id === victim.id)).toBe(false)
    expectSnapshotEqualsServer(await serverState())
  })

  it('resumes an interrupted full sync without refetching staged pages, and the live snapshot stays whole meanwhile', async () => {
    await engine().run('full', new AbortController().signal)
    const before = snapshot.dump()
    sandbox.addOrders(3)
    const controller = new AbortController()
    let staged = 0
    const interrupted = engine({ concurrency: 1 }, (p) => {
      if (p.kind === 'full' && p.resource === 'orders' && ++staged === 4) controller.abort(new Error('stop'))
    }).run('full', controller.signal)
    await expect(interrupted).rejects.toThrow()
    expect(snapshot.run('orders')?.covered).toEqual([[0, expect.any(Number)]])
    expect(snapshot.run('orders')!.covered[0]![1]).toBeGreaterThanOrEqual(3 * 50)
    expect(
      snapshot
        .dump()
        .orders.map((o) => o.id)
        .sort()
    ).toEqual(before.orders.map((o) => o.id).sort()) // untouched

    // The next page was already on its way when the run stopped: let it reach the server before counting.
    for (let seen = -1; seen !== sandbox.requestCount();) {
      seen = sandbox.requestCount()
      await new Promise((resolve) => setTimeout(resolve, 30))
    }
    const requestsBefore = sandbox.requestCount()
    const report = await engine().run('auto', new AbortController().signal)
    expect(report.kinds.orders).toBe('full')
    // 453 orders = 10 pages; at least 3 were staged already, + 1 catch-up page + 1 total for the check.
    expect(report.pagesFetched.orders).toBeLessThanOrEqual(10 - 3 + 2)
    expect(sandbox.requestCount() - requestsBefore).toBe(report.pagesFetched.orders + report.pagesFetched.sellRequests)
    expect(report.newOrderIds).toHaveLength(3)
    expectSnapshotEqualsServer(await serverState())
  })
})

describe('incremental sync', () => {
  it('after 50 orders changed fetches at most ceil(50/take) + 1 order pages, and sees new orders', async () => {
    await engine({ take: 100 }).run('full', new AbortController().signal)
    await new Promise((resolve) => setTimeout(resolve, 5))
    sandbox.touchOrders(45)
    const added = sandbox.addOrders(5)
    const report = await engine({ take: 100, safetyMarginMs: 0 }).run('incremental', new AbortController().signal)
    expect(report.kinds.orders).toBe('incremental')
    expect(report.pagesFetched.orders).toBeLessThanOrEqual(Math.ceil(50 / 100) + 1)
    expect(report.newOrderIds.sort()).toEqual([...added].sort())
    expectSnapshotEqualsServer(await serverState())
  })

  it('walks sell requests newest first and stops at the last sync', async () => {
    await engine({ take: 50 }).run('full', new AbortController().signal)
    const target = snapshot.dump().sellRequests[7]!
    await fetch(`${sandbox.baseUrl}/v1/sell-requests/${target.id}`, {
      method: 'PATCH',
      headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ price: 77.77, quantity: 3 })
    })
    const report = await engine({ take: 50, safetyMarginMs: 0 }).run('incremental', new AbortController().signal)
    expect(report.pagesFetched.sellRequests).toBe(1)
    expect(snapshot.dump().sellRequests.find((s) => s.id === target.id)).toMatchObject({ priceCents: 7777, quantity: 3 })
  })

  it('a catch-up of sell requests alone fetches no orders and never turns into the periodic reconcile; with no full sync yet it is one', async () => {
    const first = await engine({ take: 50 }).run('catchUp', new AbortController().signal, ['sellRequests'])
    expect(first.kinds.sellRequests).toBe('full') // nothing to catch up from
    expect(first.pagesFetched).toEqual({ orders: 0, sellRequests: Math.ceil(330 / 50) + 1 }) // + the short pass after the full one
    expect(snapshot.dump().orders).toHaveLength(0)

    // The reconcile is overdue (reconcileEvery 0): auto would run a full sync, catch-up does not.
    const target = snapshot.dump().sellRequests[3]!
    await fetch(`${sandbox.baseUrl}/v1/sell-requests/${target.id}`, {
      method: 'PATCH',
      headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ quantity: 4 })
    })
    const overdue = { take: 50, safetyMarginMs: 0, reconcileEveryMs: 0 }
    const caughtUp = await engine(overdue).run('catchUp', new AbortController().signal, ['sellRequests'])
    expect(caughtUp.kinds.sellRequests).toBe('incremental')
    expect(caughtUp.pagesFetched).toEqual({ orders: 0, sellRequests: 1 })
    expect(snapshot.dump().sellRequests.find((s) => s.id === target.id)!.quantity).toBe(4)
    expect((await engine(overdue).run('auto', new AbortController().signal, ['sellRequests'])).kinds.sellRequests).toBe('full')
  })
})

describe('faults', () => {
  it('completes under 10% 500s, 5% 429s with Retry-After, 5% dropped connections and jitter, and equals the server exactly', async () => {
    sandbox.setFaults({ errorRate: 0.1, rateLimitRate: 0.05, retryAfterSeconds: 0, dropRate: 0.05, jitterMs: 4, faultSeed: 42 })
    const report = await engine({ take: 25, retriesPerPage: 8 }).run('full', new AbortController().signal)
    expect(report.pagesFetched.orders).toBeGreaterThanOrEqual(18)
    sandbox.setFaults({ errorRate: 0, rateLimitRate: 0, dropRate: 0, jitterMs: 0 })
    expectSnapshotEqualsServer(await serverState())
  })

  it('a page garbled once is asked again and the sync ends whole', async () => {
    for (const fault of ['wrong-types', 'malformed'] as const) {
      sandbox.touchOrders(5)
      sandbox.injectNext(fault, 1)
      const report = await engine().run('full', new AbortController().signal)
      expect(report.checks.orders?.complete, fault).toBe(true)
      expectSnapshotEqualsServer(await serverState())
    }
  })

  it('a page still malformed when asked again aborts the sync with a clear error and leaves the snapshot untouched', async () => {
    await engine().run('full', new AbortController().signal)
    const before = snapshot.dump()
    sandbox.touchOrders(5)
    for (const fault of ['wrong-types', 'malformed'] as const) {
      sandbox.injectNext(fault, 2)
      const failure = engine().run('full', new AbortController().signal)
      await expect(failure).rejects.toMatchObject({ kind: 'malformed-response' })
      await expect(failure).rejects.toThrow(/cannot read|not valid JSON/)
      expect(snapshot.dump()).toEqual(before)
    }
  })
})
