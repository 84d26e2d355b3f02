/**
 * How soon the core's worker answers after it is started, for a returning seller (a synced snapshot, the
 * key in the keychain): `npx electron-vite build && sh scripts/with-keyring.sh npx tsx bench/workerStart.bench.ts`.
 *
 * Each run starts a core host on a fresh copy of the user data and times its first answer (`app.info`:
 * the worker loaded and the core started), the session restored (`session.get`) and the first page of
 * orders (`orders.list`). Two workers, interleaved run by run: the one the app ships (out/main, as
 * electron-vite builds it) and the one bundled from source (the preview run by tsx, the tests). The floor,
 * in the same runs: a worker thread of one line that posts a message, from its start to that message
 * (what any worker costs before it loads anything).
 */
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import { chooseSecretStore } from '../electron/core/secrets/chooseSecretStore'
import { builtCoreWorkerFile, sourceWorkerFile, startCoreHost } from '../electron/worker/coreHost'
import { ms, percentile, report } from './stats'
import { BENCH_KEYCHAIN_SERVICE, syncedBenchAccount } from './syncedAccount'

const ORDERS = Number(process.env['BENCH_ORDERS'] ?? 20_000)
const SELL_REQUESTS = Number(process.env['BENCH_SELL_REQUESTS'] ?? 20_000)
const RUNS = Number(process.env['BENCH_RUNS'] ?? 7)

const synced = await syncedBenchAccount('worker', { orders: ORDERS, sellRequests: SELL_REQUESTS })
const secrets = await chooseSecretStore({ service: BENCH_KEYCHAIN_SERVICE })
const ways = { built: builtCoreWorkerFile(), source: sourceWorkerFile() }

async function floorRun(): Promise<number> {
  const started = performance.now()
  const worker = new Worker("require('node:worker_threads').parentPort.postMessage(1)", { eval: true })
  await new Promise((resolve) => worker.once('message', resolve))
  const took = performance.now() - started
  await worker.terminate()
  return took
}

const floors: number[] = []
const times = Object.fromEntries(Object.keys(ways).map((way) => [way, { first: [] as number[], session: [] as number[], orders: [] as number[] }]))
for (let run = 0; run < RUNS; run++) {
  floors.push(await floorRun())
  for (const [way, workerFile] of Object.entries(ways)) {
    const userDataDir = join(synced.work, `user-data-${run}-${way}`)
    const account = await synced.userData(userDataDir)
    await new Promise((resolve) => setTimeout(resolve, 300)) // the copy's writes settle
    const started = performance.now()
    const host = startCoreHost({
      userDataDir,
      secrets,
      workerFile,
      app: { name: 'Seller Desk', version: '0.0.0-bench', platform: process.platform, runtime: 'preview', dateLocale: 'en-US' },
      emit: () => undefined,
      autoSync: false
    })
    const answered = async (name: string, input: object) => {
      const outcome = await host.router.dispatch(name, input)
      if (!outcome.ok) throw new Error(`${name}: ${outcome.error.message}`)
      return performance.now() - started
    }
    // One after the other, as the window asks: the workspace's calls are answered once the session is known.
    const first = await answered('app.info', {})
    const session = await answered('session.get', {})
    const orders = await answered('orders.list', { take: 25 })
    times[way]!.first.push(first)
    times[way]!.session.push(session)
    times[way]!.orders.push(orders)
    await host.dispose()
    await account.forget()
  }
}
await synced.market.stop()

const floor = percentile(floors, 50)
console.log(`\nCore worker start: ${ORDERS.toLocaleString('en-US')} orders, ${SELL_REQUESTS.toLocaleString('en-US')} sell requests, ${RUNS} runs\n`)
report([
  ['floor: a one-line worker thread, start → its first message, median', ms(floor), ''],
  ...Object.entries(times).flatMap(([way, t]): [string, string, string][] => [
    [`${way}: first answer (app.info), median`, ms(percentile(t.first, 50)), `÷ floor ${(percentile(t.first, 50) / floor).toFixed(2)}×`],
    [`${way}: session restored (session.get), median`, ms(percentile(t.session, 50)), ''],
    [`${way}: first page of orders (orders.list), median`, ms(percentile(t.orders, 50)), '']
  ])
])
console.log(`\nraw, floor: ${floors.map(ms).join(', ')}`)
for (const [way, t] of Object.entries(times)) console.log(`raw, ${way}, first page of orders: ${t.orders.map(ms).join(', ')}`)
