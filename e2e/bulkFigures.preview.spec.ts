/**
 * Figures in Bulk edit read alike everywhere: a quantity is grouped in the grid, in Review's table and
 * in its total as prices are ("1,000,000"), and a total that falls has the minus sign the price totals
 * have ("−778"); the grid still edits from plain digits. Review's before and after never wrap inside a
 * figure, at 1024 and at 1366 px; and the status line's count stays on one line at 1024 while the
 * focused cell's long hint is the text cut short. Counts of a thousand or more have their separators in
 * Review's tabs, a batch's results and History.
 */
import type { Locator, Page } from '@playwright/test'
import { gridRow } from '../electron/shared/gridRow'
import type { PreviewHost } from '../electron/preview/host'
import { expect, test } from './fixtures'
import { marketplaceForEachTest } from './marketplace'
import { gridCell as cell, openChangeMany, openGrid, pasteIntoGrid as paste, signInTo, GRID_COLUMN as COLUMN } from './signedIn'

const KEY = 'sk_live_bulk_figures_e2e_8Rq2'
const sandbox = marketplaceForEachTest({ apiKey: KEY, orders: 10, sellRequests: 40, seed: 71 })

test.use({ locale: 'en-US', permissions: ['clipboard-read', 'clipboard-write'] })

const signIn = (page: Page, host: PreviewHost) => signInTo(page, host, sandbox())

/** Clicks a cell and types a value into it, then Enter. */
async function typeInto(page: Page, row: number, column: number, text: string) {
  await cell(page, row, column).click()
  await page.keyboard.type(text)
  await page.keyboard.press('Enter')
}

/** How many lines an element's text is laid out on. */
const linesOf = (locator: Locator) =>
  locator.evaluate((el) => {
    const range = document.createRange()
    range.selectNodeContents(el)
    return new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top))).size
  })

/** Whether an element's text fits inside it (nothing hidden, nothing spilling over its neighbour). */
const fits = (locator: Locator) => locator.evaluate((el) => el.scrollWidth <= el.clientWidth)

/** Review's table cell in the row of the change to `field` ("Price", "Quantity") and the column of `key` ("before", "after"). */
const tableCell = (preview: Locator, field: string, key: 'before' | 'after') =>
  preview
    .locator('.n-data-table-tr')
    .filter({ has: preview.page().locator('td[data-col-key="field"]', { hasText: field }) })
    .locator(`td[data-col-key="${key}"]`)

