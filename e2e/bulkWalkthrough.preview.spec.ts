/**
 * Bulk edit as a seller met it in a walkthrough: a number filter on a price column keeps the listings it
 * names (prices are typed as everywhere in the app), the status line counts the rows shown and names the
 * listing the highlighted cell is on after the rows moved under it; Ctrl/Cmd+Z undoes Change many
 * without a click in the grid first; Change many refuses what would stage nothing or only invalid
 * prices; and an import's report counts rows that add up to the rows read, apart from the changes.
 */
import type { Page } from '@playwright/test'
import type { GridListingRow } from '../electron/shared/contract'
import { gridRow } from '../electron/shared/gridRow'
import { expect, test } from './fixtures'
import { marketplaceForEachTest } from './marketplace'
import { applyFromPreview, gridCell as cell, signInTo, openGrid, openChangeMany, pasteIntoGrid as paste, GRID_COLUMN as COLUMN } from './signedIn'

const KEY = 'sk_live_bulk_filters_e2e_8Rt1'
const sandbox = marketplaceForEachTest({ apiKey: KEY, orders: 10, sellRequests: 40, seed: 71 })

test.use({ locale: 'en-US', permissions: ['clipboard-read', 'clipboard-write'] })

interface ShownRow {
  id: string
  name: string
  sku: string
}

/** The rows the grid shows now, in its order, and the listing its focused cell is on. */
const gridState = (page: Page) =>
  page.evaluate(async () => {
    // RevoGrid's element methods (its types are the page's, not this file's).
    const grid = document.querySelector('revo-grid') as unknown as {
      getVisibleSource(): Promise<ShownRow[]>
      getFocused(): Promise<{ model?: unknown } | null>
    }
    const shown = await grid.getVisibleSource()
    const focused = await grid.getFocused()
    const model = focused?.model as ShownRow | undefined
    return { shown: shown.map((row) => ({ id: row.id, name: row.name })), focused: model ? { id: model.id, name: model.name, sku: model.sku } : null }
  })

/** Sets a column's filter to one condition ("amountGt", …) with `value` typed, as the seller does in its panel. */
async function filterColumn(page: Page, column: string, condition: string, value: string) {
  await page.locator('revogr-header .rgHeaderCell').filter({ hasText: column }).locator('.rv-filter').dispatchEvent('click')
  const panel = page.locator('.filter-panel-dialog')
  await expect(panel).toBeVisible()
  await panel.locator('select#add-filter').selectOption(condition)
  await panel.locator('.filter-extra input').last().fill(value)
  await panel.getByRole('button', { name: 'ok' }).click()
  await expect(panel).toBeHidden()
}

async function resetFilter(page: Page, column: string) {
  await page.locator('revogr-header .rgHeaderCell').filter({ hasText: column }).locator('.rv-filter').dispatchEvent('click')
  const panel = page.locator('.filter-panel-dialog')
  await panel.getByRole('button', { name: 'reset' }).click()
  await panel.getByRole('button', { name: 'ok' }).click()
  await expect(panel).toBeHidden()
}

const cents = (row: GridListingRow) => gridRow.value(row, 'priceCents')
const money = (c: number) => `$${(c / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`

