/**
 * The workspace, measured as a seller uses it, with 20,000 orders and 20,000 sell requests in the
 * snapshot: `npx electron-vite build && sh scripts/with-keyring.sh npx tsx bench/workspace.bench.ts`.
 *
 * - switching views: click in the menu → first row of the new view painted (a view mounted ahead, hidden,
 *   counts from when it is on screen)
 * - search: last keystroke → the rows of the whole term painted (typed at 30 ms per key, as a seller
 *   types, so the answers to earlier keystrokes may still be on their way)
 * - dashboard: computed in core
 *
 * Times are taken in the page: from the input event's own time stamp (the `pointerdown` of the click,
 * the `keydown` of the key; not from when Playwright started its actionability checks) to the first
 * task after the frame that shows the new rows (requestAnimationFrame, then a task), so layout and
 * paint are included.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { startPreviewHost } from '../electron/preview/host'
import { startMarketplaceProcess } from './marketplaceProcess'
import { afterStartupSync, launchChromium } from './previewRun'
import { ms, percentile, report } from './stats'
import { BENCH_KEYCHAIN_SERVICE, fullySyncedSnapshot, prepareSyncedAccount } from './syncedAccount'

const market = await startMarketplaceProcess(20_000, 20_000)
const work = mkdtempSync(join(tmpdir(), 'seller-desk-bench-workspace-'))
const snapshotFile = await fullySyncedSnapshot(market, work)

const userDataDir = join(work, 'user-data')
const account = await prepareSyncedAccount({ userDataDir, snapshotFile, baseUrl: market.baseUrl, apiKey: market.apiKey })
const host = await startPreviewHost({ userDataDir, keychainService: BENCH_KEYCHAIN_SERVICE })
const browser = await launchChromium()
const page = await browser.newPage({ viewport: { width: 1360, height: 860 } })
await page.goto(host.url)
await page.getByTestId('nav-orders').waitFor()
await afterStartupSync(host)

interface Expected {
  /** Digits the total must show, e.g. "1234" for "1,234 orders". */
  total: string
  /** Test id and text of an element in the first row. */
  firstRow: [testId: string, text: string]
}

/**
 * Milliseconds from the `inputEvent` that `action` causes to `rowTestId` rows painted with new
 * content: the `changed` element's text changed or, when `expected` is given, the total and the first
 * row are exactly those of the new result. Timed in the page (no test-runner round trips). The page
 * script is a string: tsx would add helpers to a function.
 */
async function timeToRows(
  target: Page,
  action: () => Promise<void>,
  inputEvent: 'pointerdown' | 'keydown',
  rowTestId: string,
  changed: string,
  expected?: Expected
): Promise<number> {
  await target.evaluate(`(() => {
    const expected = ${JSON.stringify(expected ?? null)}
    window.__done = undefined
    window.__input = undefined
    // Only what is on screen counts: sections the seller is not looking at stay mounted, hidden.
    // (The section's own display style, not checkVisibility(): that would force a style pass per check.)
    const visible = (selector) => [...document.querySelectorAll(selector)].filter((el) => el.closest('.section-pane')?.style.display !== 'none')
    const textOf = (selector) => visible(selector)[0]?.textContent ?? ''
    const before = textOf('[data-testid="${changed}"]')
    addEventListener('${inputEvent}', (event) => { window.__input = event.timeStamp }, { capture: true, once: true })
    let seen = false
    const observer = new MutationObserver(() => {
      const rows = visible('[data-testid="${rowTestId}"]')
      const now = textOf('[data-testid="${changed}"]')
      let ready = rows.length > 0 && now !== '' && (expected !== null || now !== before)
      if (ready && expected) {
        ready = now.replace(/[^0-9]/g, '') === expected.total &&
          rows[0].querySelector('[data-testid="' + expected.firstRow[0] + '"]')?.textContent === expected.firstRow[1]
      }
      if (!ready || seen || window.__input === undefined) return
      seen = true
      observer.disconnect()
      // Painted: the first task after the next frame.
      requestAnimationFrame(() => setTimeout(() => { window.__done = performance.now() }, 0))
    })
    observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['style', 'class'] })
  })()`)
  await action()
  // Polled from here: the app's CSP (rightly) refuses the eval a waitForFunction string would need.
  for (const started = Date.now(); Date.now() - started < 10_000; await new Promise((resolve) => setTimeout(resolve, 20))) {
    const elapsed = (await target.evaluate('window.__done === undefined ? null : window.__done - window.__input')) as number | null
    if (elapsed !== null) return elapsed
  }
  throw new Error(`no ${rowTestId} rows after 10 s`)
}

