/**
 * A full sync against a marketplace that caps pages at 50 rows (the app asks for 100), against one that
 * does not, each relative to plain fetch of the pages that server serves:
 * `sh scripts/with-keyring.sh npx tsx bench/cappedSync.bench.ts`. Sizes: 20,000 orders and 20,000 sell
 * requests; each marketplace runs in its own process on loopback.
 *
 * For each marketplace, 7 rounds (BENCH_ROUNDS), interleaved (the order of the two flips every round):
 * - plain fetch floor: every page of both lists with the global fetch, at the sync's concurrency and
 *   the page size the server actually serves (100 uncapped, 50 capped), JSON.parse each, nothing else;
 * - full sync of the app's engine (DEFAULT_SYNC_SETTINGS, a history window that takes every order) into
 *   a fresh snapshot file, which must then hold every row: a fast incomplete sync is not a result.
 *
 * Budget: (capped sync / capped floor) ÷ (uncapped sync / uncapped floor) ≤ 1.2, medians.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createSellerApi } from '../electron/core/sellerApi'
import { openSnapshot } from '../electron/core/snapshot/snapshot'
import { createSyncEngine, DEFAULT_SYNC_SETTINGS, type SyncReport } from '../electron/core/sync/syncEngine'
import { startMarketplaceProcess, type MarketplaceProcess } from './marketplaceProcess'
import { ms, percentile, report } from './stats'

const ORDERS = Number(process.env['BENCH_ORDERS'] ?? 20_000)
const SELL_REQUESTS = Number(process.env['BENCH_SELL_REQUESTS'] ?? 20_000)
/** Rounds per marketplace: a floor takes well under a second, so a few rounds more keep a busy machine's bursts out of the medians. */
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 7)
const CAP = 50
const BUDGET = 1.2
const settings = { ...DEFAULT_SYNC_SETTINGS, historyDays: 3650 }
const { take, concurrency } = settings

interface Market {
  name: 'uncapped' | 'capped'
  process: MarketplaceProcess
  /** Rows per page the server serves for the sync's `take`. */
  pageSize: number
}

const work = mkdtempSync(join(tmpdir(), 'seller-desk-bench-capped-'))
const uncapped: Market = { name: 'uncapped', process: await startMarketplaceProcess(ORDERS, SELL_REQUESTS), pageSize: take }
const capped: Market = { name: 'capped', process: await startMarketplaceProcess(ORDERS, SELL_REQUESTS), pageSize: CAP }
await capped.process.command(`variant ${JSON.stringify({ maxTake: CAP })}`)
const markets = [uncapped, capped]

const LISTS = [
  ['/v1/orders/seller', ORDERS],
  ['/v1/sell-requests', SELL_REQUESTS]
] as const

async function getJson(market: Market, path: string, page: number, pageTake: number): Promise<unknown> {
  const response = await fetch(`${market.process.baseUrl}${path}?page=${page}&take=${pageTake}&sortDir=DESC`, {
    headers: { 'x-api-key': market.process.apiKey }
  })
  if (!response.ok) throw new Error(`${market.name}: ${path} page ${page} answered ${response.status}`)
  return JSON.parse(await response.text())
}

// Each server pages as this bench assumes (a cap that did not take would compare two uncapped servers).
for (const market of markets) {
  const orders = (await getJson(market, '/v1/orders/seller', 1, take)) as { data: unknown[] }
  const sellRequests = (await getJson(market, '/v1/sell-requests', 1, take)) as { data: { data: unknown[] } }
  if (orders.data.length !== market.pageSize || sellRequests.data.data.length !== market.pageSize) {
    throw new Error(
      `${market.name}: asked for ${take} rows, got ${orders.data.length} orders and ${sellRequests.data.data.length} sell requests (expected ${market.pageSize})`
    )
  }
}

/** Every page of both lists with plain fetch, at the sync's concurrency and the served page size; each parsed. */
async function plainFetchAll(market: Market): Promise<number> {
  let pagesFetched = 0
  for (const [path, total] of LISTS) {
    const pages = Math.ceil(total / market.pageSize)
    let next = 1
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next <= pages) {
          await getJson(market, path, next++, market.pageSize)
          pagesFetched++
        }
      })
    )
  }
  return pagesFetched
}

interface Timed<T> {
  wallMs: number
  appCpuMs: number
  serverCpuMs: number | null
  value: T
}

async function timed<T>(market: Market, task: () => Promise<T>): Promise<Timed<T>> {
  const server = market.process.cpuMs()
  const cpu = process.cpuUsage()
  const started = performance.now()
  const value = await task()
  const wallMs = performance.now() - started
  const used = process.cpuUsage(cpu)
  const serverAfter = market.process.cpuMs()
  return { wallMs, appCpuMs: (used.user + used.system) / 1000, serverCpuMs: server === null || serverAfter === null ? null : serverAfter - server, value }
}

let files = 0
/** A full sync into a fresh snapshot file (opened before the clock starts), checked for every row. */
async function fullSync(market: Market): Promise<Timed<SyncReport>> {
  const snapshot = openSnapshot(join(work, `${market.name}-${files++}.sqlite`))
  try {
    const api = createSellerApi({ baseUrl: market.process.baseUrl, apiKey: market.process.apiKey })
    const run = await timed(market, () => createSyncEngine({ api, snapshot, settings }).run('full', new AbortController().signal))
    const { checks } = run.value
    const held = { orders: snapshot.count('orders'), sellRequests: snapshot.count('sellRequests') }
    if (
      checks.orders?.synced !== ORDERS ||
      checks.orders.total !== ORDERS ||
      held.orders !== ORDERS ||
      checks.sellRequests?.synced !== SELL_REQUESTS ||
      checks.sellRequests.total !== SELL_REQUESTS ||
      held.sellRequests !== SELL_REQUESTS
    ) {
      throw new Error(`${market.name}: the full sync is incomplete: checks ${JSON.stringify(checks)}, snapshot holds ${JSON.stringify(held)}`)
    }
    return run
  } finally {
    snapshot.close()
  }
}