test('a number filter on a price keeps the listings it names; the status line counts them and names the highlighted listing', async ({ app: page, host }) => {
  await signInTo(page, host, sandbox())
  const rows = await openGrid(page, host)
  const count = page.getByTestId('bulk-row-count')
  const focusText = page.getByTestId('bulk-focus-text')
  await expect(count).toHaveText('40 listings')

  // The first row's New price has the focus; the filter keeps only dearer listings, so it goes.
  await cell(page, 0, COLUMN.price).click()
  const first = rows[0]!
  await expect(focusText).toContainText(`“${gridRow.text(first, 'name')}” (${gridRow.text(first, 'sku')}) · New price`)
  const dearer = rows.filter((row) => cents(row) > cents(first))
  expect(dearer.length, 'the fixture has listings on both sides of the first one’s price').toBeGreaterThan(0)
  expect(dearer.length).toBeLessThan(rows.length)

  // Typed as a seller types a price: a dollar sign and a thousands separator where it has one.
  await filterColumn(page, 'Price now', 'amountGt', money(cents(first)))
  await expect.poll(async () => (await gridState(page)).shown.map((row) => row.id).sort()).toEqual(dearer.map((row) => gridRow.id(row)).sort())
  await expect(count).toHaveText(`${dearer.length} of 40 listings shown`)

  // The highlighted cell is on another listing now; the status line names that one, not the one filtered out.
  const afterFilter = await gridState(page)
  expect(afterFilter.focused, 'the grid keeps a focused cell').not.toBeNull()
  expect(afterFilter.focused!.id).not.toBe(gridRow.id(first))
  expect(afterFilter.focused!.name, 'a listing with another name is highlighted').not.toBe(gridRow.text(first, 'name'))
  await expect(focusText).toContainText(`“${afterFilter.focused!.name}” (${afterFilter.focused!.sku}) · New price`)

  // New price filters the pending value: a staged $9,999.00 is the one listing at or above it.
  await resetFilter(page, 'Price now')
  await expect(count).toHaveText('40 listings')
  await cell(page, 0, COLUMN.price).click()
  await page.keyboard.type('9999')
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('bulk-summary')).toHaveAttribute('data-changes', '1')
  // Shown with its thousands separator; copied as the plain number a spreadsheet reads.
  await expect(cell(page, 0, COLUMN.price)).toHaveText('9,999.00')
  await cell(page, 0, COLUMN.price).click()
  await page.keyboard.press('Control+c')
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe('9999.00')
  await filterColumn(page, 'New price', 'amountGte', '$9,999')
  await expect.poll(async () => (await gridState(page)).shown.map((row) => row.id)).toEqual([gridRow.id(first)])
  await expect(count).toHaveText('1 of 40 listings shown')
  await expect(page.getByTestId('bulk-filter-problem')).toHaveCount(0)
  // What is no number matches nothing, and the status line says so and why.
  await resetFilter(page, 'New price')
  await filterColumn(page, 'Qty now', 'amountLt', 'lots')
  await expect.poll(async () => (await gridState(page)).shown.length).toBe(0)
  await expect(count).toHaveText('0 of 40 listings shown')
  await expect(page.getByTestId('bulk-filter-problem')).toHaveText('Qty now filter: Not a number: “lots”.')
  await resetFilter(page, 'Qty now')
  await expect(count).toHaveText('40 listings')
  await expect(page.getByTestId('bulk-filter-problem')).toHaveCount(0)
})

test('after a sort the status line names the listing the highlighted cell is on', async ({ app: page, host }) => {
  await signInTo(page, host, sandbox())
  const rows = await openGrid(page, host)
  const focusText = page.getByTestId('bulk-focus-text')
  await cell(page, 0, COLUMN.price).click()
  await expect(focusText).toContainText(`“${gridRow.text(rows[0]!, 'name')}” (${gridRow.text(rows[0]!, 'sku')}) · New price`)

  // Sorted by price, dearest first: the first place holds another listing.
  const header = page.locator('revogr-header .rgHeaderCell').filter({ hasText: 'Price now' })
  await header.click()
  await header.click()
  const dearest = [...rows].sort((a, b) => cents(b) - cents(a))[0]!
  await expect.poll(async () => (await gridState(page)).shown[0]?.id).toBe(gridRow.id(dearest))
  const state = await gridState(page)
  expect(state.focused!.id, 'the focus stayed at its place').toBe(gridRow.id(dearest))
  expect(gridRow.text(dearest, 'name')).not.toBe(gridRow.text(rows[0]!, 'name'))
  await expect(focusText).toContainText(`“${gridRow.text(dearest, 'name')}” (${gridRow.text(dearest, 'sku')}) · New price`)
})

