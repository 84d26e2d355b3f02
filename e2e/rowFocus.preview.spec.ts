/**
 * The keyboard stays with the row it works on when the list is read again and the row moves: Sell
 * requests are sorted by last update, so a listing whose quantity is saved from the table goes to the
 * top. The focus used to fall to the page (the next Tab started from the first row's tick box); it now
 * follows the row to the top, on the cell that was saved, and Tab goes on from there. Orders are
 * sorted newest first, so new orders from a sync push the rows down: the focused order stays focused.
 */
import type { Page } from '@playwright/test'
import type { SellRequest } from '../electron/shared/domain'
import { expect, test } from './fixtures'
import { marketplaceForEachTest } from './marketplace'
import { viaRouter } from './fromCore'
import { openSellRequests, signInTo } from './signedIn'

const sandbox = marketplaceForEachTest({ apiKey: 'sk_live_row_focus_e2e_3Kd8', orders: 10, sellRequests: 30, seed: 23 })
test.use({ locale: 'en-US' })

const rowOf = (page: Page, listing: SellRequest) => page.getByTestId('sell-request-row').filter({ hasText: listing.sku })

test('a quantity saved from the keyboard moves its row to the top, and the keyboard goes with it', async ({ app: page, host }) => {
  await signInTo(page, host, sandbox())
  const listed = await openSellRequests(page, host)
  const target = listed[3]!
  const rows = page.getByTestId('sell-request-row')
  await expect(rows.nth(3)).toContainText(target.sku)

  // Focus the fourth row's quantity, Enter opens it, type, Enter saves.
  await rowOf(page, target).getByTestId('inline-quantity').focus()
  await page.keyboard.press('Enter')
  const typed = String(target.quantity + 7)
  await page.keyboard.type(typed)
  await page.keyboard.press('Enter')

  // Saved and read again: the row is first now (last updated), and the focus is on its quantity.
  await expect(rows.first()).toContainText(target.sku)
  await expect(rows.first().getByTestId('inline-quantity')).toHaveText(typed)
  await expect(rows.first().getByTestId('inline-quantity')).toBeFocused()
  // Tab goes on from there, inside the row, not from the top of the page.
  await page.keyboard.press('Tab')
  expect(await page.evaluate(() => document.activeElement?.closest('[data-testid="sell-request-row"]')?.textContent ?? '')).toContain(target.sku)
})

test('new orders from a sync push the focused order down the list, and the keyboard stays on it', async ({ app: page, host }) => {
  await signInTo(page, host, sandbox())
  await page.getByTestId('nav-orders').click()
  const rows = page.getByTestId('order-row')
  await expect(rows.nth(3)).toBeVisible()
  const before = await rows.nth(3).textContent()
  const focusedKey = await rows.nth(3).getAttribute('data-row-key')
  expect(focusedKey).toBeTruthy()
  await rows.nth(3).focus()

  sandbox().addOrders(2)
  await viaRouter(host, 'sync.run', {})
  // Two orders are listed above it now; the focus is still on that order, two rows further down.
  await expect(rows.nth(5)).toHaveAttribute('data-row-key', focusedKey!)
  await expect(rows.nth(5)).toBeFocused()
  expect(await rows.nth(5).textContent()).toBe(before)
  // Enter opens that order, not another.
  await page.keyboard.press('Enter')
  const orderNo = page.getByTestId('drawer-order-no')
  await expect(orderNo).toBeVisible()
  expect(await rows.nth(5).textContent()).toContain(await orderNo.textContent())
})

/** The pager's current page number. */
const currentPage = (page: Page) => page.getByTestId('sell-requests-table').locator('.n-pagination-item--active')

/** Opens page 2 of Sell requests (30 listings, 25 a page: five rows); answers its rows' SKUs. */
async function openPageTwo(page: Page): Promise<string[]> {
  await page.getByTestId('sell-requests-table').locator('.n-pagination-item').filter({ hasText: /^2$/ }).click()
  await expect(currentPage(page)).toHaveText('2')
  const rows = page.getByTestId('sell-request-row')
  await expect(rows).toHaveCount(5)
  return rows.evaluateAll((els) => els.map((el) => el.getAttribute('data-row-key') ?? ''))
}

const focusedRowKey = (page: Page) =>
  page.evaluate(() => document.activeElement?.closest('[data-testid="sell-request-row"]')?.getAttribute('data-row-key') ?? document.activeElement?.tagName)