// Warm up every path once per marketplace (JIT, connection pools, the servers' list caches).
for (const market of markets) {
  await plainFetchAll(market)
  await fullSync(market)
}

const floors = { uncapped: [] as Timed<number>[], capped: [] as Timed<number>[] }
const syncs = { uncapped: [] as Timed<SyncReport>[], capped: [] as Timed<SyncReport>[] }
for (let round = 0; round < ROUNDS; round++) {
  for (const market of round % 2 === 0 ? markets : [...markets].reverse()) {
    floors[market.name].push(await timed(market, () => plainFetchAll(market)))
    syncs[market.name].push(await fullSync(market))
  }
}

await Promise.all(markets.map((market) => market.process.stop()))
rmSync(work, { recursive: true, force: true })

const median = (runs: Timed<unknown>[], of: (run: Timed<unknown>) => number | null = (run) => run.wallMs): number | null => {
  const values = runs.map(of).filter((value): value is number => value !== null)
  return values.length ? percentile(values, 50) : null
}
const ratioOf = (name: Market['name']) => median(syncs[name])! / median(floors[name])!
const uncappedRatio = ratioOf('uncapped')
const cappedRatio = ratioOf('capped')
/** The same ratio taken round by round (a floor and a sync run back to back), then the median: less moved by load that drifts. */
const perRound = (name: Market['name']) => syncs[name].map((run, round) => run.wallMs / floors[name][round]!.wallMs)
const pairedRatio = percentile(
  perRound('capped').map((ratio, round) => ratio / perRound('uncapped')[round]!),
  50
)
/** And from each one's fastest run: what the work costs when nothing else competes for the cores. */
const fastest = (runs: Timed<unknown>[]) => Math.min(...runs.map((run) => run.wallMs))
const fastestRatio = fastest(syncs.capped) / fastest(floors.capped) / (fastest(syncs.uncapped) / fastest(floors.uncapped))
const cpu = (runs: Timed<unknown>[]) => {
  const server = median(runs, (run) => run.serverCpuMs)
  return `CPU: app ${ms(median(runs, (run) => run.appCpuMs)!)}, marketplace ${server === null ? 'not measured' : ms(server)}`
}
const syncPages = (name: Market['name']) => {
  const pages = syncs[name].map((run) => run.value.pagesFetched.orders + run.value.pagesFetched.sellRequests)
  return `${percentile(pages, 50)} pages (${Math.ceil(ORDERS / (name === 'capped' ? CAP : take)) + Math.ceil(SELL_REQUESTS / (name === 'capped' ? CAP : take))} in the floor)`
}

console.log(
  `\nCapped-page sync benchmark: ${ORDERS.toLocaleString('en-US')} orders, ${SELL_REQUESTS.toLocaleString('en-US')} sell requests, take ${take}, cap ${CAP}, concurrency ${concurrency}, medians of ${ROUNDS} interleaved rounds\n`
)
report([
  ['uncapped: plain fetch + JSON.parse, pages of 100', ms(median(floors.uncapped)!), cpu(floors.uncapped)],
  ['uncapped: full sync into a fresh snapshot', ms(median(syncs.uncapped)!), `${cpu(syncs.uncapped)}; ${syncPages('uncapped')}`],
  ['uncapped ratio: sync / floor', `${uncappedRatio.toFixed(2)}×`, ''],
  [`capped: plain fetch + JSON.parse, pages of ${CAP}`, ms(median(floors.capped)!), cpu(floors.capped)],
  ['capped: full sync into a fresh snapshot', ms(median(syncs.capped)!), `${cpu(syncs.capped)}; ${syncPages('capped')}`],
  ['capped ratio: sync / floor', `${cappedRatio.toFixed(2)}×`, ''],
  [
    'capped ratio / uncapped ratio',
    `${(cappedRatio / uncappedRatio).toFixed(2)}×`,
    `budget ≤ ${BUDGET.toFixed(2)}× ${cappedRatio / uncappedRatio <= BUDGET ? '(within)' : '(OVER)'}`
  ],
  ['  the same, round by round (median)', `${pairedRatio.toFixed(2)}×`, ''],
  ['  the same, from the fastest runs', `${fastestRatio.toFixed(2)}×`, '']
])
console.log(
  `\nevery sync complete: ${ORDERS.toLocaleString('en-US')} + ${SELL_REQUESTS.toLocaleString('en-US')} rows in each snapshot (engine checks and snapshot counts)`
)
for (const market of markets) {
  const rounds = syncs[market.name].map((run) => `${run.value.rounds.orders ?? 0}/${run.value.rounds.sellRequests ?? 0}`).join(', ')
  console.log(
    `raw ${market.name}: floor ${floors[market.name].map((run) => ms(run.wallMs)).join(', ')}; sync ${syncs[market.name].map((run) => ms(run.wallMs)).join(', ')}; passes per sync (orders/sell requests) ${rounds}`
  )
}