test('Ctrl+Z right after Change many undoes it, with the keyboard still on the toolbar', async ({ app: page, host }) => {
  await signInTo(page, host, sandbox())
  await openGrid(page, host)
  const summary = page.getByTestId('bulk-summary')
  const dialog = await openChangeMany(page, 'Add / subtract quantity')
  await dialog.getByTestId('bulk-operation-value').locator('input').fill('2')
  await dialog.getByTestId('bulk-target-shown').click()
  await dialog.getByTestId('bulk-operation-run').click()
  await expect(dialog).toBeHidden()
  await expect(summary).toHaveAttribute('data-changes', '40')
  expect(await page.evaluate(() => document.activeElement?.closest('revo-grid') ?? null), 'the grid does not have the keyboard').toBeNull()

  await page.keyboard.press('Control+z')
  await expect(summary).toHaveAttribute('data-changes', '0')
  await page.keyboard.press('Control+y')
  await expect(summary).toHaveAttribute('data-changes', '40')
  await page.keyboard.press('Control+z')
  await expect(summary).toHaveAttribute('data-changes', '0')
  await page.keyboard.press('Control+Shift+z')
  await expect(summary).toHaveAttribute('data-changes', '40')

  // In the grid, which answers undo itself, one Ctrl+Z is one step: the typed price goes, Change many stays.
  await cell(page, 0, COLUMN.price).click()
  await page.keyboard.type('9999')
  await page.keyboard.press('Enter')
  await expect(summary).toHaveAttribute('data-changes', '41')
  await cell(page, 1, COLUMN.price).click()
  await page.keyboard.press('Control+z')
  await expect(summary).toHaveAttribute('data-changes', '40')
  await page.waitForTimeout(300) // the chance given to an undone change to come back, which it must not
  await expect(summary).toHaveAttribute('data-changes', '40')
})

test('Change many refuses a change that does nothing or takes prices to 0, before anything is staged', async ({ app: page, host }) => {
  await signInTo(page, host, sandbox())
  await openGrid(page, host)
  const dialog = await openChangeMany(page, 'Adjust price by %')
  const value = dialog.getByTestId('bulk-operation-value').locator('input')
  const error = dialog.getByTestId('bulk-operation-error')
  const run = dialog.getByTestId('bulk-operation-run')
  await value.fill('-100')
  await expect(error).toHaveText('A price cannot go down by 100% or more: it must stay above 0.')
  await expect(run).toBeDisabled()
  await value.fill('0')
  await expect(error).toHaveText('A change of 0 leaves every listing as it is.')
  await expect(run).toBeDisabled()
  await value.fill('-99.5')
  await expect(error).toBeHidden()
  await expect(run).toBeEnabled()

  await dialog.getByTestId('bulk-operation-kind').click()
  await page.locator('.n-base-select-option').filter({ hasText: 'Add / subtract quantity' }).click()
  await value.fill('+0')
  await expect(error).toHaveText('A change of 0 leaves every listing as it is.')
  await expect(run).toBeDisabled()
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  await expect(page.getByTestId('bulk-summary')).toHaveAttribute('data-changes', '0')
})

test('at 1024 px the number columns’ titles fit beside their sort arrow and filter button', async ({ app: page, host }) => {
  await page.setViewportSize({ width: 1024, height: 768 })
  await signInTo(page, host, sandbox())
  await openGrid(page, host)
  const titles = ['Price now', 'New price', 'Qty now', 'New qty']
  for (const title of titles) {
    await filterColumn(page, title, 'amountGt', '1')
    // Sorted last, so its arrow is the one shown.
    await page.locator('revogr-header .rgHeaderCell').filter({ hasText: title }).click()
  }
  for (const title of titles) {
    const header = page.locator('revogr-header .rgHeaderCell').filter({ hasText: title })
    await expect(header.locator('.rv-filter.active')).toBeVisible()
    const fits = await header.locator('.header-content').evaluate((el) => el.scrollWidth <= el.clientWidth)
    expect(fits, `“${title}” is shown whole`).toBe(true)
  }
  await expect(page.locator('revogr-header .rgHeaderCell.sortable.asc, revogr-header .rgHeaderCell.sortable.desc')).toHaveText('New qty')
})

