/**
 * Two layouts a seller met in a narrow window, measured in the browser preview. A SKU is an identifier:
 * in a toast that names it, it reads as one unit, on one line, never broken at its hyphens, and its text
 * is the SKU as it is (a copy gives the same characters). (In the Sell requests list a SKU is whole, on
 * two lines at most: layout.preview.spec.ts.) And with a batch's results open in Bulk edit, the grid under
 * them keeps the rows a seller works in.
 */
import type { Locator, Page } from '@playwright/test'
import type { SellRequestRecord } from '../electron/sandbox/marketplace'
import { gridRow } from '../electron/shared/gridRow'
import { expect, test } from './fixtures'
import { marketplaceForEachTest } from './marketplace'
import { layoutSettled } from './pageMeasures'
import { applyFromPreview, GRID_COLUMN, openGrid, pasteIntoGrid, signInTo, toastInPlace } from './signedIn'

const KEY = 'sk_live_sku_results_e2e_5Wc3'
const LISTINGS = 40
const sandbox = marketplaceForEachTest({ apiKey: KEY, orders: 10, sellRequests: LISTINGS, seed: 31 })

test.use({ locale: 'en-US', permissions: ['clipboard-read', 'clipboard-write'] })
test.setTimeout(120_000)

/** A SKU as long as sellers' run, hyphens between short parts: a line may end at any of them unless it is kept whole. */
const LONG_SKU = 'APL-IP15-128-BLK-A'
/**
 * A name as long as a refurbisher's: a toast naming it with its SKU after it runs onto further lines in a
 * narrow window, a line ending within the SKU unless the SKU is kept whole.
 */
const LONG_NAME = 'iPhone 15 Pro Max 128GB Black Titanium Unlocked'

/** Adds a listing with LONG_SKU and LONG_NAME, changed last, so it heads the list (newest first). */
function addLongSkuListing(): SellRequestRecord {
  const state = sandbox().state
  const listing: SellRequestRecord = {
    ...state.sellRequests[0]!,
    id: '00000000-0000-4000-8000-0000000005c1',
    name: LONG_NAME,
    sku: LONG_SKU,
    status: 'open',
    updatedAt: Math.max(...state.sellRequests.map((row) => row.updatedAt)) + 60_000
  }
  state.addSellRequest(listing)
  return listing
}

/** How the SKU lies in `box`: the lines its characters take, its height against one line's, whether it is cut, and what a copy of it gives. */
function skuLayout(box: Locator, sku: string) {
  return box.evaluate((el, sku) => {
    const text = [...el.querySelectorAll('*'), el]
      .map((e) => e.firstChild)
      .find((node) => node?.nodeType === Node.TEXT_NODE && node.textContent!.includes(sku))!
    const at = text.textContent!.indexOf(sku)
    const range = document.createRange()
    range.setStart(text, at)
    range.setEnd(text, at + sku.length)
    const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)))
    const holder = text.parentElement!
    return {
      lines: tops.size,
      height: holder.getBoundingClientRect().height,
      lineHeight: parseFloat(getComputedStyle(holder).lineHeight),
      cut: holder.scrollWidth > holder.clientWidth + 1,
      copied: range.toString()
    }
  }, sku)
}

test('a toast naming a listing by its long SKU, at 1024: the SKU on one line of the toast, its characters as they are', async ({ app: page, host }) => {
  const listing = addLongSkuListing()
  await page.setViewportSize({ width: 1024, height: 768 })
  await signInTo(page, host, sandbox())
  await page.getByTestId('nav-sellRequests').click()
  const row = page.getByTestId('sell-request-row').filter({ hasText: LONG_NAME })
  // One more in stock, saved from the table: the toast says so, naming the listing with its SKU.
  await row.getByTestId('inline-quantity').focus()
  await page.keyboard.press('Enter')
  await page.keyboard.type(String(listing.quantity + 1))
  await page.keyboard.press('Enter')
  const toast = page.locator('.n-message').filter({ hasText: `Saved the quantity of “${LONG_NAME}” (${LONG_SKU}).` })
  await toastInPlace(toast)
  const content = toast.locator('.n-message__content')
  // The toast runs onto a second line, so a line ends somewhere near its SKU.
  expect(await content.evaluate((el) => window.sdMeasure.textLines(el)), 'lines of the toast').toBeGreaterThan(1)
  const shown = await skuLayout(content, LONG_SKU)
  expect(shown.lines, 'lines the SKU takes in the toast').toBe(1)
  expect(shown.copied).toBe(LONG_SKU)
})

