/**
 * The snapshot file: schema, list queries done in SQLite, atomic swaps, and what happens to a file that
 * cannot be read.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import Database from 'libsql'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { generateMarketplace } from '../../sandbox'
import { orderFromWire, sellRequestFromWire } from '../sellerApi/wire'
import { wireOrder, wireSellRequest } from '../../sandbox/wire'
import type { Order, SellRequest } from '../../shared/domain'
import type { OrderBatch, SellRequestBatch } from './snapshot'
import { scalar } from './database'
import { MIGRATIONS } from './migrations'
import { hasOpenItem } from './olderOpenOrders'
import { openSnapshot, snapshotFileFor, type Snapshot, type SyncRun } from './snapshot'

/** The indexes of the live tables named `prefix…` (or of their twins), without their names. */
function indexDefinitions(db: InstanceType<typeof Database>, prefix: string, migrate = false, twin = ''): string[] {
  if (migrate) for (const sql of MIGRATIONS) db.exec(sql)
  const rows = db
    .prepare("SELECT tbl_name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name LIKE ? ORDER BY sql")
    .raw()
    .all(`${prefix}%`) as [string, string][]
  return rows
    .filter(([table]) => (twin ? table.endsWith(twin) : !table.endsWith('_staged')))
    .map(([, sql]) => sql.replace(/INDEX "?\w+"? ON "?(\w+?)(_staged)?"?\s*\(/i, 'INDEX ON $1(').replace(/"/g, ''))
    .sort()
}

const BASE = 'http://127.0.0.1:1'
const state = generateMarketplace({ seed: 3, orders: 400, sellRequests: 300 })
const wireOrders = state.orders.map((o) => wireOrder(o, BASE))
const wireSellRequests = state.sellRequests.map((s) => wireSellRequest(s, BASE))
const orders: Order[] = wireOrders.map((order) => orderFromWire(order, null))
const sellRequests: SellRequest[] = wireSellRequests.map(sellRequestFromWire)

/** Rows as a page the way the client hands them to the snapshot: converted, and as received. */
const orderBatch = (rows: Order[]): OrderBatch => ({
  rows,
  wire: { json: JSON.stringify(rows.map((r) => wireOrders[orders.indexOf(r)] ?? wireFor(r))), path: '$' }
})
const sellRequestBatch = (rows: SellRequest[]): SellRequestBatch => ({
  rows,
  wire: {
    json: JSON.stringify(rows.map((r) => ({ ...wireSellRequests.find((w) => w.id === r.id)!, price: r.priceCents / 100, quantity: r.quantity }))),
    path: '$'
  }
})
/** An order not in the generated set (a copy under a new id). */
const wireFor = (order: Order) => ({ ...wireOrders[0]!, id: order.id, orderNo: order.orderNo })

let dir: string
let snapshot: Snapshot

/** A full-sync run as the engine begins one. */
const newRun = (resource: 'orders' | 'sellRequests', total: number): SyncRun => ({
  resource,
  startedMs: Date.now(),
  windowFromMs: null,
  total,
  pageSize: 100,
  covered: [],
  cursorMs: null,
  round: 1,
  totalDropped: false,
  firstTotal: null
})

/** A snapshot holding the generated data, written the way a full sync writes it. */
async function seeded(): Promise<Snapshot> {
  const s = openSnapshot(join(dir, 'snapshot.sqlite'))
  for (const [resource, rows] of [
    ['orders', orders],
    ['sellRequests', sellRequests]
  ] as const) {
    const run = newRun(resource, rows.length)
    await s.beginRun(run)
    for (let page = 0; page * 100 < rows.length; page++) {
      const slice = rows.slice(page * 100, page * 100 + 100)
      run.covered = [[0, page * 100 + slice.length]]
      await s.stagePages(run, [resource === 'orders' ? orderBatch(slice as Order[]) : sellRequestBatch(slice as SellRequest[])] as
        OrderBatch[] | SellRequestBatch[])
    }
    await s.commitRun(resource)
  }
  return s
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'seller-desk-snapshot-'))
  snapshot = await seeded()
})

/** Ways a file gets damaged, each made from the file's bytes. */
const DAMAGES: [string, (bytes: Buffer) => Buffer][] = [
  ['overwritten with garbage', (bytes) => Buffer.alloc(bytes.length, 0x5a)],
  ['cut in half', (bytes) => bytes.subarray(0, Math.floor(bytes.length / 2))],
  ['pages scrambled', (bytes) => Buffer.concat([bytes.subarray(0, 4096), Buffer.alloc(bytes.length - 4096, 0x01)])]
]

