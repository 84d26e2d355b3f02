/**
 * A pasted value the grid cannot read (no number at all) leaves its cell unchanged, and the cell is
 * marked in the grid, with why in its tooltip and in the status line once selected, so the seller finds
 * each one where it is (the toast counts them and names the first listings by SKU). The mark goes when
 * the cell is changed again (a value typed, or Delete) and when the paste is undone; the marks stay with
 * their listings when the grid is sorted. A cell refused over a pending value that cannot be applied
 * says both; a refusal made while an earlier edit is on its way is marked once that edit has landed.
 */
import type { Page } from '@playwright/test'
import type { GridListingRow } from '../electron/shared/contract'
import { gridRow } from '../electron/shared/gridRow'
import { expect, test } from './fixtures'
import { marketplaceForEachTest } from './marketplace'
import { GRID_COLUMN, gridCell, gridPrice, openGrid, pasteIntoGrid, signInTo } from './signedIn'

const KEY = 'sk_live_refused_e2e_8Vb4'
const sandbox = marketplaceForEachTest({ apiKey: KEY, orders: 10, sellRequests: 30, seed: 31 })

test.use({ locale: 'en-US', permissions: ['clipboard-read', 'clipboard-write'] })

const price = (page: Page, row: number) => gridCell(page, row, GRID_COLUMN.price)

/** The rows whose New price cell is marked as left unchanged, by place in the grid. */
const refusedRows = (page: Page) =>
  page
    .locator(`revogr-data[type="rgRow"]:not([col-type="colPinStart"]) .rgCell[data-rgcol="${GRID_COLUMN.price}"][data-mark="refused"]`)
    .evaluateAll((cells) => cells.map((cell) => Number(cell.getAttribute('data-rgrow'))).sort((a, b) => a - b))

test('each pasted value that is no number is marked on its cell with why; the mark goes once the cell is fixed, emptied, or the paste undone', async ({
  app: page,
  host
}) => {
  await signInTo(page, host, sandbox())
  const rows: GridListingRow[] = await openGrid(page, host)
  const was = (row: number) => gridPrice(gridRow.value(rows[row]!, 'priceCents'))

  await pasteIntoGrid(page, 0, GRID_COLUMN.price, ['12.50', 'abc', '13', '1.2.3', 'x', '14'].join('\n'))
  await expect(page.getByTestId('bulk-summary')).toHaveAttribute('data-changes', '3')

  // Each refused cell, and only those, is marked; it still shows the price it had, and says why.
  await expect.poll(() => refusedRows(page)).toEqual([1, 3, 4])
  await expect(page.locator('.n-message')).toContainText(`3 cells were left unchanged, on ${gridRow.text(rows[1]!, 'sku')} and 2 more: select one to see why.`)
  await expect(price(page, 1)).toHaveText(was(1))
  await expect(price(page, 1)).toHaveAttribute('title', 'Left unchanged: Not a number: “abc”.')
  await expect(price(page, 3)).toHaveAttribute('title', /^Left unchanged: .*“1\.2\.3”/)
  await expect(price(page, 0)).toHaveAttribute('data-mark', /staged|warning/)
  await price(page, 4).click()
  await expect(page.getByTestId('bulk-focus-text')).toContainText(`${gridRow.text(rows[4]!, 'sku')}) · New price: left unchanged. Not a number: “x”.`)

  // Fixed: a price typed into it. Emptied: Delete. Each loses its mark; the last one keeps it.
  await price(page, 1).click()
  await page.keyboard.type('15.25')
  await page.keyboard.press('Enter')
  await expect(price(page, 1)).toHaveText('15.25')
  await price(page, 3).click()
  await page.keyboard.press('Delete')
  await expect.poll(() => refusedRows(page)).toEqual([4])
  await expect(page.getByTestId('bulk-summary')).toHaveAttribute('data-changes', '4')

  // Sorted by price: the mark stays with its listing, wherever its row goes.
  const sku = gridRow.text(rows[4]!, 'sku')
  await page.locator('revogr-header .rgHeaderCell').filter({ hasText: 'Price now' }).click()
  // The sort shown first (the cheapest listing's price at the top), then where the mark went.
  const cheapest = Math.min(...rows.map((row) => gridRow.value(row, 'priceCents')))
  await expect(gridCell(page, 0, GRID_COLUMN.priceNow)).toHaveText(gridPrice(cheapest))
  await expect
    .poll(async () => {
      const marked = await refusedRows(page)
      return marked.length === 1 ? gridCell(page, marked[0]!, GRID_COLUMN.sku).textContent() : marked
    })
    .toBe(sku)

  // Another paste with cells it cannot read, undone: its marks go with it (the one before goes too:
  // the pending changes were replaced).
  await pasteIntoGrid(page, 10, GRID_COLUMN.price, ['n/a', '20.00'].join('\n'))
  await expect.poll(async () => (await refusedRows(page)).length).toBe(2)
  await page.keyboard.press('Control+z')
  await expect(page.getByTestId('bulk-summary')).toHaveAttribute('data-changes', '4')
  await expect.poll(() => refusedRows(page)).toEqual([])
})