/** Rows of the grid's scrolling part wholly in view under its header (none cut by the grid's bottom edge or the window's). */
const gridRowsInView = (page: Page) =>
  page.getByTestId('bulk-grid').evaluate((grid) => {
    const frame = grid.getBoundingClientRect()
    const header = grid.querySelector('revogr-header')!.getBoundingClientRect()
    const bottom = Math.min(frame.bottom, window.innerHeight)
    const rows = grid.querySelectorAll('revogr-data[type="rgRow"]:not([col-type="rowHeaders"]):not([col-type="colPinStart"]) .rgRow')
    return [...rows].filter((row) => {
      const box = row.getBoundingClientRect()
      return box.height > 0 && box.top >= header.bottom - 1 && box.bottom <= bottom + 1
    }).length
  })

/** Rows of the batch's results wholly in view in their table's scrolling body. */
const resultRowsInView = (page: Page) =>
  page.getByTestId('batch-results').evaluate((table) => {
    const body = table.querySelector('.n-data-table-base-table-body')!.getBoundingClientRect()
    return [...table.querySelectorAll('tbody tr')].filter((row) => {
      const box = row.getBoundingClientRect()
      return box.height > 0 && box.top >= body.top - 1 && box.bottom <= body.bottom + 1
    }).length
  })

/**
 * The grid keeps at least the whole rows the lists keep in the smallest window (layout spec) where the
 * results' head takes one line (the roomier window); in the narrow one it takes two, and the results' floor
 * of two rows of their own takes one row of the grid's. Made larger, the results leave the grid its header
 * and a few rows.
 */
const GRID_ROWS_KEPT = { 1024: 7, 1366: 8 } as const
const GRID_ROWS_KEPT_LARGER = 3

test('Bulk edit with a batch’s results open (some failed) at 1024×768 and 1366×768, light and dark: the grid keeps its rows, the results theirs, Larger and Close in view, nothing past the window', async ({
  app: page,
  host
}) => {
  await page.setViewportSize({ width: 1024, height: 768 })
  await signInTo(page, host, sandbox())
  const rows = await openGrid(page, host)
  // A dollar more on every listing, some refused by the marketplace: the results and the note of what did not apply.
  await pasteIntoGrid(page, 0, GRID_COLUMN.price, rows.map((row) => ((gridRow.value(row, 'priceCents') + 100) / 100).toFixed(2)).join('\n'))
  await expect(page.getByTestId('bulk-summary')).toHaveAttribute('data-changes', String(LISTINGS))
  sandbox().setFaults({ errorRate: 0.4, faultSeed: 9 })
  await page.getByTestId('bulk-review').click()
  await applyFromPreview(page)
  const panel = page.getByTestId('batch-panel')
  await expect(panel).toHaveAttribute('data-results', 'true', { timeout: 60_000 })
  sandbox().setFaults({ errorRate: 0 })
  await expect(panel.getByTestId('batch-summary')).toHaveText(/^\d+ applied, \d+ failed\.\s*$/)
  await expect(page.getByTestId('unapplied-line')).toBeVisible()
  const expand = panel.getByTestId('batch-expand')

  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    for (const width of [1024, 1366] as const) {
      await page.setViewportSize({ width, height: 768 })
      for (const larger of [false, true]) {
        if (larger) await expand.click()
        await expect(expand).toHaveAttribute('aria-expanded', String(larger))
        await layoutSettled(page.locator('section.bulk'))
        const name = `${width}×768, ${scheme}${larger ? ', larger' : ''}`
        const [gridShown, resultsShown] = [await gridRowsInView(page), await resultRowsInView(page)]
        expect(gridShown, `${name}: whole grid rows in view`).toBeGreaterThanOrEqual(larger ? GRID_ROWS_KEPT_LARGER : GRID_ROWS_KEPT[width])
        expect(resultsShown, `${name}: whole result rows in view`).toBeGreaterThanOrEqual(larger ? 2 : 1)
        // Larger and Close in view above the results; the panel ends above the grid; the status line in the window.
        for (const button of [expand, panel.getByTestId('batch-close')]) await expect(button).toBeInViewport({ ratio: 1 })
        const [panelBox, gridBox, status] = [
          await panel.boundingBox(),
          await page.getByTestId('bulk-grid').boundingBox(),
          await page.getByTestId('bulk-status-line').boundingBox()
        ]
        expect(panelBox!.y + panelBox!.height, `${name}: the panel's bottom against the grid's top`).toBeLessThanOrEqual(gridBox!.y + 1)
        expect(gridBox!.y + gridBox!.height, `${name}: the grid's bottom against the status line's top`).toBeLessThanOrEqual(status!.y + 1)
        expect(status!.y + status!.height, `${name}: the status line's bottom`).toBeLessThanOrEqual(768)
      }
      await expand.click()
    }
  }
})
