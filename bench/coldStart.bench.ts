/**
 * Cold start of the browser preview alone, measured as bench/offlineSnapshot.bench.ts measures it but
 * without its slow full syncs: `npx electron-vite build && sh scripts/with-keyring.sh npx tsx bench/coldStart.bench.ts`.
 *
 * A returning seller's user data (20,000 orders and 20,000 sell requests in the snapshot, the key in the
 * keychain); each run starts a new preview host on a fresh copy of it and a new browser, then times
 * host start → page load → the dashboard (landing view) → a click on Orders → first cached order row
 * visible. The startup sync runs meanwhile, as it does for a seller.
 *
 * Two ways, interleaved run by run: the clock starts once the browser's own start is over (as an app's
 * window, which has no browser UI of its own to start; the budget's line), and right after the launch
 * (Chromium still starting its own parts on the same cores). The floor, also in a fresh browser
 * once settled: a page of one button served over loopback, from navigation to the button visible, then
 * a click on it and a line shown in answer (what the browser costs before the app does anything).
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { browserSettled, coldStart, launchChromium } from './previewRun'
import { ms, percentile, report } from './stats'
import { syncedBenchAccount } from './syncedAccount'

const ORDERS = Number(process.env['BENCH_ORDERS'] ?? 20_000)
const SELL_REQUESTS = Number(process.env['BENCH_SELL_REQUESTS'] ?? 20_000)
const RUNS = Number(process.env['BENCH_RUNS'] ?? 5)

const synced = await syncedBenchAccount('cold', { orders: ORDERS, sellRequests: SELL_REQUESTS })

// The floor's page: one button that shows a line when clicked.
const floorPage = createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
  response.end(
    "<!doctype html><button id=\"go\" onclick=\"document.body.append(Object.assign(document.createElement('p'), { id: 'row', textContent: 'row' }))\">Orders</button>"
  )
})
await new Promise<void>((resolve) => floorPage.listen(0, '127.0.0.1', resolve))
const floorUrl = `http://127.0.0.1:${(floorPage.address() as AddressInfo).port}/`

/** Runs whose browser was not quiet before the clock started (browserSettled gave up). */
let unsettled = 0

async function floorRun(): Promise<number> {
  const browser = await launchChromium()
  const page = await browser.newPage()
  if (!(await browserSettled())) unsettled++
  const started = performance.now()
  await page.goto(floorUrl)
  await page.locator('#go').click()
  await page.locator('#row').waitFor()
  const took = performance.now() - started
  await browser.close()
  return took
}

const floors: number[] = []
const coldStarts = { settled: [] as number[], launched: [] as number[] }
const hostReadies: number[] = []
const steps = { pageLoadedMs: [] as number[], menuShownMs: [] as number[], clickedMs: [] as number[] }
for (let run = 0; run < RUNS * 2; run++) {
  const way = run % 2 === 0 ? 'settled' : 'launched'
  if (way === 'settled') floors.push(await floorRun())
  // A fresh user-data folder each run: nothing remembered (the seller lands on the dashboard).
  const userDataDir = join(synced.work, `user-data-${run}`)
  const account = await synced.userData(userDataDir)
  const browser = await launchChromium()
  const page = await browser.newPage()
  if (way === 'settled' && !(await browserSettled())) unsettled++
  const { host, hostReadyMs, coldStartMs, steps: times } = await coldStart(page, userDataDir)
  hostReadies.push(hostReadyMs)
  if (way === 'settled') for (const step of ['pageLoadedMs', 'menuShownMs', 'clickedMs'] as const) steps[step].push(times[step])
  coldStarts[way].push(coldStartMs)
  await browser.close()
  await host.close()
  await account.forget()
}
await synced.market.stop()
floorPage.close()

console.log(
  `\nCold start of the browser preview: ${ORDERS.toLocaleString('en-US')} orders, ${SELL_REQUESTS.toLocaleString('en-US')} sell requests, ${RUNS} runs\n`
)
report([
  ['cold start to first cached order row, browser settled, median', ms(percentile(coldStarts.settled, 50)), 'budget ≤ 1500 ms'],
  ['  worst', ms(Math.max(...coldStarts.settled)), ''],
  [
    '  floor: a one-button page over loopback, load → click → line shown, median',
    ms(percentile(floors, 50)),
    `app ÷ floor ${(percentile(coldStarts.settled, 50) / percentile(floors, 50)).toFixed(2)}×`
  ],
  ["cold start right after the browser's launch, median", ms(percentile(coldStarts.launched, 50)), ''],
  ['  worst', ms(Math.max(...coldStarts.launched)), ''],
  ['  of which the host (snapshot, keychain) ready, median', ms(percentile(hostReadies, 50)), ''],
  ['  settled: the page loaded (its load event), median', ms(percentile(steps.pageLoadedMs, 50)), ''],
  ['  settled: the menu shown, median', ms(percentile(steps.menuShownMs, 50)), ''],
  ["  settled: the click on Orders done (Playwright's checks included), median", ms(percentile(steps.clickedMs, 50)), '']
])
if (unsettled > 0) console.log(`\n${unsettled} settled start(s) began with the browser still busy (not quiet within 10 s, or no /proc to tell)`)
console.log(`\nraw, floor: ${floors.map(ms).join(', ')}`)
console.log(`raw, settled: ${coldStarts.settled.map(ms).join(', ')}\nraw, right after launch: ${coldStarts.launched.map(ms).join(', ')}`)
