/**
 * Bulk edit, measured: `npx tsx bench/bulkApply.bench.ts`. The marketplace runs in its own process on
 * loopback (so it does not share a core with the app side); the snapshot is a real SQLite file.
 *
 * - apply 1,000 changes with 20 ms latency per request, against the floor 1,000 × 20 ms / concurrency
 *   and against the same PATCHes sent with plain fetch and with Node's http alone, at the same
 *   concurrency (what the machine allows: the marketplace process shares its cores).
 *   The apply runs as in the app: the workspace is reopened with the app's sync settings (the first
 *   sync of 50,000 listings uses pages of 1,000 to save setup time), the app's concurrency, and the
 *   refresh sync before the first PATCH counted in the time.
 * - stage + validate a 10,000-cell paste (budget 500 ms)
 * - import a 50,000-row CSV into the change set (budget 2 s)
 */
import { mkdtempSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DEFAULT_APPLY_CONCURRENCY } from '../electron/core/bulkEdit/applyRun'
import type { AppSettings } from '../electron/shared/contract'
import { createSellerApi } from '../electron/core/sellerApi'
import { openWorkspace } from '../electron/core/workspace'
import { startMarketplaceProcess } from './marketplaceProcess'
import { ms, report } from './stats'

const LISTINGS = Number(process.env['BENCH_SELL_REQUESTS'] ?? 50_000)
const APPLY = 1_000
const LATENCY_MS = 20

const market = await startMarketplaceProcess(10, LISTINGS)
const userDataDir = mkdtempSync(join(tmpdir(), 'seller-desk-bench-bulk-'))
const open = (syncEngine?: { take: number }) =>
  openWorkspace({
    userDataDir,
    account: { demo: false, baseUrl: market.baseUrl, sellerId: 'bench' },
    api: createSellerApi({ baseUrl: market.baseUrl, apiKey: market.apiKey }),
    settings: () => ({ syncIntervalMinutes: 60, historyDays: 30, notifyNewOrders: false }) as AppSettings,
    emit: () => {},
    ...(syncEngine ? { syncEngine } : {})
  })
let workspace = open({ take: 1000 })
await workspace.sync.sync()
const listings = workspace.snapshot.dump().sellRequests
console.log(`${listings.length} listings synced\n`)

// Stage + validate a 10,000-cell paste (5,000 listings × price and quantity), warm once first.
const paste = listings.slice(0, 5_000).flatMap((row) => [{ sellRequestId: row.id, priceCents: row.priceCents + 7, quantity: row.quantity + 1 }])
workspace.bulk.stage(paste)
await workspace.bulk.discard()
let started = performance.now()
const staged = workspace.bulk.stage(paste)
const stageMs = performance.now() - started
await workspace.bulk.discard()

// Import a 50,000-row CSV.
const csv = `id,price,quantity\n${listings.map((row) => `${row.id},${((row.priceCents + 1) / 100).toFixed(2)},${row.quantity}`).join('\n')}\n`
started = performance.now()
const imported = await workspace.bulk.importFile('bench.csv', new TextEncoder().encode(csv))
const importMs = performance.now() - started
await workspace.bulk.discard()

// Apply 1,000 quantity changes through the queue with 20 ms per request, in a workspace set up as the app's.
await workspace.close()
workspace = open()
workspace.bulk.operation({ ids: listings.slice(0, APPLY).map((row) => row.id) }, { kind: 'adjustQuantity', delta: 1 })
await market.command(`latency ${LATENCY_MS}`)

/**
 * The same number of PATCHes with no app around them, same concurrency: what this machine allows (the
 * marketplace shares its two cores). `send` is the global fetch, or Node's http with nothing on top.
 */
async function barePatches(ids: string[], send: (url: string, body: string) => Promise<unknown>): Promise<number> {
  const begun = performance.now()
  let next = 0
  await Promise.all(
    Array.from({ length: DEFAULT_APPLY_CONCURRENCY }, async () => {
      while (next < ids.length) await send(`${market.baseUrl}/v1/sell-requests/${ids[next++]!}`, JSON.stringify({ quantity: 1 }))
    })
  )
  return performance.now() - begun
}
const headers = { 'x-api-key': market.apiKey, 'content-type': 'application/json' }
const viaFetch = async (url: string, body: string) => (await fetch(url, { method: 'PATCH', headers, body })).arrayBuffer()
const agent = new Agent({ keepAlive: true })
const viaHttp = (url: string, body: string) =>
  new Promise<void>((resolve, reject) => {
    const sent = request(url, { method: 'PATCH', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } }, (answer) => {
      answer.resume()
      answer.on('end', resolve).on('error', reject)
    })
    sent.on('error', reject)
    sent.end(body)
  })
// The catch-up alone, as the apply starts with one (nothing changed since: one page of sell requests).
started = performance.now()
await workspace.sync.catchUpSellRequests()
const refreshMs = performance.now() - started
started = performance.now()
await workspace.bulk.apply(true)
await workspace.bulk.whenIdle()
const applyMs = performance.now() - started
const batch = workspace.bulk.history(1)[0]!
// After the apply, so its refresh does not have to fetch these 1,000 listings changed "elsewhere".
const plainMs = await barePatches(
  listings.slice(APPLY, 2 * APPLY).map((row) => row.id),
  viaFetch
)
const httpMs = await barePatches(
  listings.slice(2 * APPLY, 3 * APPLY).map((row) => row.id),
  viaHttp
)
const floorMs = (APPLY * LATENCY_MS) / DEFAULT_APPLY_CONCURRENCY

report([
  [`stage + validate ${staged.changes.toLocaleString('en-US')} cells`, ms(stageMs), 'budget 500 ms'],
  [
    `import ${imported.rows.toLocaleString('en-US')}-row CSV (${imported.staged.toLocaleString('en-US')} staged, ${(csv.length / 1e6).toFixed(1)} MB)`,
    ms(importMs),
    'budget 2,000 ms'
  ],
  [
    `apply ${batch.applied.toLocaleString('en-US')} changes, ${LATENCY_MS} ms latency, ${DEFAULT_APPLY_CONCURRENCY} at a time`,
    ms(applyMs),
    `floor ${ms(floorMs)} (×${(applyMs / floorMs).toFixed(2)})`
  ],
  [`  of which the refresh sync before the first PATCH (alone)`, ms(refreshMs), ''],
  [`same number of PATCHes, plain fetch, ${DEFAULT_APPLY_CONCURRENCY} at a time`, ms(plainMs), `(×${(plainMs / floorMs).toFixed(2)} of the floor)`],
  [`same number of PATCHes, Node http alone, ${DEFAULT_APPLY_CONCURRENCY} at a time`, ms(httpMs), `(×${(httpMs / floorMs).toFixed(2)} of the floor)`]
])

await workspace.close()
await market.stop()