test('a quantity reads grouped in the grid and in Review, as prices do; editing starts from its plain digits', async ({ app: page, host }) => {
  await page.setViewportSize({ width: 1024, height: 768 })
  await signIn(page, host)
  const rows = await openGrid(page, host)
  const summary = page.getByTestId('bulk-summary')
  const editor = page.locator('revogr-edit input')

  await typeInto(page, 0, COLUMN.quantity, '1000000')
  await expect(cell(page, 0, COLUMN.quantity)).toHaveText('1,000,000')
  await expect(cell(page, 0, COLUMN.quantity)).toHaveAttribute('data-mark', 'staged')
  // The editor opens on the plain value, which saves again as it is.
  await cell(page, 0, COLUMN.quantity).click()
  await page.keyboard.press('Enter')
  await expect(editor).toHaveValue('1000000')
  await page.keyboard.press('Enter')
  await expect(cell(page, 0, COLUMN.quantity)).toHaveText('1,000,000')
  await expect(cell(page, 0, COLUMN.quantity)).toHaveAttribute('data-mark', 'staged')
  await expect(page.getByText('left unchanged')).toHaveCount(0)
  // Pasted plain digits, and a price beside them, as before.
  await paste(page, 1, COLUMN.quantity, '999999')
  await expect(cell(page, 1, COLUMN.quantity)).toHaveText('999,999')
  await typeInto(page, 2, COLUMN.price, '1000000')
  await expect(cell(page, 2, COLUMN.price)).toHaveText('1,000,000.00')
  await expect(summary).toHaveAttribute('data-changes', '3')
  // The status line says the values as the cell shows them.
  await cell(page, 0, COLUMN.quantity).click()
  await expect(page.getByTestId('bulk-focus-text')).toContainText(`${gridRow.value(rows[0]!, 'quantity').toLocaleString('en-US')} → 1,000,000.`)

  await page.getByTestId('bulk-review').click()
  const preview = page.getByTestId('bulk-preview')
  const delta = 1_000_000 + 999_999 - gridRow.value(rows[0]!, 'quantity') - gridRow.value(rows[1]!, 'quantity')
  await expect(preview.getByTestId('preview-quantity-delta')).toHaveText(`+${delta.toLocaleString('en-US')}`)
  await expect(tableCell(preview, 'Quantity', 'after')).toHaveText(['1,000,000', '999,999'])
  await expect(tableCell(preview, 'Price', 'after')).toHaveText('$1,000,000.00')
  await page.keyboard.press('Escape')
  await expect(preview).toBeHidden()

  // A total that falls: the minus sign the price totals have, not a hyphen.
  await page.getByTestId('bulk-discard').click()
  await page.locator('.n-dialog').getByRole('button', { name: 'Discard', exact: true }).click()
  await expect(summary).toHaveAttribute('data-changes', '0')
  // The question is gone (its fading mask would take the next click) and the grid has its rows back
  // (an editor opened before they are replaced closes unsaved).
  await expect(page.locator('.n-modal-mask, .n-dialog')).toHaveCount(0)
  await expect(cell(page, 0, COLUMN.quantity)).toHaveText(gridRow.value(rows[0]!, 'quantity').toLocaleString('en-US'))
  await expect(cell(page, 0, COLUMN.quantity)).not.toHaveAttribute('data-mark', /.+/)
  const at = rows.findIndex((row) => gridRow.value(row, 'quantity') > 1)
  await typeInto(page, at, COLUMN.quantity, '1')
  await expect(summary).toHaveAttribute('data-changes', '1')
  await page.getByTestId('bulk-review').click()
  await expect(preview.getByTestId('preview-quantity-delta')).toHaveText(`\u2212${(gridRow.value(rows[at]!, 'quantity') - 1).toLocaleString('en-US')}`)
})

test('Review’s before and after never wrap inside a figure, at 1024 and at 1366 px', async ({ app: page, host }) => {
  await page.setViewportSize({ width: 1024, height: 768 })
  await signIn(page, host)
  await openGrid(page, host)
  // The largest price the rules take, one far beyond them (a problem, still shown whole), and a large quantity.
  await typeInto(page, 0, COLUMN.price, '1000000')
  await typeInto(page, 1, COLUMN.price, '99999999.99')
  await typeInto(page, 2, COLUMN.quantity, '1000000')
  await expect(page.getByTestId('bulk-summary')).toHaveAttribute('data-changes', '3')

  for (const width of [1024, 1366]) {
    await page.setViewportSize({ width, height: 768 })
    await page.getByTestId('bulk-review').click()
    const preview = page.getByTestId('bulk-preview')
    await expect(tableCell(preview, 'Price', 'after')).toHaveText(['$1,000,000.00', '$99,999,999.99'])
    // (How a quantity reads is the test above's.)
    await expect(tableCell(preview, 'Quantity', 'after')).toHaveCount(1)
    for (const field of ['Price', 'Quantity'])
      for (const key of ['before', 'after'] as const) {
        const figures = tableCell(preview, field, key)
        for (let i = 0; i < (await figures.count()); i++) {
          expect(await linesOf(figures.nth(i)), `${field} ${key} ${i} at ${width} px: one line`).toBe(1)
          expect(await fits(figures.nth(i)), `${field} ${key} ${i} at ${width} px: fits its column`).toBe(true)
        }
      }
    await page.keyboard.press('Escape')
    await expect(preview).toBeHidden()
  }
})