test('Review tells listings of one name apart: each change shows its listing’s SKU whole, at 1024 px too', async ({ app: page, host }) => {
  await page.setViewportSize({ width: 1024, height: 768 })
  await signInTo(page, host, sandbox())
  const rows = await openGrid(page, host)
  await paste(page, 0, COLUMN.price, ['111', '222', '333'].join('\n'))
  await expect(page.getByTestId('bulk-summary')).toHaveAttribute('data-changes', '3')
  await page.getByTestId('bulk-review').click()
  const preview = page.getByTestId('bulk-preview')
  await expect(preview).toBeVisible()
  const skus = preview.locator('.listing .sku')
  await expect(skus).toHaveCount(3)
  expect((await skus.allTextContents()).sort()).toEqual(
    rows
      .slice(0, 3)
      .map((row) => gridRow.text(row, 'sku'))
      .sort()
  )
  for (const sku of await skus.all()) expect(await sku.evaluate((el) => el.scrollWidth <= el.clientWidth), 'the SKU is shown whole').toBe(true)
})

test('an ended batch’s results give the grid its room back once new changes are staged; History still has them', async ({ app: page, host }) => {
  await signInTo(page, host, sandbox())
  await openGrid(page, host)
  const summary = page.getByTestId('bulk-summary')
  const panel = page.getByTestId('batch-panel')
  await paste(page, 0, COLUMN.price, ['111', '222'].join('\n'))
  await expect(summary).toHaveAttribute('data-changes', '2')
  await page.getByTestId('bulk-review').click()
  await applyFromPreview(page)
  await expect(panel).toHaveAttribute('data-running', 'false', { timeout: 20_000 })
  await expect(summary).toHaveAttribute('data-changes', '0')
  // Still open after the batch: its results are what the seller looks at now.
  await page.waitForTimeout(300) // the chance given to the panel to close, which it must not
  await expect(panel).toBeVisible()

  await cell(page, 2, COLUMN.quantity).click()
  await page.keyboard.type('7')
  await page.keyboard.press('Enter')
  await expect(summary).toHaveAttribute('data-changes', '1')
  await expect(panel).toBeHidden()
  await page.getByTestId('bulk-history').click()
  await expect(page.getByTestId('history-label').first()).toContainText('2 prices on 2 listings')
})

test('a quantity cut past the rule (a slipped digit) is flagged in the grid and in Review; a cut to 0 is not; the rule is the seller’s', async ({
  app: page,
  host
}) => {
  await signInTo(page, host, sandbox())
  const rows = await openGrid(page, host)
  const at = rows.findIndex((row) => gridRow.value(row, 'quantity') >= 20)
  expect(at, 'a listing with 20 or more units').toBeGreaterThanOrEqual(0)
  const before = gridRow.value(rows[at]!, 'quantity')
  const slipped = Math.floor(before / 20) // a cut of at least 95%
  const summary = page.getByTestId('bulk-summary')

  await cell(page, at, COLUMN.quantity).click()
  await page.keyboard.type(String(slipped))
  await page.keyboard.press('Enter')
  await expect(cell(page, at, COLUMN.quantity)).toHaveAttribute('data-mark', 'warning')
  await expect(summary).toContainText('1 with warnings')
  await page.getByTestId('bulk-review').click()
  const preview = page.getByTestId('bulk-preview')
  await expect(preview).toContainText(
    `Quantity falls by ${Math.round(((before - slipped) / before) * 100)}% (from ${before.toLocaleString('en-US')} to ${slipped})`
  )
  await page.keyboard.press('Escape')
  await expect(preview).toBeHidden()

  // Sold out is meant: no warning.
  await cell(page, at, COLUMN.quantity).click()
  await page.keyboard.type('0')
  await page.keyboard.press('Enter')
  await expect(cell(page, at, COLUMN.quantity)).toHaveAttribute('data-mark', 'staged')
  await expect(summary).not.toContainText('with warnings')

  // The seller's own rule: warn only past a 99% cut, and the slipped digit passes.
  await cell(page, at, COLUMN.quantity).click()
  await page.keyboard.type(String(slipped))
  await page.keyboard.press('Enter')
  await expect(summary).toContainText('1 with warnings')
  await page.getByTestId('bulk-rules').click()
  await expect(page.getByTestId('rule-quantity-cut').locator('input')).toHaveValue('90')
  await page.getByTestId('rule-quantity-cut').locator('input').fill('99')
  await page.getByTestId('rule-save').click()
  await expect(summary).not.toContainText('with warnings')
  await expect(cell(page, at, COLUMN.quantity)).toHaveAttribute('data-mark', 'staged')
})

