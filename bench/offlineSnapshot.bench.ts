/**
 * Offline snapshots and sync, measured: `sh scripts/with-keyring.sh npx tsx bench/offlineSnapshot.bench.ts`
 * (after `npx electron-vite build`). Sizes: 20,000 orders and 20,000 sell requests; the marketplace
 * runs in its own process on loopback.
 *
 * - full sync vs fetching the same pages with plain fetch and discarding them (same take, same concurrency),
 *   with the CPU the app side and the marketplace used; and plain fetch that also parses, and also checks
 *   each page with the app's wire shapes (what those steps alone cost against the budget)
 * - pages an incremental sync fetches after 50 orders changed, against the pages the orders it must read fill
 * - list query p95 (filter + sort + one page of 100) in core, and through the preview bridge, beside a call
 *   that reads nothing through the same bridge (its floor)
 * - cold start of the browser preview to the first cached orders row visible
 */
import { cpSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createSellerApi } from '../electron/core/sellerApi'
import { orderListFormat, sellRequestListFormat } from '../electron/core/sellerApi/wire'
import { openDatabase, type Db } from '../electron/core/snapshot/database'
import { openSnapshot, type OrderQuery } from '../electron/core/snapshot/snapshot'
import { createSyncEngine, ZONELESS_SLACK_MS } from '../electron/core/sync/syncEngine'
import { startMarketplaceProcess } from './marketplaceProcess'
import { afterStartupSync, coldStart, launchChromium } from './previewRun'
import { ms, percentile, report } from './stats'
import { BENCH_SYNC_SETTINGS, prepareSyncedAccount } from './syncedAccount'

const ORDERS = Number(process.env['BENCH_ORDERS'] ?? 20_000)
const SELL_REQUESTS = Number(process.env['BENCH_SELL_REQUESTS'] ?? 20_000)
const settings = BENCH_SYNC_SETTINGS
const { take, concurrency } = settings

const market = await startMarketplaceProcess(ORDERS, SELL_REQUESTS)
const work = mkdtempSync(join(tmpdir(), 'seller-desk-bench-'))

/**
 * Every page of both resources with plain fetch: discarded (the floor a sync cannot beat), or also
 * parsed, or parsed and checked with the app's wire shapes, or parsed and kept whole in a SQLite file
 * (one row per page: the cheapest way to keep them). How much of the budget those steps alone take.
 */
type FetchMode = 'discard' | 'parse' | 'check' | 'keep'

/** A fresh file for `keep` (opened before the clock starts: the floor counts writing, not opening). */
function pagesFile(): Db {
  const db = openDatabase(join(work, `kept-${Date.now()}.sqlite`)).db
  db.exec('CREATE TABLE pages (path TEXT NOT NULL, page INTEGER NOT NULL, json TEXT NOT NULL)')
  return db
}

async function plainFetchAll(mode: FetchMode, kept: Db | null = null): Promise<void> {
  const keep = kept?.prepare('INSERT INTO pages (path, page, json) VALUES (?, ?, ?)')
  for (const [path, total, format] of [
    ['/v1/orders/seller', ORDERS, orderListFormat],
    ['/v1/sell-requests', SELL_REQUESTS, sellRequestListFormat]
  ] as const) {
    const pages = Array.from({ length: Math.ceil(total / take) }, (_, i) => i + 1)
    let next = 0
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < pages.length) {
          const page = pages[next++]!
          const response = await fetch(`${market.baseUrl}${path}?page=${page}&take=${take}&sortDir=ASC`, { headers: { 'x-api-key': market.apiKey } })
          if (mode === 'discard') {
            await response.arrayBuffer()
            continue
          }
          const text = await response.text()
          const body: unknown = JSON.parse(text)
          if (mode === 'check' && !format.shape.safeParse(body).success) throw new Error(`page ${page} of ${path} does not pass the check`)
          keep?.run(path, page, text)
        }
      })
    )
  }
  kept?.exec('PRAGMA wal_checkpoint(TRUNCATE)')
  kept?.close()
}

interface Timed {
  wallMs: number
  /** CPU of this process (the app side) and of the marketplace process. */
  appCpuMs: number
  serverCpuMs: number | null
}
async function timed(work: () => Promise<unknown>): Promise<Timed> {
  const server = market.cpuMs()
  const cpu = process.cpuUsage()
  const started = performance.now()
  await work()
  const wallMs = performance.now() - started
  const used = process.cpuUsage(cpu)
  const serverAfter = market.cpuMs()
  return { wallMs, appCpuMs: (used.user + used.system) / 1000, serverCpuMs: server === null || serverAfter === null ? null : serverAfter - server }
}