test('at 1024 px the status line’s count stays on one line; the focused cell’s long hint is cut short, whole in its tooltip', async ({ app: page, host }) => {
  await page.setViewportSize({ width: 1024, height: 768 })
  await signIn(page, host)
  const rows = await openGrid(page, host)
  const count = page.getByTestId('bulk-row-count')
  const hint = page.getByTestId('bulk-focus-text')
  await expect(count).toHaveText('40 listings')
  const gridHeight = (await page.getByTestId('bulk-grid').boundingBox())!.height

  // The listing with the longest name and SKU among the rows in view: its hint is the longest.
  const inView = rows.slice(0, 12)
  const longest = inView.reduce((best, row, i) => {
    const length = (row: (typeof rows)[number]) => gridRow.text(row, 'name').length + gridRow.text(row, 'sku').length
    return length(row) > length(inView[best]!) ? i : best
  }, 0)
  await cell(page, longest, COLUMN.quantity).click()
  await expect(hint).toContainText('New qty: no pending change. Type a value, paste, or drag the fill handle.')
  expect(await linesOf(count)).toBe(1)
  expect(await linesOf(hint)).toBe(1)
  // The hint is the one cut short, and still whole for a screen reader and in its tooltip.
  expect(await fits(hint)).toBe(false)
  expect(await fits(count)).toBe(true)
  await expect(hint).toHaveAttribute('title', (await hint.textContent())!)
  // The grid keeps its height.
  expect((await page.getByTestId('bulk-grid').boundingBox())!.height).toBe(gridHeight)
})

test.describe('a thousand listings', () => {
  // Exactly a thousand: the first count written with a separator, and no more changes to apply (each is a
  // request to the marketplace) than the counts need.
  const LISTINGS = 1_000
  const thousand = marketplaceForEachTest({ apiKey: KEY, orders: 10, sellRequests: LISTINGS, seed: 71 })

  test('counts of a thousand or more read with separators: Review’s tabs, the batch’s results and History', async ({ app: page, host }) => {
    // The batch's results and History count only what was applied: a thousand requests to the
    // marketplace, which on a busy machine take a good part of the usual minute by themselves.
    test.setTimeout(120_000)
    await signInTo(page, host, thousand())
    await openGrid(page, host)
    await expect(page.locator('revo-grid')).toHaveAttribute('aria-rowcount', String(LISTINGS))
    await expect(page.getByTestId('bulk-load-progress')).toHaveCount(0)
    const thousands = LISTINGS.toLocaleString('en-US')
    expect(thousands).toBe('1,000')

    // One more unit on every listing.
    const dialog = await openChangeMany(page, 'Add / subtract quantity')
    await dialog.getByTestId('bulk-operation-value').locator('input').fill('1')
    await dialog.getByTestId('bulk-target-shown').click()
    await dialog.getByTestId('bulk-operation-run').click()
    await expect(page.getByTestId('bulk-summary')).toHaveText(`${thousands} pending changes on ${thousands} listings`)

    await page.getByTestId('bulk-review').click()
    const preview = page.getByTestId('bulk-preview')
    await expect(preview.getByTestId('preview-filter-all')).toHaveText(`All (${thousands})`)
    await preview.getByTestId('bulk-preview-confirm').click()
    await preview.getByTestId('bulk-preview-apply').click()
    const panel = page.getByTestId('batch-panel')
    await expect(panel).toHaveAttribute('data-running', 'false', { timeout: 60_000 })
    await expect(panel.getByTestId('batch-summary')).toHaveText(`${thousands} applied.`)
    await expect(panel.getByTestId('batch-filter-all')).toHaveText(`All (${thousands})`)

    await page.getByTestId('bulk-history').click()
    await expect(page.getByTestId('history-batch').first()).toContainText(`${thousands} applied`)
  })
})