test('a view whose file cannot load says so with a Retry that reloads the window, not a blank page; a missing file is a 404', async ({ app: page, host }) => {
  // A build replaced under the open window: its chunks' names are gone. The host answers such a file with
  // a 404, not the page (a chunk given HTML fails to load just the same, but says less).
  expect((await page.request.get(`${host.origin}/assets/BulkEditView-gone.js`)).status()).toBe(404)
  expect((await page.request.get(`${host.origin}/some/route`)).status()).toBe(200)

  await signInTo(page, host, sandbox())
  await page.route(/\/assets\/BulkEditView-[^/]+\.js$/, (route) => route.fulfill({ status: 404, body: 'Not found' }))
  await page.getByTestId('nav-bulkEdit').click()
  const failed = page.getByTestId('view-load-failed')
  await expect(failed).toBeVisible()
  await expect(failed).toContainText('This part of Seller Desk could not load')
  await expect(failed.getByRole('alert')).toBeVisible()

  // Retry reloads the window; with the file there again, Bulk edit opens with the listings.
  await page.unroute(/\/assets\/BulkEditView-[^/]+\.js$/)
  await failed.getByTestId('retry').click()
  await page.getByTestId('nav-bulkEdit').click()
  await expect(cell(page, 0, COLUMN.price)).toBeVisible()
  await expect(failed).toHaveCount(0)
})

test('a range selected before a filter does not carry over to the listings that take its places: Change many speaks of the highlighted listing only', async ({
  app: page,
  host
}) => {
  await signInTo(page, host, sandbox())
  const rows = await openGrid(page, host)
  // Five rows selected, then a filter that keeps only dearer listings than the first.
  await cell(page, 0, COLUMN.price).click()
  await cell(page, 4, COLUMN.price).click({ modifiers: ['Shift'] })
  await page.getByTestId('bulk-change-many').click()
  await expect(page.getByTestId('bulk-target-selected')).toContainText('Selected rows (5 listings)')
  await page.keyboard.press('Escape')
  const first = rows[0]!
  await filterColumn(page, 'Price now', 'amountGt', money(cents(first)))
  const dearer = rows.filter((row) => cents(row) > cents(first))
  await expect(page.getByTestId('bulk-row-count')).toHaveText(`${dearer.length} of 40 listings shown`)

  await page.getByTestId('bulk-change-many').click()
  await expect(page.getByTestId('bulk-target-selected')).toContainText('Selected rows (1 listing)')
  await page.keyboard.press('Escape')
})

test('a paste longer than the rows a filter leaves says how many values found no row, in either way a paste lands', async ({ app: page, host }) => {
  await signInTo(page, host, sandbox())
  const rows = await openGrid(page, host)
  const prices = [...new Set(rows.map(cents))].sort((a, b) => b - a)
  await filterColumn(page, 'Price now', 'amountGt', money(prices[2]!))
  const shown = rows.filter((row) => cents(row) > prices[2]!).length
  await expect(page.getByTestId('bulk-row-count')).toHaveText(`${shown} of 40 listings shown`)
  const summary = page.getByTestId('bulk-summary')
  const notUsed = page.locator('.n-message').filter({ hasText: 'not used' })

  // One column, three lines into the last row shown: one lands, two have no row.
  await paste(page, shown - 1, COLUMN.quantity, '7\n8\n9\n')
  await expect(summary).toHaveAttribute('data-changes', '1')
  await expect(cell(page, shown - 1, COLUMN.quantity)).toHaveText('7')
  await expect(notUsed).toHaveText('2 pasted cells were not used: 2 fall below the last row shown.')
  await notUsed.waitFor({ state: 'detached', timeout: 15_000 })

  // Price and quantity side by side (spread over the read-only Qty now), two lines into the last row.
  await paste(page, shown - 1, COLUMN.price, '100\t5\n101\t6\n')
  await expect(cell(page, shown - 1, COLUMN.price)).toHaveText('100.00')
  await expect(cell(page, shown - 1, COLUMN.quantity)).toHaveText('5')
  await expect(summary).toHaveAttribute('data-changes', '2')
  await expect(notUsed).toHaveText('2 pasted cells were not used: 2 fall below the last row shown.')
})