describe('schema', () => {
  it('is at the latest migration, and reopening keeps the data', () => {
    snapshot.close()
    const raw = new Database(join(dir, 'snapshot.sqlite'))
    expect((raw.prepare('PRAGMA user_version').raw().get() as [number])[0]).toBe(MIGRATIONS.length)
    expect((raw.prepare('PRAGMA journal_mode').raw().get() as [string])[0]).toBe('wal')
    raw.close()
    snapshot = openSnapshot(join(dir, 'snapshot.sqlite'))
    expect(snapshot.dump().orders).toHaveLength(400)
  })

  it('keeps one file per account, demo apart', () => {
    const a = snapshotFileFor(dir, { demo: false, baseUrl: 'https://a.example.com', sellerId: 's1' })
    expect(snapshotFileFor(dir, { demo: false, baseUrl: 'https://a.example.com', sellerId: 's2' })).not.toBe(a)
    expect(snapshotFileFor(dir, { demo: false, baseUrl: 'https://b.example.com', sellerId: 's1' })).not.toBe(a)
    expect(snapshotFileFor(dir, { demo: true, baseUrl: 'http://127.0.0.1:9', sellerId: null })).toMatch(/demo\.sqlite$/)
  })

  it.each(DAMAGES)('moves a file %s aside and starts fresh, with a notice', (_label, damage) => {
    snapshot.close()
    const file = join(dir, 'snapshot.sqlite')
    // A closed snapshot has folded its WAL into the file: the damage below reaches all the data.
    expect(existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0).toBe(0)
    writeFileSync(file, damage(readFileSync(file)))
    const fresh = openSnapshot(file)
    expect(fresh.notice).toMatch(/could not be read/)
    expect(fresh.dump()).toEqual({ orders: [], sellRequests: [] })
    expect(readdirSync(dir).some((name) => name.startsWith('snapshot.sqlite.unreadable-'))).toBe(true)
    fresh.close()
    snapshot = openSnapshot(file)
    expect(snapshot.notice).toBeNull()
  })

  it.each(DAMAGES)('a file %s, its check left for later, is still set aside as it opens: its tables’ first pages are read', (_label, damage) => {
    snapshot.close()
    const file = join(dir, 'snapshot.sqlite')
    writeFileSync(file, damage(readFileSync(file)))
    snapshot = openSnapshot(file, 'later')
    expect(snapshot.notice).toMatch(/could not be read/)
    expect(snapshot.dump()).toEqual({ orders: [], sellRequests: [] })
  })

  it('a file damaged past its tables’ first pages, its check left for later, opens at once and is found damaged apart; checked as it opens, it is set aside', async () => {
    snapshot.close()
    const file = join(dir, 'snapshot.sqlite')
    // A page in the middle of the orders' documents (SQLite's page list): opening does not read it.
    const raw = new Database(file, { readonly: true })
    const [page] = raw.prepare("SELECT pageno FROM dbstat WHERE name = 'order_docs' AND pagetype = 'leaf' LIMIT 1 OFFSET 5").raw().get() as [number]
    const pageSize = scalar<number>(raw, 'PRAGMA page_size')!
    raw.close()
    const bytes = readFileSync(file)
    bytes.fill(0x5a, (page - 1) * pageSize, page * pageSize)
    writeFileSync(file, bytes)
    const later = openSnapshot(file, 'later')
    expect(later.notice).toBeNull()
    expect(await later.integrity).toMatch(/\S/)
    later.close()
    expect(readdirSync(dir).some((name) => name.includes('unreadable'))).toBe(false)
    snapshot = openSnapshot(file)
    expect(snapshot.notice).toMatch(/could not be read/)
    expect(snapshot.dump()).toEqual({ orders: [], sellRequests: [] })
    expect(await snapshot.integrity).toBeNull() // checked as it opened
  })

  it('a sound file, its check left for later, is found sound apart', async () => {
    snapshot.close()
    snapshot = openSnapshot(join(dir, 'snapshot.sqlite'), 'later')
    expect(await snapshot.integrity).toBeNull()
    expect(snapshot.dump().orders).toHaveLength(orders.length)
  })
})

describe('order list query', () => {
  const all = { page: 1, take: 1000, sortBy: 'date', sortDir: 'DESC' } as const

  it('pages and sorts by date or total in SQLite', () => {
    const page1 = snapshot.queryOrders({ ...all, take: 50 })
    const page2 = snapshot.queryOrders({ ...all, take: 50, page: 2 })
    expect(page1.total).toBe(400)
    expect(page1.rows).toHaveLength(50)
    const dates = [...page1.rows, ...page2.rows].map((o) => Date.parse(o.orderDate))
    expect(dates).toEqual([...dates].sort((a, b) => b - a))
    const byTotal = snapshot.queryOrders({ ...all, sortBy: 'total', sortDir: 'ASC' }).rows.map((o) => o.totalCents)
    expect(byTotal).toEqual([...byTotal].sort((a, b) => a - b))
  })

  it('searches order number, item names, shipment and tracking number', () => {
    const sample = orders[17]!
    const item = sample.items[0]!
    const expectMatch = (term: string, predicate: (o: Order) => boolean) => {
      const found = snapshot.queryOrders({ ...all, searchTerm: term })
      expect(found.total, term).toBe(orders.filter(predicate).length)
      expect(found.rows.map((o) => o.id)).toContain(sample.id)
    }
    expectMatch(sample.orderNo, (o) => o.orderNo.includes(sample.orderNo))
    const word = item.name.split(' ')[0]!.toUpperCase()
    expectMatch(
      word,
      (o) =>
        o.orderNo.toLowerCase().includes(word.toLowerCase()) ||
        o.items.some((i) => [i.name, i.shipment, i.tracking?.trackingNumber].some((t) => t?.toLowerCase().includes(word.toLowerCase())))
    )
    expectMatch(item.tracking!.trackingNumber, (o) => o.items.some((i) => i.tracking?.trackingNumber.includes(item.tracking!.trackingNumber)))
    expect(snapshot.queryOrders({ ...all, searchTerm: '100%_\\' }).total).toBe(0) // wildcards are literal
  })

  it('filters by date range and by order and item status', () => {
    const dates = orders.map((o) => Date.parse(o.orderDate)).sort((a, b) => a - b)
    const fromMs = dates[100]!
    const toMs = dates[300]!
    const ranged = snapshot.queryOrders({ ...all, fromMs, toMs })
    expect(ranged.total).toBe(orders.filter((o) => Date.parse(o.orderDate) >= fromMs && Date.parse(o.orderDate) <= toMs).length)
    const ready = snapshot.queryOrders({ ...all, itemStatuses: ['ready-to-ship'] })
    expect(ready.total).toBe(orders.filter((o) => o.items.some((i) => i.status === 'ready-to-ship')).length)
    expect(ready.total).toBeGreaterThan(0)
    expect(snapshot.queryOrders({ ...all, statuses: ['payment-confirmed'] }).total).toBe(orders.filter((o) => o.status === 'payment-confirmed').length)
    expect(snapshot.queryOrders({ ...all, statuses: ['no-such-status'] }).total).toBe(0)
    expect(snapshot.statuses().orderItems).toEqual(expect.arrayContaining(['awaiting-shipment', 'ready-to-ship']))
  })
})

