/**
 * A full sync against plain fetch of the same pages, on loopback and with latency on every answer:
 * `npx tsx bench/syncRatio.bench.ts`. Sizes: 20,000 orders and 20,000 sell requests (BENCH_ORDERS,
 * BENCH_SELL_REQUESTS); two marketplaces, each in its own process, one answering at once and one
 * after 50 ms (BENCH_LATENCY, the sandbox's `--latency`).
 *
 * Per marketplace, 3 rounds (BENCH_ROUNDS), each round back to back:
 * - plain fetch: every page of both lists with the global fetch at the sync's take and concurrency, the
 *   body read and dropped (the floor); and the same with JSON.parse of each page;
 * - a full sync of the app's engine into a fresh snapshot file, which must then hold every row.
 * Ratios are per round (sync / floor of the same round), then the median. Each run's CPU is reported
 * for the app (split by thread where /proc tells it) and the marketplace; both over the machine's cores
 * is the least time the sync could take here however well its work overlaps.
 * Budgets (issue 12): loopback ≤ 2.0× plain fetch; with 50 ms latency ≤ 1.1×.
 *
 * The app runs a sync in its core worker, whose young generation is CORE_YOUNG_GENERATION_MB (V8 makes it
 * of three semi-spaces). The bench runs the engine on its own main thread, so it starts itself again with
 * semi-spaces of the same size: V8's default (semi-spaces growing to many times that) would leave out
 * collector work the app does. BENCH_SEMI_SPACE_MB sets another size, to weigh a change of it.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { createSellerApi } from '../electron/core/sellerApi'
import { openSnapshot } from '../electron/core/snapshot/snapshot'
import { createSyncEngine } from '../electron/core/sync/syncEngine'
import { CORE_YOUNG_GENERATION_MB } from '../electron/worker/coreHost'
import { startMarketplaceProcess, type MarketplaceProcess } from './marketplaceProcess'
import { plainFetchAll } from './plainFetch'
import { ms, percentile, report } from './stats'
import { BENCH_SYNC_SETTINGS } from './syncedAccount'

const SEMI_SPACE_MB = Number(process.env['BENCH_SEMI_SPACE_MB'] ?? Math.max(1, Math.round(CORE_YOUNG_GENERATION_MB / 3)))
if (!process.execArgv.some((flag) => flag.startsWith('--max-semi-space-size'))) {
  const again = spawnSync(process.execPath, [...process.execArgv, `--max-semi-space-size=${SEMI_SPACE_MB}`, ...process.argv.slice(1)], { stdio: 'inherit' })
  process.exit(again.status ?? 1)
}

const ORDERS = Number(process.env['BENCH_ORDERS'] ?? 20_000)
const SELL_REQUESTS = Number(process.env['BENCH_SELL_REQUESTS'] ?? 20_000)
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3)
const LATENCY_MS = Number(process.env['BENCH_LATENCY'] ?? 50)
const settings = BENCH_SYNC_SETTINGS
const { take, concurrency } = settings

interface Market {
  name: string
  latencyMs: number
  budget: number
  process: MarketplaceProcess
}
const markets: Market[] = [
  { name: 'loopback', latencyMs: 0, budget: 2.0, process: await startMarketplaceProcess(ORDERS, SELL_REQUESTS) },
  { name: `${LATENCY_MS} ms latency`, latencyMs: LATENCY_MS, budget: 1.1, process: await startMarketplaceProcess(ORDERS, SELL_REQUESTS, LATENCY_MS) }
]
const work = mkdtempSync(join(tmpdir(), 'seller-desk-bench-sync-ratio-'))

const plainFetch = (market: Market, parse: boolean) =>
  plainFetchAll(market.process, { orders: ORDERS, sellRequests: SELL_REQUESTS }, { take, concurrency, parse })

/** CPU time each of this process's threads has used so far, in ms, by thread id (Linux: /proc); empty elsewhere. */
function threadCpuMs(): Map<string, number> {
  const used = new Map<string, number>()
  try {
    for (const thread of readdirSync('/proc/self/task')) {
      try {
        used.set(thread, Number(readFileSync(`/proc/self/task/${thread}/schedstat`, 'utf8').split(' ')[0]) / 1e6)
      } catch {
        // The thread ended meanwhile.
      }
    }
  } catch {
    // No /proc: the split is not reported.
  }
  return used
}

interface Timed {
  wallMs: number
  appCpuMs: number
  marketCpuMs: number | null
  /**
   * The app's CPU by thread, where /proc tells it: the thread that runs the engine (the core's, in the
   * app), the busiest other one (the snapshot's thread during a sync) and the rest (V8's collector and
   * compiler helpers, libuv's pool).
   */
  threads: { core: number; busiestOther: number; rest: number } | null
}
async function timed(market: Market, task: () => Promise<unknown>): Promise<Timed> {
  const cpu = process.cpuUsage()
  const marketCpu = market.process.cpuMs()
  const threadsBefore = threadCpuMs()
  const started = performance.now()
  await task()
  const wallMs = performance.now() - started
  const used = process.cpuUsage(cpu)
  const marketAfter = market.process.cpuMs()
  const byThread = [...threadCpuMs()].map(([thread, ms]) => [thread, ms - (threadsBefore.get(thread) ?? 0)] as const)
  const core = byThread.find(([thread]) => thread === String(process.pid))?.[1]
  const others = byThread
    .filter(([thread]) => thread !== String(process.pid))
    .map(([, ms]) => ms)
    .sort((a, b) => b - a)
  return {
    wallMs,
    appCpuMs: (used.user + used.system) / 1000,
    marketCpuMs: marketCpu === null || marketAfter === null ? null : marketAfter - marketCpu,
    threads: core === undefined ? null : { core, busiestOther: others[0] ?? 0, rest: others.slice(1).reduce((sum, ms) => sum + ms, 0) }
  }
}