/** The total and first order of a search, as the core answers it (the list's default sort). */
async function ordersFor(term: string): Promise<Expected> {
  const outcome = await host.router.dispatch('orders.list', { searchTerm: term, page: 1, take: 25, sortBy: 'date', sortDir: 'DESC' })
  if (!outcome.ok) throw new Error(outcome.error.message)
  const { total, rows } = outcome.value as { total: number; rows: { orderNo: string }[] }
  return { total: String(total), firstRow: ['order-no', rows[0]?.orderNo ?? ''] }
}

const views = [
  ['nav-sellRequests', 'sell-request-row', 'sell-requests-total'],
  ['nav-orders', 'order-row', 'orders-total']
] as const
const switchTimes: number[] = []
for (let round = 0; round < 10; round++) {
  for (const [nav, row, total] of views) {
    switchTimes.push(await timeToRows(page, () => page.getByTestId(nav).click(), 'pointerdown', row, total))
  }
}

// Search: the time from the last keystroke to the rows of the whole term. Each term's last key changes
// the result, so rows that answer an earlier keystroke never count.
const searchTimes: number[] = []
const terms = ['iphone 15', 'galaxy s24', 'pixel 8', 'macbook air m2', 'pixel 7']
const expectedFor = new Map<string, Expected>()
for (const term of terms) {
  const [whole, withoutLast] = [await ordersFor(term), await ordersFor(term.slice(0, -1))]
  if (whole.total === withoutLast.total && whole.firstRow[1] === withoutLast.firstRow[1]) throw new Error(`the last key of “${term}” changes nothing`)
  expectedFor.set(term, whole)
}
for (let i = 0; i < 10; i++) {
  const term = terms[i % terms.length]!
  const box = page.getByTestId('orders-search')
  await box.fill('')
  await page.waitForTimeout(200)
  await box.pressSequentially(term.slice(0, -1), { delay: 30 })
  const last = term.slice(-1)
  searchTimes.push(await timeToRows(page, () => box.press(last), 'keydown', 'order-row', 'orders-total', expectedFor.get(term)))
}

const dashboardTimes: number[] = []
for (let i = 0; i < 30; i++) {
  const started = performance.now()
  const outcome = await host.router.dispatch('dashboard.get', { timeZone: 'Europe/Berlin' })
  if (!outcome.ok) throw new Error(outcome.error.message)
  dashboardTimes.push(performance.now() - started)
}

await browser.close()
await host.close()
await account.forget()
await market.stop()

console.log('\nWorkspace benchmark: 20,000 orders, 20,000 sell requests in the snapshot\n')
report([
  ['switch view → first rows, p95 (20 switches)', ms(percentile(switchTimes, 95)), 'budget ≤ 150 ms'],
  ['  first visit of each view (sell requests, orders)', `${ms(switchTimes[0]!)}, ${ms(switchTimes[1]!)}`, ''],
  ['search: last keystroke → rows, p95 (10 searches)', ms(percentile(searchTimes, 95)), 'budget ≤ 100 ms'],
  ['dashboard computed in core, p95 (30 runs)', ms(percentile(dashboardTimes, 95)), 'budget ≤ 200 ms']
])
console.log(`\nraw: switch ${switchTimes.map(ms).join(', ')}\n     search ${searchTimes.map(ms).join(', ')}`)