describe('sell request list query', () => {
  const all = { page: 1, take: 1000, sortBy: 'updated', sortDir: 'DESC' } as const
  it('searches name, SKU and brand; filters status; sorts by price, quantity, name', () => {
    const sample = sellRequests[42]!
    expect(snapshot.querySellRequests({ ...all, searchTerm: sample.sku }).rows.map((s) => s.id)).toEqual([sample.id])
    expect(snapshot.querySellRequests({ ...all, searchTerm: sample.brand.toLowerCase() }).total).toBe(
      sellRequests.filter((s) => [s.name, s.sku, s.brand].some((t) => t.toLowerCase().includes(sample.brand.toLowerCase()))).length
    )
    const open = snapshot.querySellRequests({ ...all, statuses: ['open'] })
    expect(open.total).toBe(sellRequests.filter((s) => s.status === 'open').length)
    const prices = snapshot.querySellRequests({ ...all, sortBy: 'price', sortDir: 'ASC' }).rows.map((s) => s.priceCents)
    expect(prices).toEqual([...prices].sort((a, b) => a - b))
    const names = snapshot.querySellRequests({ ...all, sortBy: 'name', sortDir: 'ASC' }).rows.map((s) => s.name.toLowerCase())
    expect(names).toEqual([...names].sort())
  })

  it('applies an edit and a delete to the live table', async () => {
    const target = sellRequests[5]!
    await snapshot.putSellRequest(sellRequestBatch([{ ...target, priceCents: 1, quantity: 999 }]))
    expect(snapshot.querySellRequests({ ...all, searchTerm: target.sku }).rows[0]).toMatchObject({ priceCents: 1, quantity: 999 })
    await snapshot.removeSellRequest(target.id)
    expect(snapshot.querySellRequests({ ...all, searchTerm: target.sku }).total).toBe(0)
  })
})

describe('changes applied to the live tables', () => {
  it('are written a part per transaction with turns between, and the sync is recorded with the last part', async () => {
    const before = snapshot.syncState('sellRequests').lastIncrementalMs
    const idOf = (k: number) => `00000000-0000-4000-8000-${String(k).padStart(12, '0')}`
    const pages: SellRequestBatch[] = []
    for (let from = 0; from < 20_000; from += 100) {
      const ks = Array.from({ length: 100 }, (_, k) => from + k)
      pages.push({
        rows: ks.map((k) => ({ ...sellRequests[k % sellRequests.length]!, id: idOf(k) })),
        wire: { json: JSON.stringify(ks.map((k) => ({ ...wireSellRequests[k % wireSellRequests.length]!, id: idOf(k) }))), path: '$' }
      })
    }
    let midway: { count: number; syncedMs: number | null } | null = null
    setImmediate(() => (midway = { count: snapshot.count('sellRequests'), syncedMs: snapshot.syncState('sellRequests').lastIncrementalMs }))
    await snapshot.applyChanges('sellRequests', pages, 123_456)
    // Another call got its turn while the rows were written: it saw some of them, and the old sync time.
    expect(midway).not.toBeNull()
    expect(midway!.count).toBeGreaterThan(sellRequests.length)
    expect(midway!.count).toBeLessThan(sellRequests.length + 20_000)
    expect(midway!.syncedMs).toBe(before)
    expect(snapshot.count('sellRequests')).toBe(sellRequests.length + 20_000)
    expect(snapshot.syncState('sellRequests').lastIncrementalMs).toBe(123_456)
  })

  it('cut a page read a row at a time into parts of at most 50 rows, each row with its own document', async () => {
    const idOf = (k: number) => `00000000-0000-4000-8000-${String(900_000 + k).padStart(12, '0')}`
    const texts = Array.from({ length: 120 }, (_, k) => JSON.stringify({ ...wireSellRequests[k % wireSellRequests.length]!, id: idOf(k) }))
    // As the client hands over a list answer read a row at a time: its bytes, and where each row lies.
    const bytes = Buffer.from(`{"data":[${texts.join(',')}],"total":120}`)
    const bounds = texts.flatMap((text) => {
      const at = bytes.indexOf(text)
      return [at, at + Buffer.byteLength(text)]
    })
    const rows = texts.map((text) => sellRequestFromWire(JSON.parse(text)))
    const before = snapshot.listingsGeneration()
    await snapshot.applyChanges('sellRequests', [{ rows, wire: { bytes, bounds } }], 123_456)
    // Three transactions (50, 50 and 20 rows): each moves the listings' generation once.
    expect(snapshot.listingsGeneration() - before).toBe(3)
    const docs = new Map(snapshot.database.prepare(`SELECT id, json FROM sell_request_docs WHERE id LIKE '%-0000009%'`).raw().all() as [string, string][])
    expect(docs.size).toBe(120)
    for (const [k, text] of texts.entries()) expect(docs.get(idOf(k))).toBe(text)
    expect(snapshot.count('sellRequests')).toBe(sellRequests.length + 120)
  })
})