test('a mistyped price (12.345) is left as it is by Change many by %, never made a price that can be applied; Set price replaces it', async ({
  app: page,
  host
}) => {
  await signInTo(page, host, sandbox())
  const rows = await openGrid(page, host)
  const warning = page.locator('.n-message').filter({ hasText: 'left as it was' })
  await paste(page, 0, COLUMN.price, '12.345\n')
  await expect(page.getByTestId('bulk-summary')).toHaveAttribute('data-changes', '1')
  await expect(cell(page, 0, COLUMN.price)).toHaveText('12.345')

  // The first two rows, by -10%: the second gets its price less 10%, the first keeps what was typed.
  await cell(page, 0, COLUMN.price).click()
  await cell(page, 1, COLUMN.price).click({ modifiers: ['Shift'] })
  let dialog = await openChangeMany(page, 'Adjust price by %')
  await expect(dialog.getByTestId('bulk-target-selected')).toContainText('Selected rows (2 listings)')
  await dialog.getByTestId('bulk-operation-value').locator('input').fill('-10')
  await dialog.getByTestId('bulk-operation-run').click()
  await expect(dialog).toBeHidden()
  await expect(warning).toContainText('1 listing was left as it was, as it holds a value that cannot be applied: ')
  await expect(warning).toContainText('Mend it or take it back (Delete), then change it again.')
  await expect(cell(page, 0, COLUMN.price)).toHaveText('12.345')
  const second = gridRow.value(rows[1]!, 'priceCents')
  await expect(cell(page, 1, COLUMN.price)).toHaveText((Math.round(second * 0.9) / 100).toFixed(2))
  await expect(page.getByTestId('bulk-summary')).toHaveAttribute('data-changes', '2')
  // Review & apply opened while it shows: the toast gives way, over the dialog's title it would hide.
  await page.getByTestId('bulk-review').click()
  await expect(page.getByTestId('bulk-preview')).toBeVisible()
  await expect(warning).toHaveCount(0)
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('bulk-preview')).toBeHidden()

  // Set price is a value of its own: it replaces the mistake.
  await cell(page, 0, COLUMN.price).click()
  dialog = await openChangeMany(page, 'Set price')
  await dialog.getByTestId('bulk-operation-value').locator('input').fill('19.99')
  await dialog.getByTestId('bulk-operation-run').click()
  await expect(dialog).toBeHidden()
  await expect(cell(page, 0, COLUMN.price)).toHaveText('19.99')
  await expect(warning).toHaveCount(0)
})

test('Change many that takes stock below zero says so at once: how many listings, why, and that they are left out of the apply', async ({
  app: page,
  host
}) => {
  await signInTo(page, host, sandbox())
  const rows = await openGrid(page, host)
  const quantity = (row: GridListingRow) => gridRow.value(row, 'quantity')
  const warning = page.locator('.n-message').filter({ hasText: 'cannot be applied' })

  // The first listing alone, one unit more than it holds.
  await cell(page, 0, COLUMN.quantity).click()
  let dialog = await openChangeMany(page, 'Add / subtract quantity')
  await dialog
    .getByTestId('bulk-operation-value')
    .locator('input')
    .fill(`-${quantity(rows[0]!) + 1}`)
  await dialog.getByTestId('bulk-operation-run').click()
  await expect(dialog).toBeHidden()
  await expect(warning).toHaveText(
    '1 listing got a value that cannot be applied: Quantity cannot be negative. It is marked in the grid and left out when you apply.'
  )
  await warning.locator('.n-base-close').click()
  await expect(warning).toHaveCount(0)

  // Every row, by the first three's largest stock and one more: at least those three go below zero, and
  // exactly those that hold less than that. The first holds a value that cannot be applied already: it is
  // no value to subtract from, and is left as it was.
  const cut = Math.max(...rows.slice(0, 3).map(quantity)) + 1
  const below = rows.filter((row) => quantity(row) < cut).length
  dialog = await openChangeMany(page, 'Add / subtract quantity')
  await dialog.getByTestId('bulk-operation-value').locator('input').fill(`-${cut}`)
  await dialog.getByTestId('bulk-target-shown').click()
  await dialog.getByTestId('bulk-operation-run').click()
  await expect(dialog).toBeHidden()
  await expect(warning).toHaveText(
    `${below - 1} listings got values that cannot be applied. The first: Quantity cannot be negative. They are marked in the grid and left out when you apply. ` +
      '1 listing was left as it was, as it holds a value that cannot be applied: Quantity cannot be negative. Mend it or take it back (Delete), then change it again.'
  )
  await expect(cell(page, 0, COLUMN.quantity)).toHaveText('-1')

  // A change that leaves every value valid says nothing of the kind.
  await page.keyboard.press('Control+z')
  await expect(page.getByTestId('bulk-summary')).toHaveAttribute('data-changes', '1')
  await page.keyboard.press('Control+z')
  await expect(page.getByTestId('bulk-summary')).toHaveAttribute('data-changes', '0')
  await warning.locator('.n-base-close').click()
  dialog = await openChangeMany(page, 'Add / subtract quantity')
  await dialog.getByTestId('bulk-operation-value').locator('input').fill('+3')
  await dialog.getByTestId('bulk-target-shown').click()
  await dialog.getByTestId('bulk-operation-run').click()
  await expect(page.getByTestId('bulk-summary')).toHaveAttribute('data-changes', '40')
  await expect(warning).toHaveCount(0)
})

