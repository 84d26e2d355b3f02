/**
 * Bulk edit opened → first rows visible, with 100,000 sell requests in the snapshot, in the browser
 * preview: `npx electron-vite build && sh scripts/with-keyring.sh npx tsx bench/gridFirstRows.bench.ts`
 * (BENCH_SELL_REQUESTS, BENCH_RUNS to change the size and the runs).
 *
 * Each run loads the page afresh (nothing read yet) on the dashboard, then:
 * - floor: a click on Orders → its first row painted (a view opened, one read of the snapshot, rows
 *   drawn), in the same run and the same page;
 * - first rows: a click on Bulk edit → the grid's first row painted;
 * - every row: the same click → the last page of listings in the grid (the loading note gone).
 * Times from the click's own time stamp to the frame that shows it; medians of the runs. Budget (issue
 * 12): first rows ≤ 1.0 s.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startPreviewHost } from '../electron/preview/host'
import { startMarketplaceProcess } from './marketplaceProcess'
import { poll, timeTo } from './pageTiming'
import { afterStartupSync, launchChromium } from './previewRun'
import { ms, percentile, report } from './stats'
import { BENCH_KEYCHAIN_SERVICE, fullySyncedSnapshot, prepareSyncedAccount } from './syncedAccount'

const LISTINGS = Number(process.env['BENCH_SELL_REQUESTS'] ?? 100_000)
const ORDERS = 200
const RUNS = Number(process.env['BENCH_RUNS'] ?? 3)
const BUDGET_MS = 1_000

const market = await startMarketplaceProcess(ORDERS, LISTINGS)
const work = mkdtempSync(join(tmpdir(), 'seller-desk-bench-first-rows-'))
const snapshotFile = await fullySyncedSnapshot(market, work)
const userDataDir = join(work, 'user-data')
const account = await prepareSyncedAccount({ userDataDir, snapshotFile, baseUrl: market.baseUrl, apiKey: market.apiKey })
const host = await startPreviewHost({ userDataDir, keychainService: BENCH_KEYCHAIN_SERVICE })
const browser = await launchChromium()
const page = await (await browser.newContext({ viewport: { width: 1360, height: 860 } })).newPage()

const FIRST_ROW = `document.querySelector('revogr-data[type="rgRow"][col-type="colPinStart"] .rgCell[data-rgrow="0"]')?.textContent?.trim()`
const ORDER_ROW = `document.querySelector('[data-testid="order-row"]')`
const LOADING = `document.querySelector('[data-testid="bulk-load-progress"]')`

const floors: number[] = []
const firstRows: number[] = []
const everyRow: number[] = []
for (let run = 0; run < RUNS; run++) {
  await page.goto('about:blank') // a new document each run: nothing of the grid's read kept
  await page.goto(host.url)
  await page.getByTestId('nav-bulkEdit').waitFor()
  if (run === 0) await afterStartupSync(host)
  await page.waitForTimeout(500) // the dashboard's own reads are over

  const floor = await timeTo(page, 'pointerdown', `!!${ORDER_ROW}`, () => page.getByTestId('nav-orders').click(), 'the first order row')
  floors.push(floor.ms)
  await page.waitForTimeout(300)

  const opened = await timeTo(page, 'pointerdown', `!!${FIRST_ROW}`, () => page.getByTestId('nav-bulkEdit').click(), 'the first grid row', {
    every: `!!(${FIRST_ROW}) && !${LOADING}`
  })
  firstRows.push(opened.ms)
  everyRow.push(opened.more['every']!)
  const rowCount = await poll<string>(page, `document.querySelector('revo-grid')?.getAttribute('aria-rowcount') ?? null`, 'the grid')
  if (Number(rowCount) !== LISTINGS) throw new Error(`the grid has ${rowCount} rows, expected ${LISTINGS}`)
  console.log(`run ${run + 1}: floor ${ms(floor.ms)}, first rows ${ms(opened.ms)}, every row ${ms(opened.more['every']!)}`)
  // The app opens on the view it was left on: leave it on the dashboard, so the next run starts there.
  await page.getByTestId('nav-dashboard').click()
  await page.waitForTimeout(1_000)
}

const median = (values: number[]) => percentile(values, 50)
console.log(`\nBulk edit opened → first rows visible, ${LISTINGS.toLocaleString('en-US')} listings, browser preview, median of ${RUNS} runs\n`)
report([
  ['floor: Orders opened → first order row', ms(median(floors)), 'same runs, same page'],
  [
    'Bulk edit opened → first rows visible',
    ms(median(firstRows)),
    `budget ≤ ${ms(BUDGET_MS)} ${median(firstRows) <= BUDGET_MS ? '(within)' : '(OVER)'}; ${(median(firstRows) / median(floors)).toFixed(1)}× the floor`
  ],
  ['Bulk edit opened → every row in the grid', ms(median(everyRow)), '']
])
console.log(`\nraw: floor ${floors.map(ms).join(', ')}; first rows ${firstRows.map(ms).join(', ')}; every row ${everyRow.map(ms).join(', ')}`)

await browser.close()
await host.close()
await account.forget()
await market.stop()