const api = createSellerApi({ baseUrl: market.baseUrl, apiKey: market.apiKey })
const snapshotFile = join(work, 'snapshot.sqlite')

// Warm up every path once (JIT, connection pool), then alternate measurements.
await plainFetchAll('discard')
await plainFetchAll('check')
const runs: Record<FetchMode | 'sync', Timed[]> = { discard: [], parse: [], check: [], keep: [], sync: [] }
for (let round = 0; round < 3; round++) {
  for (const mode of ['discard', 'parse', 'check', 'keep'] as const) {
    const kept = mode === 'keep' ? pagesFile() : null
    runs[mode].push(await timed(() => plainFetchAll(mode, kept)))
  }
  const file = join(work, `round-${round}.sqlite`)
  const snapshot = openSnapshot(file)
  runs.sync.push(await timed(() => createSyncEngine({ api, snapshot, settings }).run('full', new AbortController().signal)))
  snapshot.close()
  if (round === 2) cpSync(file, snapshotFile)
}
const median = (mode: FetchMode | 'sync', of: (run: Timed) => number | null = (run) => run.wallMs) => {
  const values = runs[mode].map(of).filter((value): value is number => value !== null)
  return values.length ? percentile(values, 50) : null
}
const fetchTimes = runs.discard.map((run) => run.wallMs)
const syncTimes = runs.sync.map((run) => run.wallMs)
const fetchMedian = median('discard')!
const syncMedian = median('sync')!

// Incremental after 50 orders changed.
const snapshot = openSnapshot(snapshotFile)
await market.command('touch 45')
await market.command('add 5')
// The orders an incremental sync must read: those the marketplace lists as changed since the last
// sync's start less the safety margin, and less the 12 hours a zone-less order time may be behind UTC
// (ZONELESS_SLACK_MS) while new orders have not shown its times to be UTC. Besides the 50, that window
// holds the orders dated in those hours (the demo marketplace's recent activity).
const { cursorMs, orderTimesReadRight } = snapshot.syncState('orders')
const since = cursorMs! - settings.safetyMarginMs - (orderTimesReadRight === true ? 0 : ZONELESS_SLACK_MS)
const inWindow = (await api.listOrders({ page: 1, take: 1, sortDir: 'DESC', fromDate: new Date(since).toISOString() })).total
const incremental = await createSyncEngine({ api, snapshot, settings }).run('incremental', new AbortController().signal)

// List queries in core: filter + sort + one page of 100.
const queries: OrderQuery[] = [
  { page: 1, take: 100, sortBy: 'date', sortDir: 'DESC' },
  { page: 50, take: 100, sortBy: 'total', sortDir: 'ASC' },
  { page: 1, take: 100, sortBy: 'date', sortDir: 'DESC', searchTerm: 'iphone' },
  { page: 3, take: 100, sortBy: 'total', sortDir: 'DESC', itemStatuses: ['ready-to-ship'] },
  { page: 1, take: 100, sortBy: 'date', sortDir: 'ASC', fromMs: Date.now() - 30 * 86_400_000, toMs: Date.now() },
  { page: 1, take: 100, sortBy: 'date', sortDir: 'DESC', searchTerm: 'galaxy 256', statuses: ['payment-confirmed'] }
]
const coreTimes: number[] = []
const perQuery = queries.map(() => [] as number[])
for (let i = 0; i < 300; i++) {
  const query = queries[i % queries.length]!
  const started = performance.now()
  snapshot.queryOrders(query)
  coreTimes.push(performance.now() - started)
  perQuery[i % queries.length]!.push(performance.now() - started)
}
const sellTimes: number[] = []
for (let i = 0; i < 120; i++) {
  const started = performance.now()
  snapshot.querySellRequests({ page: 1 + (i % 20), take: 100, sortBy: i % 2 ? 'price' : 'updated', sortDir: 'DESC', ...(i % 3 ? {} : { searchTerm: 'pro' }) })
  sellTimes.push(performance.now() - started)
}
snapshot.close()

// Through the bridge, and cold start: a preview host whose user data already holds this account's snapshot.
const userDataDir = join(work, 'user-data')
const account = await prepareSyncedAccount({ userDataDir, snapshotFile, baseUrl: market.baseUrl, apiKey: market.apiKey })

const browser = await launchChromium()
const page = await browser.newPage()
// A new session lands on the dashboard: it opens Orders as soon as the menu is there.
const cold = await coldStart(page, userDataDir)
const { host } = cold