let files = 0
async function fullSync(market: Market): Promise<Timed> {
  const snapshot = openSnapshot(join(work, `${files++}.sqlite`))
  try {
    const api = createSellerApi({ baseUrl: market.process.baseUrl, apiKey: market.process.apiKey })
    const run = await timed(market, () => createSyncEngine({ api, snapshot, settings }).run('full', new AbortController().signal))
    if (snapshot.count('orders') !== ORDERS || snapshot.count('sellRequests') !== SELL_REQUESTS) {
      throw new Error(`${market.name}: the sync holds ${snapshot.count('orders')} orders and ${snapshot.count('sellRequests')} sell requests`)
    }
    return run
  } finally {
    snapshot.close()
  }
}

const results = new Map(markets.map((market) => [market, { fetch: [] as Timed[], parse: [] as Timed[], sync: [] as Timed[] }]))
for (const market of markets) {
  // Warm-up: JIT, connection pools, the marketplace's list caches.
  await plainFetch(market, true)
  await fullSync(market)
  for (let round = 0; round < ROUNDS; round++) {
    const of = results.get(market)!
    of.fetch.push(await timed(market, () => plainFetch(market, false)))
    of.parse.push(await timed(market, () => plainFetch(market, true)))
    of.sync.push(await fullSync(market))
  }
}
await Promise.all(markets.map((market) => market.process.stop()))
rmSync(work, { recursive: true, force: true })

const median = (values: number[]) => percentile(values, 50)
console.log(
  `\nFull sync against plain fetch: ${ORDERS.toLocaleString('en-US')} orders + ${SELL_REQUESTS.toLocaleString('en-US')} sell requests, take ${take}, concurrency ${concurrency}, medians of ${ROUNDS} rounds; semi-spaces of ${SEMI_SPACE_MB} MB (the app's core worker: ${CORE_YOUNG_GENERATION_MB} MB young generation)\n`
)
report(
  markets.flatMap((market): [string, string, string][] => {
    const { fetch, parse, sync } = results.get(market)!
    const ratio = median(sync.map((run, round) => run.wallMs / fetch[round]!.wallMs))
    const of = (runs: Timed[], value: (run: Timed) => number | null | undefined) => {
      const values = runs.map(value)
      return values.every((v): v is number => typeof v === 'number') ? median(values) : null
    }
    const cpu = (runs: Timed[]) => {
      const core = of(runs, (run) => run.threads?.core)
      const market = of(runs, (run) => run.marketCpuMs)
      const split =
        core === null
          ? ''
          : ` (engine's thread ${ms(core)}, busiest other ${ms(of(runs, (run) => run.threads?.busiestOther)!)}, rest ${ms(of(runs, (run) => run.threads?.rest)!)})`
      return `CPU: app ${ms(median(runs.map((run) => run.appCpuMs)))}${split}${market === null ? '' : `; marketplace ${ms(market)}`}`
    }
    // The CPU both processes used, spread perfectly over every core: no overlap of the sync's work and
    // the marketplace's can make the sync faster than this on this machine.
    const cores = availableParallelism()
    const leastMs = of(sync, (run) => (run.marketCpuMs === null ? null : (run.appCpuMs + run.marketCpuMs) / cores))
    const leastRatio = of(sync, (run) => (run.marketCpuMs === null ? null : (run.appCpuMs + run.marketCpuMs) / cores / fetch[sync.indexOf(run)]!.wallMs))
    return [
      [`${market.name}: plain fetch (floor)`, ms(median(fetch.map((run) => run.wallMs))), cpu(fetch)],
      [`${market.name}: plain fetch + JSON.parse`, ms(median(parse.map((run) => run.wallMs))), cpu(parse)],
      [`${market.name}: full sync`, ms(median(sync.map((run) => run.wallMs))), cpu(sync)],
      ...(leastMs === null || leastRatio === null
        ? []
        : [
            [
              `${market.name}: the sync's CPU spread over ${cores} cores`,
              ms(leastMs),
              `(app + marketplace CPU) ÷ ${cores}: the least time it could take here, ${leastRatio.toFixed(2)}× the floor`
            ] as [string, string, string]
          ]),
      [
        `${market.name}: full sync / plain fetch`,
        `${ratio.toFixed(2)}×`,
        `budget ≤ ${market.budget.toFixed(1)}× ${ratio <= market.budget ? '(within)' : '(OVER)'}`
      ]
    ]
  })
)
for (const market of markets) {
  const { fetch, sync } = results.get(market)!
  console.log(`raw ${market.name}: floor ${fetch.map((run) => ms(run.wallMs)).join(', ')}; sync ${sync.map((run) => ms(run.wallMs)).join(', ')}`)
}