describe('sell requests changed while a page was read', () => {
  /**
   * A page of listings as the marketplace sends it: each at its `updatedAt` and price. Its rows array lies
   * at `path`; one the snapshot cannot cut into rows (a quoted member name) is unpacked by SQLite.
   */
  const page = (path: '$' | '$."data"', ...rows: { of: SellRequest; id?: string; updatedAt: string; priceCents: number }[]): SellRequestBatch => {
    const wire = rows.map(({ of, id, updatedAt, priceCents }) => ({
      ...wireSellRequests.find((w) => w.id === of.id)!,
      ...(id ? { id, sku: `NEW-${id}` } : {}),
      updatedAt,
      price: priceCents / 100
    }))
    return { rows: wire.map(sellRequestFromWire), wire: { json: JSON.stringify(path === '$' ? wire : { data: wire }), path } }
  }
  const at = (minutes: number) => new Date(Date.UTC(2031, 0, 1, 12, minutes)).toISOString()
  const [T1, T2, T3] = [at(1), at(2), at(3)]
  /** A listing as the snapshot holds it: the columns (price, sort, filters) and the document (the list's rows). */
  const held = (row: SellRequest) => ({
    values: snapshot.sellRequestValues(row.id),
    byPrice: snapshot.querySellRequests({ page: 1, take: 10, sortBy: 'price', sortDir: 'ASC', searchTerm: row.sku }).rows.map((s) => s.id),
    listed: snapshot.querySellRequests({ page: 1, take: 10, sortBy: 'updated', sortDir: 'DESC', searchTerm: row.sku }).rows,
    dumped: snapshot.dump().sellRequests.filter((s) => s.id === row.id)
  })

  it.each(['$', '$."data"'] as const)(
    'keep a listing newer than the page (an edit answered meanwhile) in both tables, and apply the rest of the page (rows at %s)',
    async (path) => {
      const [edited, other] = [sellRequests[7]!, sellRequests[8]!]
      const added = '22222222-2222-4222-8222-222222222222'
      // The edit's answer, written at once.
      await snapshot.putSellRequest(page(path, { of: edited, updatedAt: T2, priceCents: 99_900 }))
      // The sync's page, read before the edit: the listing as it was, another changed, one not held yet.
      await snapshot.applyChanges(
        'sellRequests',
        [
          page(
            path,
            { of: other, updatedAt: T1, priceCents: 4_200 },
            { of: edited, updatedAt: T1, priceCents: 10_300 },
            { of: edited, id: added, updatedAt: T1, priceCents: 777 }
          )
        ],
        123_456
      )
      const kept = held(edited)
      expect(kept.values).toEqual({ priceCents: 99_900, quantity: edited.quantity })
      expect(
        snapshot.querySellRequests({ page: 1, take: 10, sortBy: 'price', sortDir: 'ASC', searchTerm: edited.sku, minPriceCents: 99_900, maxPriceCents: 99_900 })
          .rows
      ).toMatchObject([{ id: edited.id, priceCents: 99_900, updatedAt: T2 }])
      expect(kept.listed).toMatchObject([{ id: edited.id, priceCents: 99_900, updatedAt: T2 }])
      expect(kept.dumped).toMatchObject([{ priceCents: 99_900, updatedAt: T2 }])
      expect(held(other).values).toEqual({ priceCents: 4_200, quantity: other.quantity })
      expect(held(other).dumped).toMatchObject([{ priceCents: 4_200, updatedAt: T1 }])
      expect(snapshot.sellRequestValues(added)).toEqual({ priceCents: 777, quantity: edited.quantity })
      expect(snapshot.dump().sellRequests.filter((s) => s.id === added)).toMatchObject([{ priceCents: 777, updatedAt: T1 }])
      expect(snapshot.count('sellRequests')).toBe(sellRequests.length + 1)
      expect(scalar(snapshot.database, 'SELECT COUNT(*) FROM sell_request_docs')).toBe(sellRequests.length + 1)
      expect(snapshot.syncState('sellRequests').lastIncrementalMs).toBe(123_456)

      // A later change of the listing replaces it, and so does one as new as that.
      await snapshot.applyChanges('sellRequests', [page(path, { of: edited, updatedAt: T3, priceCents: 5_000 })], 123_457)
      expect(held(edited).values).toEqual({ priceCents: 5_000, quantity: edited.quantity })
      expect(held(edited).dumped).toMatchObject([{ priceCents: 5_000, updatedAt: T3 }])
      await snapshot.applyChanges('sellRequests', [page(path, { of: edited, updatedAt: T3, priceCents: 5_100 })], 123_458)
      expect(held(edited)).toMatchObject({
        values: { priceCents: 5_100 },
        byPrice: [edited.id],
        listed: [{ priceCents: 5_100, updatedAt: T3 }],
        dumped: [{ priceCents: 5_100, updatedAt: T3 }]
      })
    }
  )

  it('leave a listing the page holds to the byte as it is (a catch-up rewrites nothing unchanged), and write one of the same time whose values changed', async () => {
    const [same, changed] = [sellRequests[11]!, sellRequests[12]!]
    const rowids = (row: SellRequest) =>
      snapshot.database.prepare('SELECT s.rowid, d.rowid FROM sell_requests s JOIN sell_request_docs d ON d.id = s.id WHERE s.id = ?').raw().get(row.id)
    await snapshot.applyChanges(
      'sellRequests',
      [page('$', { of: same, updatedAt: T1, priceCents: 1_100 }, { of: changed, updatedAt: T1, priceCents: 1_200 })],
      1
    )
    const [sameAt, changedAt] = [rowids(same), rowids(changed)]
    await snapshot.applyChanges(
      'sellRequests',
      [page('$', { of: same, updatedAt: T1, priceCents: 1_100 }, { of: changed, updatedAt: T1, priceCents: 1_250 })],
      2
    )
    // Written rows are replaced (new rowids); the unchanged one is where it was.
    expect(rowids(same)).toEqual(sameAt)
    expect(rowids(changed)).not.toEqual(changedAt)
    expect(held(same).values).toEqual({ priceCents: 1_100, quantity: same.quantity })
    expect(held(changed)).toMatchObject({ values: { priceCents: 1_250 }, dumped: [{ priceCents: 1_250, updatedAt: T1 }] })
    expect(snapshot.syncState('sellRequests').lastIncrementalMs).toBe(2)
    // A page of nothing new leaves the listings' generation (what was read of them still holds); it
    // still records the sync's time. A page with a change moves it.
    const generation = snapshot.listingsGeneration()
    await snapshot.applyChanges(
      'sellRequests',
      [page('$', { of: same, updatedAt: T1, priceCents: 1_100 }, { of: changed, updatedAt: T1, priceCents: 1_250 })],
      3
    )
    expect(snapshot.listingsGeneration()).toBe(generation)
    expect(snapshot.syncState('sellRequests').lastIncrementalMs).toBe(3)
    await snapshot.applyChanges(
      'sellRequests',
      [page('$', { of: same, updatedAt: T1, priceCents: 1_100 }, { of: changed, updatedAt: T1, priceCents: 1_300 })],
      4
    )
    expect(snapshot.listingsGeneration()).toBe(generation + 1)
  })

  it.each(['$', '$."data"'] as const)('keep the newer of two copies of a listing in one page when the older comes last (rows at %s)', async (path) => {
    const target = sellRequests[path === '$' ? 9 : 10]!
    await snapshot.applyChanges(
      'sellRequests',
      [page(path, { of: target, updatedAt: T3, priceCents: 3_000 }, { of: target, updatedAt: T2, priceCents: 2_000 })],
      1
    )
    expect(held(target)).toMatchObject({ values: { priceCents: 3_000 }, dumped: [{ priceCents: 3_000, updatedAt: T3 }] })
  })
})