// Through the bridge, as the page calls it: timed in the browser, from request to parsed result
// (after the start-up sync has run, so it does not share the core with the queries).
await afterStartupSync(host)
const inputs = queries.map((query) => ({
  page: query.page,
  take: query.take,
  sortBy: query.sortBy,
  sortDir: query.sortDir,
  ...(query.searchTerm ? { searchTerm: query.searchTerm } : {}),
  ...(query.statuses ? { statuses: query.statuses } : {}),
  ...(query.itemStatuses ? { itemStatuses: query.itemStatuses } : {}),
  ...(query.fromMs ? { fromDate: new Date(query.fromMs).toISOString(), toDate: new Date(query.toMs!).toISOString() } : {})
}))
/** `count` calls of `name` through the bridge, taking `inputs` in turn, as the page makes them: each timed from request to parsed result. */
const timedCalls = (name: string, inputs: unknown[], count: number) =>
  page.evaluate(
    async ({ name, inputs, count, token }) => {
      const times: number[] = []
      for (let i = 0; i < count; i++) {
        const started = performance.now()
        const response = await fetch(`/rpc/${name}`, {
          method: 'POST',
          headers: { 'x-preview-token': token, 'content-type': 'application/json' },
          body: JSON.stringify(inputs[i % inputs.length])
        })
        const outcome = (await response.json()) as { ok: boolean }
        if (!outcome.ok) throw new Error(`${name} failed`)
        times.push(performance.now() - started)
      }
      return times
    },
    { name, inputs, count, token: host.token }
  )
// The bridge's floor: a call that reads nothing, through the same page and bridge.
const floorTimes = await timedCalls('app.info', [{}], 200)
const bridgeTimes = await timedCalls('orders.list', inputs, 200)

await browser.close()
await host.close()
await account.forget()
await market.stop()

console.log(
  `\nOffline snapshot benchmark: ${ORDERS.toLocaleString('en-US')} orders, ${SELL_REQUESTS.toLocaleString('en-US')} sell requests, take ${take}, concurrency ${concurrency}\n`
)
const ratio = (mode: FetchMode | 'sync') => `${(median(mode)! / fetchMedian).toFixed(2)}×`
const cpu = (mode: FetchMode | 'sync') => {
  const server = median(mode, (run) => run.serverCpuMs)
  return `CPU: app ${ms(median(mode, (run) => run.appCpuMs)!)}, marketplace ${server === null ? 'not measured' : ms(server)}`
}
report([
  ['plain fetch of all pages (median of 3)', ms(fetchMedian), cpu('discard')],
  ['plain fetch + JSON.parse, ÷ plain fetch', ratio('parse'), cpu('parse')],
  ['plain fetch + JSON.parse + wire check, ÷ plain fetch', ratio('check'), cpu('check')],
  ['plain fetch + JSON.parse + pages kept whole in SQLite, ÷ plain fetch', ratio('keep'), cpu('keep')],
  ['full sync into the snapshot (median of 3)', ms(syncMedian), cpu('sync')],
  ['full sync / plain fetch', ratio('sync'), 'budget ≤ 1.30×'],
  [
    'incremental after 50 orders changed: order pages',
    String(incremental.pagesFetched.orders),
    `budget ≤ ${Math.ceil(inWindow / take) + 1}: the ${inWindow} orders changed since the last sync's start less its margin${orderTimesReadRight === true ? '' : ' and 12 h'}, ${take} a page, and one count`
  ],
  ['order list query p95, core', ms(percentile(coreTimes, 95)), 'budget ≤ 20 ms'],
  ['sell request list query p95, core', ms(percentile(sellTimes, 95)), ''],
  ['order list query p95, through the bridge', ms(percentile(bridgeTimes, 95)), 'budget ≤ 30 ms'],
  ['  floor: a call that reads nothing (app.info) p95, same bridge', ms(percentile(floorTimes, 95)), `p50 ${ms(percentile(floorTimes, 50))}`],
  ['cold start to first cached order row', ms(cold.coldStartMs), 'budget ≤ 1500 ms'],
  ['  of which the host (snapshot, keychain) ready', ms(cold.hostReadyMs), '']
])
console.log(`\norder queries p95 each: ${perQuery.map((times) => ms(percentile(times, 95))).join(', ')}`)
console.log(
  `through the bridge, each: ${inputs
    .map((_, at) =>
      ms(
        percentile(
          bridgeTimes.filter((_, i) => i % inputs.length === at),
          95
        )
      )
    )
    .join(', ')}`
)
console.log(`raw: fetch ${fetchTimes.map(ms).join(', ')}; sync ${syncTimes.map(ms).join(', ')}`)