test('a quantity saved from the keyboard on page 2 moves its row to page 1: the list stays on page 2, the keyboard on the row that came after it, and a note says where the listing went', async ({
  app: page,
  host
}) => {
  await signInTo(page, host, sandbox())
  await openSellRequests(page, host)
  const keys = await openPageTwo(page)
  // Screen readers say the note from a live region there before it (one added with its words may be missed).
  const said = page.getByTestId('sell-requests-moved-said')
  await expect(said).toHaveAttribute('aria-live', 'polite')
  await expect(said).toHaveText('')
  const rows = page.getByTestId('sell-request-row')
  const target = rows.nth(2)
  await target.getByTestId('inline-quantity').focus()
  await page.keyboard.press('Enter')
  await page.keyboard.type('777')
  await page.keyboard.press('Enter')

  // The listing is now the first of page 1 (last updated); page 2 stays, without it.
  const note = page.getByTestId('sell-requests-moved')
  await expect(note).toBeVisible()
  await expect(note).toContainText('moved to the top of page 1')
  await expect(note).toContainText('sorted by last update')
  await expect(said).toHaveText((await note.innerText()).trim())
  expect((await said.boundingBox())!.width).toBeLessThanOrEqual(1) // out of sight
  await expect(currentPage(page)).toHaveText('2')
  await expect(rows).toHaveCount(5)
  expect(await rows.evaluateAll((els) => els.map((el) => el.getAttribute('data-row-key')))).not.toContain(keys[2])
  // The keyboard is on the quantity of the row that came after it (page 1's last row now opens page 2,
  // so that row is where it was): never on the page.
  await expect(rows.nth(3).getByTestId('inline-quantity')).toBeFocused()
  expect(await focusedRowKey(page)).toBe(keys[3])
  // Tab goes on from that row, not from the top of the page.
  await page.keyboard.press('Tab')
  expect(await focusedRowKey(page)).toBe(keys[3])
})

test('a listing saved in the Edit dialog on page 2 moves to page 1: when the dialog closes the keyboard is on the Edit button of the row that came after it, and a note names the listing', async ({
  app: page,
  host
}) => {
  await signInTo(page, host, sandbox())
  await openSellRequests(page, host)
  const keys = await openPageTwo(page)
  const rows = page.getByTestId('sell-request-row')
  const name = (await rows.nth(1).locator('.name').textContent()) ?? ''
  await rows.nth(1).getByTestId('edit-sell-request').focus()
  await page.keyboard.press('Enter')
  const dialog = page.getByTestId('edit-dialog')
  await expect(dialog).toBeVisible()
  await expect(dialog.getByTestId('edit-quantity')).toBeVisible()
  await dialog.getByTestId('edit-quantity').fill('555')
  await dialog.getByTestId('edit-quantity').press('Enter')
  await expect(dialog).toBeHidden()

  const note = page.getByTestId('sell-requests-moved')
  await expect(note).toBeVisible()
  await expect(note).toContainText(name)
  await expect(note).toContainText('moved to the top of page 1')
  await expect(currentPage(page)).toHaveText('2')
  expect(await rows.evaluateAll((els) => els.map((el) => el.getAttribute('data-row-key')))).not.toContain(keys[1])
  // On the Edit button of the row that came after it.
  await expect(rows.nth(2).getByTestId('edit-sell-request')).toBeFocused()
  expect(await focusedRowKey(page)).toBe(keys[2])
  // It stays there (not dropped to the page a moment later, as the dialog goes).
  await page.waitForTimeout(500)
  await expect(rows.nth(2).getByTestId('edit-sell-request')).toBeFocused()
})

test('the last listing on the page deleted from the keyboard: the keyboard stays in the list, on the table, not on the page', async ({ app: page, host }) => {
  await signInTo(page, host, sandbox())
  const listed = await openSellRequests(page, host)
  const target = listed[3]!
  await page.getByTestId('sell-requests-search').fill(target.sku)
  const rows = page.getByTestId('sell-request-row')
  await expect(rows).toHaveCount(1)
  await rows.first().getByTestId('delete-sell-request').focus()
  await page.keyboard.press('Enter')
  await page.getByTestId('confirm-delete').click()
  await expect(rows).toHaveCount(0)
  await expect(page.getByTestId('confirm-delete')).toBeHidden()
  const focusInTable = () => page.evaluate(() => document.activeElement?.matches('.n-data-table') ?? false)
  await expect.poll(focusInTable).toBe(true)
  // It stays there (not dropped to the page a moment later, as the dialog goes).
  await page.waitForTimeout(500)
  expect(await focusInTable()).toBe(true)
})