describe('atomic swaps', () => {
  it("stages pages on the snapshot's thread: the core only hands them over, and a write the thread could not make fails the commit", async () => {
    const run = newRun('sellRequests', 300)
    await snapshot.beginRun(run)
    const core = snapshot.database
    // Another program holds the write lock: the core hands the pages over and goes on; the thread
    // writes them once the lock is free. (Written by the core, the hand-over would wait for the lock.)
    const other = new Database(snapshot.file)
    other.exec('BEGIN IMMEDIATE')
    run.covered = [[0, 200]]
    const started = performance.now()
    await snapshot.stagePages(run, [sellRequestBatch(sellRequests.slice(0, 100)), sellRequestBatch(sellRequests.slice(100, 200))])
    expect(performance.now() - started).toBeLessThan(1_000)
    expect(scalar<number>(core, 'SELECT COUNT(*) FROM sell_requests_staged')).toBe(0)
    other.exec('COMMIT')
    other.close()
    await snapshot.stagingWritten('sellRequests')
    expect(scalar<number>(core, 'SELECT COUNT(*) FROM sell_requests_staged')).toBe(200)
    expect(snapshot.run('sellRequests')?.covered).toEqual([[0, 200]])

    // The thread cannot write the next pages: the commit fails and the live snapshot stays as it was.
    core.exec('ALTER TABLE sell_request_docs_staged RENAME TO gone')
    run.covered = [[0, 300]]
    await snapshot.stagePages(run, [sellRequestBatch(sellRequests.slice(200))])
    await expect(snapshot.commitRun('sellRequests')).rejects.toThrow(/no such table/)
    expect(snapshot.count('sellRequests')).toBe(sellRequests.length)
    expect(snapshot.run('sellRequests')?.covered).toEqual([[0, 200]])
    expect(scalar<number>(core, 'SELECT COUNT(*) FROM sell_requests_staged')).toBe(200)
  })

  it('makes a part’s staging writes a step at a time (nothing written meanwhile), then stores what staging the pages whole stores, in one transaction', async () => {
    const staged = (table: string) => snapshot.database.prepare(`SELECT * FROM ${table} ORDER BY id`).raw().all()
    // The pages staged whole (stagePages of the batches), as the rows the staging tables hold after.
    const run = newRun('sellRequests', 300)
    await snapshot.beginRun(run)
    run.covered = [[0, 300]]
    await snapshot.stagePages(run, [sellRequestBatch(sellRequests.slice(0, 200)), sellRequestBatch(sellRequests.slice(200))])
    await snapshot.stagingWritten('sellRequests')
    const whole = { rows: staged('sell_requests_staged'), docs: staged('sell_request_docs_staged') }
    expect(whole.rows).toHaveLength(300)

    const again = newRun('sellRequests', 300)
    await snapshot.beginRun(again)
    let pauses = 0
    const part = await snapshot.stagingPart(
      'sellRequests',
      [sellRequestBatch(sellRequests.slice(0, 200)), sellRequestBatch(sellRequests.slice(200))],
      async () => {
        pauses++
        expect(scalar<number>(snapshot.database, 'SELECT COUNT(*) FROM sell_requests_staged')).toBe(0)
      }
    )
    // A pause before every 64th row of each page: 3 in the first (200 rows), 1 in the second (100).
    expect(pauses).toBe(4)
    await expect(snapshot.stagePages(newRun('orders', 300), part)).rejects.toThrow(/cannot be staged/)
    again.covered = [[0, 300]]
    await snapshot.stagePages(again, part)
    await snapshot.stagingWritten('sellRequests')
    expect({ rows: staged('sell_requests_staged'), docs: staged('sell_request_docs_staged') }).toEqual(whole)
    expect(snapshot.run('sellRequests')?.covered).toEqual([[0, 300]])
  })

  it("begins a run without the snapshot's thread when nothing is staged, and empties rows an abandoned run left staged on it", async () => {
    // A sync started right after the snapshot opened need not wait for the thread to start.
    const jobs = vi.spyOn(Worker.prototype, 'postMessage')
    try {
      await snapshot.beginRun(newRun('sellRequests', 300))
      expect(jobs).not.toHaveBeenCalled()
      const abandoned = snapshot.run('sellRequests')!
      abandoned.covered = [[0, 100]]
      await snapshot.stagePages(abandoned, [sellRequestBatch(sellRequests.slice(0, 100))])
      await snapshot.stagingWritten('sellRequests')
      jobs.mockClear()
      const next = newRun('sellRequests', 300)
      await snapshot.beginRun(next)
      expect(jobs).toHaveBeenCalledTimes(1)
    } finally {
      jobs.mockRestore()
    }
    expect(scalar<number>(snapshot.database, 'SELECT COUNT(*) FROM sell_requests_staged')).toBe(0)
    expect(scalar<number>(snapshot.database, 'SELECT COUNT(*) FROM sell_request_docs_staged')).toBe(0)
    expect(snapshot.run('sellRequests')?.covered).toEqual([])
  })

  it('a staged full sync is invisible until committed, and reports only unseen orders', async () => {
    const extra = { ...orders[0]!, id: '11111111-1111-4111-8111-111111111111', orderNo: '999999' }
    const run = { ...newRun('orders', 201), pageSize: 1000 }
    await snapshot.beginRun(run)
    run.covered = [[0, 201]]
    await snapshot.stagePages(run, [orderBatch([...orders.slice(0, 200), extra])])
    expect(snapshot.dump().orders).toHaveLength(400) // the live table is untouched while staging
    // Written by the snapshot's thread soon after it is handed over.
    await vi.waitFor(() => expect(snapshot.run('orders')?.covered).toEqual([[0, 201]]))
    const { newOrderIds } = await snapshot.commitRun('orders')
    expect(newOrderIds).toEqual([extra.id])
    expect(snapshot.dump().orders).toHaveLength(201)
    expect(snapshot.run('orders')).toBeNull()
  })

  it('a pass that read fewer rows than its list holds keeps the rows held it did not read (orders: placed in its window); one that read them all drops them', async () => {
    const byDate = [...orders].sort((a, b) => Date.parse(a.orderDate) - Date.parse(b.orderDate))
    const fromMs = Date.parse(byDate[200]!.orderDate)
    const inWindow = byDate.filter((order) => Date.parse(order.orderDate) >= fromMs)
    const before = byDate.filter((order) => Date.parse(order.orderDate) < fromMs)
    const short = { ...newRun('orders', inWindow.length), pageSize: 1000, windowFromMs: fromMs }
    await snapshot.beginRun(short)
    short.covered = [[0, 150]]
    await snapshot.stagePages(short, [orderBatch(inWindow.slice(0, 150))])
    const { kept } = await snapshot.commitRun('orders')
    expect(kept).toBe(inWindow.length - 150)
    // Orders placed before the window are not kept for it (those still to ship are, apart).
    const ids = (rows: readonly Order[]) => rows.map((order) => order.id).sort()
    expect(ids(snapshot.dump().orders)).toEqual(ids([...inWindow, ...before.filter(hasOpenItem)]))

    const whole = newRun('sellRequests', 100)
    await snapshot.beginRun(whole)
    whole.covered = [[0, 100]]
    await snapshot.stagePages(whole, [sellRequestBatch(sellRequests.slice(0, 100))])
    expect((await snapshot.commitRun('sellRequests')).kept).toBe(0)
    expect(snapshot.dump().sellRequests).toHaveLength(100)
  })

  it('a part handed over after one that failed is not written: the run never records rows it lacks, and the next part starts from the file', async () => {
    const run = newRun('sellRequests', 300)
    await snapshot.beginRun(run)
    run.covered = [[0, 100]]
    await snapshot.stagePages(run, [sellRequestBatch(sellRequests.slice(0, 100))])
    // A part SQLite refuses (a row without a name), and a good one behind it.
    run.covered = [[0, 200]]
    await snapshot.stagePages(run, [sellRequestBatch([{ ...sellRequests[100]!, name: null as unknown as string }, ...sellRequests.slice(101, 200)])])
    run.covered = [[0, 300]]
    await snapshot.stagePages(run, [sellRequestBatch(sellRequests.slice(200, 300))])
    await expect(snapshot.stagingWritten('sellRequests')).rejects.toThrow(/NOT NULL/)
    expect(snapshot.run('sellRequests')?.covered).toEqual([[0, 100]])
    expect(scalar<number>(snapshot.database, 'SELECT COUNT(*) FROM sell_requests_staged')).toBe(100)
    // The next part (a resumed sync's) records from where the file is.
    const resumed = snapshot.run('sellRequests')!
    resumed.covered = [[0, 300]]
    await snapshot.stagePages(resumed, [sellRequestBatch(sellRequests.slice(100, 300))])
    await snapshot.stagingWritten('sellRequests')
    expect(snapshot.run('sellRequests')?.covered).toEqual([[0, 300]])
    await snapshot.commitRun('sellRequests')
    expect(snapshot.count('sellRequests')).toBe(300)
  })

  it('keeps the later copy of a row staged twice (pages shift while a sync runs)', async () => {
    const target = sellRequests[3]!
    const run = newRun('sellRequests', 300)
    await snapshot.beginRun(run)
    run.covered = [[0, 200]]
    await snapshot.stagePages(run, [sellRequestBatch(sellRequests.slice(0, 100)), sellRequestBatch(sellRequests.slice(100, 200))])
    run.covered = [[0, 300]]
    await snapshot.stagePages(run, [sellRequestBatch([...sellRequests.slice(200), { ...target, priceCents: 4242, quantity: 42 }])])
    await vi.waitFor(() => expect(snapshot.run('sellRequests')?.covered).toEqual([[0, 300]]))
    await snapshot.commitRun('sellRequests')
    const { sellRequests: after } = snapshot.dump()
    expect(after).toHaveLength(300)
    expect(after.filter((s) => s.id === target.id)).toMatchObject([{ priceCents: 4242, quantity: 42 }])
    expect(snapshot.querySellRequests({ page: 1, take: 100, sortBy: 'price', sortDir: 'ASC', searchTerm: target.sku }).rows).toMatchObject([
      { id: target.id, priceCents: 4242 }
    ])
    // The swapped-in tables are indexed as a new snapshot's live ones (one row per id); the new twins
    // have no indexes, so the next run's pages only append.
    expect(indexDefinitions(snapshot.database, 'sell_request')).toEqual(
      indexDefinitions(new Database(join(mkdtempSync(join(tmpdir(), 'seller-desk-fresh-')), 'fresh.sqlite')), 'sell_request', true)
    )
    expect(indexDefinitions(snapshot.database, 'sell_request', false, '_staged')).toEqual([])
  })

  it("indexes the staged rows and drops the rows swapped out on the snapshot's thread: the core's part of a swap is renames", async () => {
    const run = newRun('sellRequests', 300)
    await snapshot.beginRun(run)
    run.covered = [[0, 300]]
    await snapshot.stagePages(run, [sellRequestBatch(sellRequests.slice(0, 150)), sellRequestBatch(sellRequests.slice(150))])
    const live = indexDefinitions(snapshot.database, 'sell_request')
    const twin = () => indexDefinitions(snapshot.database, 'sell_request', false, '_staged')
    expect(twin()).toEqual([])
    const coreStatements: string[] = []
    const core = snapshot.database
    const coreExec = core.exec.bind(core)
    const exec = vi.spyOn(core, 'exec').mockImplementation((sql: string) => {
      coreStatements.push(sql)
      return coreExec(sql)
    })
    try {
      await snapshot.commitRun('sellRequests')
    } finally {
      exec.mockRestore()
    }
    expect(coreStatements.join(' ')).not.toMatch(/CREATE|DROP|DELETE/)
    expect(coreStatements.join(' ')).toMatch(/ALTER TABLE sell_requests_staged RENAME TO sell_requests/)
    expect(snapshot.dump().sellRequests).toHaveLength(300)
    expect(indexDefinitions(snapshot.database, 'sell_request')).toEqual(live)
    // The old rows, swapped out into the twins, are gone with their indexes.
    expect(twin()).toEqual([])
    expect(scalar(snapshot.database, 'SELECT (SELECT COUNT(*) FROM sell_requests_staged) + (SELECT COUNT(*) FROM sell_request_docs_staged)')).toBe(0)
  })

  it('never stores the API key (it never gets one) and nothing but marketplace data', () => {
    snapshot.close()
    const bytes = readFileSync(join(dir, 'snapshot.sqlite'))
    expect(bytes.includes(Buffer.from('x-api-key'))).toBe(false)
  })
})