test('an import’s report counts each row once, apart from the changes it staged, says how many have warnings, and names a file’s columns as written', async ({
  app: page,
  host
}) => {
  await signInTo(page, host, sandbox())
  const rows = await openGrid(page, host)
  const at = rows.findIndex((row) => gridRow.value(row, 'quantity') >= 20)
  expect(at, 'a listing with 20 or more units').toBeGreaterThanOrEqual(0)
  const [same, blank, ...others] = rows.filter((_, i) => i !== at)
  const price = (c: number) => (c / 100).toFixed(2)
  const id = (row: GridListingRow) => gridRow.id(row)
  // The walkthrough's 11 rows: one row with a new price and quantity (a 308% rise, a 95% cut), one as
  // the listing is, one with both values blank, and eight the import cannot use.
  const csv = [
    'id,price,quantity',
    `${id(rows[at]!)},${price(Math.round(cents(rows[at]!) * 4.08))},${Math.floor(gridRow.value(rows[at]!, 'quantity') / 20)}`,
    `${id(same!)},${price(cents(same!))},${gridRow.value(same!, 'quantity')}`,
    `${id(blank!)},,`,
    `${id(others[0]!)},abc,`,
    `${id(others[1]!)},12.345,`,
    `${id(others[2]!)},,-2`,
    `${id(others[3]!)},,1.5`,
    `${id(others[4]!)},0,`,
    '00000000-0000-4000-8000-000000000000,5.00,',
    ',5.00,',
    `${id(others[5]!)},1,299.00,`
  ].join('\n')
  await page.getByTestId('bulk-import-file').setInputFiles({ name: 'prices.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) })
  const report = page.getByTestId('import-report')
  await expect(report.getByTestId('import-summary')).toContainText(
    '11 rows read: 1 row staged 2 changes, 1 row already up to date, 1 row with no value to change, 8 rows not used (below).'
  )
  await expect(report.getByTestId('import-warnings')).toHaveText('2 staged changes have warnings: check them in the grid before applying.')
  // A sentence of its own, after the rows: not run into the one before.
  await expect(report.getByTestId('import-summary')).toContainText('(below). 2 staged changes have warnings')
  await expect(report.getByTestId('import-problem')).toHaveCount(8)
  await report.getByTestId('import-report-close').click()
  await expect(report).toBeHidden()
  await expect(cell(page, at, COLUMN.price)).toHaveAttribute('data-mark', 'warning')
  await expect(cell(page, at, COLUMN.quantity)).toHaveAttribute('data-mark', 'warning')

  // A German semicolon file without a column the import knows: its columns as its header writes them.
  const german = '\uFEFFSKU;Preis;Menge\r\nSKU-1;12,50;3\r\n'
  await page.getByTestId('bulk-import-file').setInputFiles({ name: 'preise.csv', mimeType: 'text/csv', buffer: Buffer.from(german) })
  await expect(report.getByTestId('import-failure')).toContainText('(columns found: “SKU”, “Preis”, “Menge”)')
})