test('a refused paste over a value that cannot be applied: the cell says both, the refusal and why its value cannot be applied', async ({
  app: page,
  host
}) => {
  await signInTo(page, host, sandbox())
  const rows: GridListingRow[] = await openGrid(page, host)
  const quantity = gridCell(page, 0, GRID_COLUMN.quantity)
  await quantity.click()
  await page.keyboard.type('-3')
  await page.keyboard.press('Enter')
  await expect(quantity).toHaveAttribute('data-mark', 'invalid')

  await pasteIntoGrid(page, 0, GRID_COLUMN.quantity, 'lots')
  await expect(quantity).toHaveAttribute('data-mark', 'refused')
  await expect(quantity).toHaveText('-3')
  await expect(quantity).toHaveAttribute('title', 'Left unchanged: Not a number: “lots”. Cannot be applied: Quantity cannot be negative.')
  await expect(page.getByTestId('bulk-focus-text')).toContainText(
    `“${gridRow.text(rows[0]!, 'name')}” (${gridRow.text(rows[0]!, 'sku')}) · New qty: left unchanged. Not a number: “lots”. Pending: ${gridRow.value(rows[0]!, 'quantity').toLocaleString('en-US')} → -3. Cannot be applied: Quantity cannot be negative.`
  )
})

test('a refusal made while an earlier edit of the cell is on its way is marked once that edit lands, not taken off by it', async ({ app: page, host }) => {
  await signInTo(page, host, sandbox())
  const rows: GridListingRow[] = await openGrid(page, host)
  // The core's answer to the first edit is held back, as on a busy machine.
  let release = () => {}
  const held = new Promise<void>((resolve) => (release = resolve))
  let stages = 0
  await page.route('**/rpc/bulk.stage', async (route) => {
    if (++stages === 1) await held
    await route.continue()
  })
  await price(page, 0).click()
  await page.keyboard.type('15.25')
  await page.keyboard.press('Enter')
  await expect.poll(() => stages).toBe(1)
  // Meanwhile, a paste into the same cell that is no number: nothing to stage.
  await pasteIntoGrid(page, 0, GRID_COLUMN.price, 'abc')
  await page.waitForTimeout(300)
  release()

  await expect(price(page, 0)).toHaveText('15.25')
  await expect(page.locator('.n-message')).toContainText(`1 cell was left unchanged, on ${gridRow.text(rows[0]!, 'sku')}: select it to see why.`)
  await expect(price(page, 0)).toHaveAttribute('data-mark', 'refused')
  await expect(price(page, 0)).toHaveAttribute('title', /^Left unchanged: Not a number: “abc”\./)
  await expect.poll(() => refusedRows(page)).toEqual([0])
})
