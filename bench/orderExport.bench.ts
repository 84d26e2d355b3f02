/**
 * Exporting orders, measured in the core's thread: `npx tsx bench/orderExport.bench.ts` (BENCH_ORDERS,
 * 20,000 by default). A workspace opens a snapshot after a full sync of that many orders and exports them
 * all, as the Orders list's export does, while a ticker in the same thread (a short timer: see timed)
 * records the longest time between two of its turns: how long a list query or a sync's page arriving
 * meanwhile would wait, as the calls waiting on the core are answered between turns.
 *
 * - the Excel workbook (.xlsx) export: total time and longest stall, median of 3 runs
 * - floors measured in the same run: the CSV export of the same orders, and deflating the workbook's
 *   own bytes (its unzipped parts) at once, the compression no writer of the same file avoids
 * - each writer's own time: the same orders, read beforehand, written a part of 100 at a time
 */
import { cpSync, mkdirSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { deflateRawSync, inflateRawSync } from 'node:zlib'
import type { AppSettings } from '../electron/shared/contract'
import { createSellerApi } from '../electron/core/sellerApi'
import { snapshotFileFor } from '../electron/core/snapshot/snapshot'
import { openWorkspace } from '../electron/core/workspace'
import { ordersCsvWriter } from '../electron/core/orderExport/orderCsv'
import { ordersWorkbookWriter } from '../electron/core/orderExport/orderWorkbook'
import { ms, percentile, report } from './stats'
import { BENCH_SYNC_SETTINGS, syncedBenchAccount } from './syncedAccount'

const ORDERS = Number(process.env['BENCH_ORDERS'] ?? 20_000)
const RUNS = 3
const QUERY = { timeZone: 'America/New_York', sortBy: 'date', sortDir: 'DESC' } as const

const bench = await syncedBenchAccount('order-export', { orders: ORDERS, sellRequests: 10 })
const userDataDir = join(bench.work, 'user-data')
const account = { demo: false, baseUrl: bench.market.baseUrl, sellerId: 'seller-bench' }
const snapshotFile = snapshotFileFor(userDataDir, account)
mkdirSync(dirname(snapshotFile), { recursive: true })
cpSync(join(bench.work, 'snapshot.sqlite'), snapshotFile)
const workspace = openWorkspace({
  userDataDir,
  account,
  api: createSellerApi({ baseUrl: bench.market.baseUrl, apiKey: bench.market.apiKey }),
  settings: () => ({ syncIntervalMinutes: 5, historyDays: BENCH_SYNC_SETTINGS.historyDays, notifyNewOrders: false }) as AppSettings,
  emit: () => {}
})

/**
 * `work` timed, with the longest gap between two turns of a ticker beside it in this thread: a timer of
 * 1 ms (a ticker of setImmediate would spin the thread while the work waits for zlib's pool, taking CPU
 * from it), so a gap is the stall plus at most a millisecond or so of the timer's own.
 */
async function timed<T>(work: () => Promise<T>): Promise<{ totalMs: number; stallMs: number; turns: number; result: T }> {
  let running = true
  let last = performance.now()
  let stallMs = 0
  let turns = 0
  const tick = () => {
    const now = performance.now()
    stallMs = Math.max(stallMs, now - last)
    last = now
    turns++
    if (running) setTimeout(tick, 1)
  }
  const start = performance.now()
  last = start
  setTimeout(tick, 1)
  const result = await work()
  const totalMs = performance.now() - start
  running = false
  stallMs = Math.max(stallMs, performance.now() - last)
  await new Promise((resolve) => setTimeout(resolve, 2))
  return { totalMs, stallMs, turns, result }
}

/** The files of a zip (no comment, no zip64), inflated: found by its central directory, as a reader finds them. */
function unzipped(zip: Buffer): Buffer[] {
  const end = zip.length - 22
  const files: Buffer[] = []
  for (let i = 0, at = zip.readUInt32LE(end + 16); i < zip.readUInt16LE(end + 10); i++) {
    const size = zip.readUInt32LE(at + 20)
    const local = zip.readUInt32LE(at + 42)
    const data = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28)
    files.push(inflateRawSync(zip.subarray(data, data + size)))
    at += 46 + zip.readUInt16LE(at + 28) + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32)
  }
  return files
}

const median = (values: number[]) => percentile(values, 50)

/** The orders of the export, read once: the writers' own time, without reading the snapshot or taking turns. */
const orders = workspace.snapshot.ordersWithIds(workspace.snapshot.orderIds({ sortBy: QUERY.sortBy, sortDir: QUERY.sortDir }))
const PART = 100
async function writeXlsxAlone(): Promise<void> {
  const writer = ordersWorkbookWriter(QUERY.timeZone)
  for (let from = 0; from < orders.length; from += PART) await writer.add(orders.slice(from, from + PART))
  await writer.done('orders')
}
async function writeCsvAlone(): Promise<void> {
  const writer = ordersCsvWriter(QUERY.timeZone)
  for (let from = 0; from < orders.length; from += PART) writer.add(orders.slice(from, from + PART))
  writer.done()
}

const xlsx: { totalMs: number; stallMs: number; turns: number }[] = []
const csv: { totalMs: number; stallMs: number }[] = []
const deflate: number[] = []
const xlsxAlone: number[] = []
const csvAlone: number[] = []
let bytes = 0
let exported = 0
for (let run = 0; run < RUNS; run++) {
  const book = await timed(() => workspace.exportOrdersXlsx(QUERY))
  xlsx.push(book)
  exported = book.result.orders
  const file = Buffer.from(book.result.base64, 'base64')
  bytes = file.length
  csv.push(await timed(() => workspace.exportOrdersCsv(QUERY)))
  const parts = unzipped(file)
  const start = performance.now()
  for (const part of parts) deflateRawSync(part)
  deflate.push(performance.now() - start)
  xlsxAlone.push((await timed(writeXlsxAlone)).totalMs)
  csvAlone.push((await timed(writeCsvAlone)).totalMs)
}

console.log(`${exported.toLocaleString('en')} orders exported, workbook ${(bytes / 1e6).toFixed(1)} MB; median of ${RUNS} runs`)
report([
  ['xlsx export: total', ms(median(xlsx.map((run) => run.totalMs))), ''],
  ['xlsx export: longest stall', ms(median(xlsx.map((run) => run.stallMs))), `${median(xlsx.map((run) => run.turns))} turns`],
  ['floor: csv export: total', ms(median(csv.map((run) => run.totalMs))), ''],
  ['floor: csv export: longest stall', ms(median(csv.map((run) => run.stallMs))), ''],
  ['floor: deflate the workbook’s parts at once', ms(median(deflate)), ''],
  ['writer alone (orders read): xlsx', ms(median(xlsxAlone)), ''],
  ['writer alone (orders read): csv', ms(median(csvAlone)), '']
])

await workspace.close()
await bench.market.stop()
rmSync(bench.work, { recursive: true, force: true })