describe('unshipped orders placed before the window', () => {
  /** A full sync of these orders, as the engine stages and commits one (its window from `windowFromMs`). */
  async function fullSyncOf(rows: Order[], windowFromMs: number | null = null) {
    const run = { ...newRun('orders', rows.length), pageSize: 1000, windowFromMs }
    await snapshot.beginRun(run)
    run.covered = [[0, rows.length]]
    await snapshot.stagePages(run, [orderBatch(rows)])
    await snapshot.commitRun('orders')
  }
  const ids = (rows: readonly Order[]) => rows.map((order) => order.id).sort()
  const held = () => ids(snapshot.dump().orders)
  const setApart = () => (snapshot.database.prepare('SELECT id FROM older_open_orders ORDER BY id').raw().all() as [string][]).map(([id]) => id)
  const byDate = [...orders].sort((a, b) => Date.parse(a.orderDate) - Date.parse(b.orderDate))
  const toShip = byDate.filter(hasOpenItem)
  const shipped = byDate.filter((order) => !hasOpenItem(order))
  /** Every generated order was placed before this. */
  const AFTER_ALL = Date.parse(byDate.at(-1)!.orderDate) + 1
  const whole = { listed: 100, answered: 100, complete: true }
  const look = { beforeMs: AFTER_ALL, checkedMs: 2_000, whole, error: null }

  it('are kept beside the window, apart from its count; an order read by a sync or staged by a full one is kept as such; a full sync carries the others', async () => {
    const window = shipped.slice(0, 300)
    const older = toShip.slice(0, 10)
    expect(older).toHaveLength(10)
    await fullSyncOf(window)
    // The look's pages, one also listing an order the window holds: that one stays as read in the window.
    await snapshot.keepOlderOpen([orderBatch([older[0]!, window[5]!, older[1]!]), orderBatch(older.slice(2))], look)
    expect(held()).toEqual(ids([...window, ...older]))
    expect(setApart()).toEqual(ids(older))
    expect(snapshot.count('orders')).toBe(300)
    expect(snapshot.olderOpenCheck()).toEqual({ beforeMs: AFTER_ALL, checkedMs: 2_000, ...whole, kept: 10, error: null })
    // Their documents are theirs (cut from the page's), as the order drawer reads them.
    expect(snapshot.ordersWithIds([older[0]!.id, older[1]!.id, older[2]!.id])).toEqual([older[0], older[1], older[2]])

    // A sync reads one of them (updated in the window): the window's count covers it from now on.
    await snapshot.applyChanges('orders', [orderBatch([older[3]!])], Date.now())
    expect(snapshot.count('orders')).toBe(301)

    // A full sync (the window's rows and one more of them, updated): the rest come through its swap.
    await fullSyncOf([...window.slice(0, 200), older[4]!])
    const kept = older.filter((order) => order !== older[3] && order !== older[4])
    expect(held()).toEqual(ids([...window.slice(0, 200), older[4]!, ...kept]))
    expect(snapshot.count('orders')).toBe(201)

    // A look at what changed: one set apart is shipped now (it goes), one is read again as it is, a new
    // one is kept, an order with nothing to ship is not; the whole look's figures stay.
    const shippedNow = { ...kept[0]!, items: kept[0]!.items.map((item) => ({ ...item, status: 'seller-shipped' })) }
    await snapshot.keepOlderOpen([orderBatch([shippedNow, kept[1]!, toShip[10]!, shipped[330]!])], { beforeMs: AFTER_ALL + 1, checkedMs: 2_500, error: null })
    const now = [...kept.slice(1), toShip[10]!]
    expect(held()).toEqual(ids([...window.slice(0, 200), older[4]!, ...now]))
    expect(setApart()).toEqual(ids(now))
    expect(snapshot.ordersWithIds([kept[0]!.id])).toEqual([])
    expect(snapshot.olderOpenCheck()).toEqual({ beforeMs: AFTER_ALL + 1, checkedMs: 2_500, ...whole, kept: now.length, error: null })

    // The next whole look replaces them all: what it does not list any more goes.
    await snapshot.keepOlderOpen([orderBatch([older[6]!])], { ...look, checkedMs: 3_000, whole: { listed: 50, answered: 50, complete: true } })
    expect(held()).toEqual(ids([...window.slice(0, 200), older[4]!, older[6]!]))
    expect(snapshot.olderOpenCheck()).toMatchObject({ checkedMs: 3_000, listed: 50, kept: 1, error: null })
    expect(snapshot.count('orders')).toBe(201)
    // A whole look that read less than it asked for keeps what it found and drops nothing.
    await snapshot.keepOlderOpen([orderBatch([older[7]!])], { ...look, beforeMs: null, checkedMs: 4_000, error: 'Short.' })
    expect(setApart()).toEqual(ids([older[6]!, older[7]!]))
    expect(snapshot.olderOpenCheck()).toMatchObject({ beforeMs: null, error: 'Short.', kept: 2 })
  })

  it('a full sync whose window moves on keeps the orders leaving it with items to ship, set apart; one moved back holds what it reads', async () => {
    // The window of a first sync from the 100th order: orders to ship and shipped on either side.
    const start = Date.parse(byDate[100]!.orderDate)
    await fullSyncOf(byDate.slice(100, 300), start)
    // (The snapshot held every order before: those before the window with items to ship are kept.)
    expect(setApart()).toEqual(ids(byDate.slice(0, 100).filter(hasOpenItem)))
    expect(setApart().length).toBeGreaterThan(0)
    // A whole look that finds none of them: they have nothing to ship any more.
    await snapshot.keepOlderOpen([], { beforeMs: start, checkedMs: 1, whole, error: null })
    expect(setApart()).toEqual([])
    expect(held()).toEqual(ids(byDate.slice(100, 300)))
    // Moved on to the 200th: those before it with items to ship stay, set apart; the shipped ones go.
    const later = Date.parse(byDate[200]!.orderDate)
    await fullSyncOf(byDate.slice(200, 300), later)
    const leaving = byDate.slice(100, 200).filter(hasOpenItem)
    expect(leaving.length).toBeGreaterThan(0)
    expect(held()).toEqual(ids([...byDate.slice(200, 300), ...leaving]))
    expect(setApart()).toEqual(ids(leaving))
    expect(snapshot.count('orders')).toBe(100)
    expect(snapshot.olderOpenCheck()!.beforeMs).toBe(start)
    // Moved back to the 50th: what it reads is the window's again, and the last look reaches no further back.
    const earlier = Date.parse(byDate[50]!.orderDate)
    await fullSyncOf(byDate.slice(50, 300), earlier)
    expect(held()).toEqual(ids(byDate.slice(50, 300)))
    expect(setApart()).toEqual([])
    expect(snapshot.olderOpenCheck()!.beforeMs).toBe(earlier)
  })

  it('a look that did not end keeps the last ones’ orders and figures, and says what stopped it', async () => {
    await fullSyncOf(shipped.slice(0, 300))
    await snapshot.keepOlderOpen([orderBatch(toShip.slice(0, 4))], look)
    await snapshot.olderOpenFailed(6_000, 'The marketplace had a problem (HTTP 500).')
    // Up to where the last look that ended read, with its figures.
    expect(snapshot.olderOpenCheck()).toEqual({
      beforeMs: AFTER_ALL,
      checkedMs: 6_000,
      listed: 100,
      answered: 100,
      complete: true,
      kept: 4,
      error: 'The marketplace had a problem (HTTP 500).'
    })
    expect(held()).toEqual(ids([...shipped.slice(0, 300), ...toShip.slice(0, 4)]))
  })

  it('before any look ended, a failed one records only its words', async () => {
    await snapshot.olderOpenFailed(6_000, 'No connection.')
    expect(snapshot.olderOpenCheck()).toEqual({ beforeMs: null, checkedMs: 6_000, listed: 0, answered: 0, complete: false, kept: 0, error: 'No connection.' })
  })
})
