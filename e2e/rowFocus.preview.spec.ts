/**
 * The keyboard stays with the row it works on. Sell requests are sorted by last update, yet a listing
 * whose quantity is saved from the table keeps its place until the seller reads the list anew (the row
 * at the place the seller works on stays the listing they changed): the keyboard stays on the cell that
 * was saved, and Tab goes on from there. Orders are sorted newest first, so new orders from a sync push
 * the rows down: the focused order stays focused. An order's items shown and hidden from the keyboard
 * (→ and ←) leave the keyboard on its row.
 */
import type { Locator, Page } from '@playwright/test'
import type { SellRequest } from '../electron/shared/domain'
import { expect, test } from './fixtures'
import { marketplaceForEachTest } from './marketplace'
import { viaRouter } from './fromCore'
import type { PreviewHost } from '../electron/preview/host'
import { openSellRequests, signInTo } from './signedIn'

const sandbox = marketplaceForEachTest({ apiKey: 'sk_live_row_focus_e2e_3Kd8', orders: 10, sellRequests: 30, seed: 23 })
test.use({ locale: 'en-US' })

const rowOf = (page: Page, listing: SellRequest) => page.getByTestId('sell-request-row').filter({ hasText: listing.sku })

test('a quantity saved from the keyboard keeps its row in place, and the keyboard on it', async ({ app: page, host }) => {
  await signInTo(page, host, sandbox())
  const listed = await openSellRequests(page, host)
  const target = listed[3]!
  const rows = page.getByTestId('sell-request-row')
  await expect(rows.nth(3)).toContainText(target.sku)

  // Focus the quantity of a row a few down the page, Enter opens it, type, Enter saves.
  await rowOf(page, target).getByTestId('inline-quantity').focus()
  await page.keyboard.press('Enter')
  const typed = String(target.quantity + 7)
  await page.keyboard.type(typed)
  await page.keyboard.press('Enter')

  // Saved: the row is still in the same place (marked as changed), and the focus is on its quantity.
  await expect(page.locator('.n-message').filter({ hasText: 'Saved the quantity' })).toBeVisible()
  await expect(rows.nth(3).getByTestId('inline-quantity')).toHaveText(typed)
  await expect(rows.nth(3)).toContainText(target.sku)
  await expect(rows.nth(3)).toHaveAttribute('data-changed', 'true')
  await expect(rows.nth(3).getByTestId('inline-quantity')).toBeFocused()
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
  // The new orders are listed above it now; the focus is still on that order, as many rows further down.
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

/** Opens the second page of Sell requests (the listings the first page has no room for); answers its rows' keys. */
async function openPageTwo(page: Page): Promise<string[]> {
  await page.getByTestId('sell-requests-table').locator('.n-pagination-item').filter({ hasText: /^2$/ }).click()
  await expect(currentPage(page)).toHaveText('2')
  const rows = page.getByTestId('sell-request-row')
  await expect(rows).toHaveCount(5)
  return rows.evaluateAll((els) => els.map((el) => el.getAttribute('data-row-key') ?? ''))
}

/** A quantity as a cell shows it (with a thousands separator) as a number. */
const quantityIn = (text: string | null) => Number((text ?? '').replace(/,/g, ''))

const focusedRowKey = (page: Page) =>
  page.evaluate(() => document.activeElement?.closest('[data-testid="sell-request-row"]')?.getAttribute('data-row-key') ?? document.activeElement?.tagName)

test('a quantity saved from the keyboard on page 2 keeps its row there, with the keyboard on it; paging on shows it first on page 1 (last updated)', async ({
  app: page,
  host
}) => {
  await signInTo(page, host, sandbox())
  await openSellRequests(page, host)
  const keys = await openPageTwo(page)
  const rows = page.getByTestId('sell-request-row')
  const target = rows.nth(2)
  // A few more in stock: a change no warning rule asks about.
  const typed = String(quantityIn(await target.getByTestId('inline-quantity').textContent()) + 7)
  await target.getByTestId('inline-quantity').focus()
  await page.keyboard.press('Enter')
  await page.keyboard.type(typed)
  await page.keyboard.press('Enter')

  // Saved: the second page shows the same rows in the same places, the changed one marked, the keyboard on it.
  await expect(page.locator('.n-message').filter({ hasText: 'Saved the quantity' })).toBeVisible()
  await expect(rows.nth(2).getByTestId('inline-quantity')).toHaveText(typed)
  await expect(currentPage(page)).toHaveText('2')
  expect(await rows.evaluateAll((els) => els.map((el) => el.getAttribute('data-row-key')))).toEqual(keys)
  await expect(rows.nth(2)).toHaveAttribute('data-changed', 'true')
  await expect(rows.nth(2)).toHaveAttribute(
    'title',
    /keeps its place until you refresh, sort, filter, search, change the page or page size, or leave Sell requests/
  )
  await expect(rows.nth(2).getByTestId('inline-quantity')).toBeFocused()
  // Tab goes on from that row, not from the top of the page.
  await page.keyboard.press('Tab')
  expect(await focusedRowKey(page)).toBe(keys[2])

  // The seller pages back: the list is read as sorted, the listing first on the first page, no longer marked.
  await page.getByTestId('sell-requests-table').locator('.n-pagination-item').filter({ hasText: /^1$/ }).click()
  await expect(currentPage(page)).toHaveText('1')
  await expect(rows.first()).toHaveAttribute('data-row-key', keys[2]!)
  await expect(page.locator('[data-testid="sell-request-row"][data-changed]')).toHaveCount(0)
})

test('a listing saved in the Edit dialog on page 2 keeps its place: when the dialog closes the keyboard is back on its Edit button', async ({
  app: page,
  host
}) => {
  await signInTo(page, host, sandbox())
  await openSellRequests(page, host)
  const keys = await openPageTwo(page)
  const rows = page.getByTestId('sell-request-row')
  await rows.nth(1).getByTestId('edit-sell-request').focus()
  await page.keyboard.press('Enter')
  const dialog = page.getByTestId('edit-dialog')
  await expect(dialog).toBeVisible()
  await expect(dialog.getByTestId('edit-quantity')).toBeVisible()
  const typed = String(quantityIn(await rows.nth(1).getByTestId('inline-quantity').textContent()) + 5)
  await dialog.getByTestId('edit-quantity').fill(typed)
  await dialog.getByTestId('edit-quantity').press('Enter')
  await expect(dialog).toBeHidden()

  await expect(rows.nth(1).getByTestId('inline-quantity')).toHaveText(typed)
  await expect(currentPage(page)).toHaveText('2')
  expect(await rows.evaluateAll((els) => els.map((el) => el.getAttribute('data-row-key')))).toEqual(keys)
  await expect(rows.nth(1)).toHaveAttribute('data-changed', 'true')
  await expect(rows.nth(1).getByTestId('edit-sell-request')).toBeFocused()
  // It stays there (not dropped to the page a moment later, as the dialog goes).
  await page.waitForTimeout(500)
  await expect(rows.nth(1).getByTestId('edit-sell-request')).toBeFocused()
})

/**
 * Deletes the only listing a search leaves, from the keyboard, and checks the keyboard ends on the table
 * and stays there (not dropped to the page a moment later, as the dialog goes). `meanwhile` runs while
 * the question is open, before Delete is clicked.
 */
async function lastListingDeleted(page: Page, host: PreviewHost, meanwhile: () => Promise<void> = async () => {}) {
  await signInTo(page, host, sandbox())
  const listed = await openSellRequests(page, host)
  await page.getByTestId('sell-requests-search').fill(listed[3]!.sku)
  const rows = page.getByTestId('sell-request-row')
  await expect(rows).toHaveCount(1)
  await rows.first().getByTestId('delete-sell-request').focus()
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('cancel-delete')).toBeFocused()
  await meanwhile()
  await page.getByTestId('confirm-delete').click()
  await expect(rows).toHaveCount(0)
  await expect(page.getByTestId('confirm-delete')).toBeHidden()
  const focusInTable = () => page.evaluate(() => document.activeElement?.matches('.n-data-table') ?? false)
  await expect.poll(focusInTable).toBe(true)
  await page.waitForTimeout(500)
  expect(await focusInTable()).toBe(true)
}

test('the last listing on the page deleted from the keyboard: the keyboard stays in the list, on the table, not on the page', async ({ app: page, host }) => {
  await lastListingDeleted(page, host)
})

test('the last listing on the page deleted while frames come late and the list is read again slowly: the keyboard still ends on the table', async ({
  app: page,
  host
}) => {
  // As on a loaded machine: the confirm button turns busy and lets the focus go; the next frame comes
  // after the marketplace's answer took the row away, while the dialog, still reading the list, holds on.
  await lastListingDeleted(page, host, async () => {
    await page.route('**/rpc/sellRequests.list', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1_500))
      await route.continue()
    })
    await page.evaluate(() => {
      const draw = window.requestAnimationFrame.bind(window)
      window.requestAnimationFrame = (callback) => window.setTimeout(() => draw(callback), 300)
    })
  })
})

test('an order row from the keyboard: → shows its items under it and ← hides them, the keyboard staying on the row and a screen reader told; ↓ passes over the items to the next order', async ({
  app: page,
  host
}) => {
  await signInTo(page, host, sandbox())
  await page.getByTestId('nav-orders').click()
  const rows = page.getByTestId('order-row')
  await expect(rows.nth(2)).toBeVisible()
  /** What the table shows right under a row: the order's items, when they are shown. */
  const itemsUnder = (row: Locator) => row.locator('xpath=following-sibling::tr[1]').getByTestId('order-items')
  const items = page.getByTestId('order-items')
  /** A screen reader hears whether the items are shown as the row's description, and the change said aloud. */
  const [SHOWN, HIDDEN] = [/items are shown under it/, /shows its items/]
  const said = page.getByTestId('orders-items-said')

  // The keyboard onto the second order, from the first.
  await rows.first().focus()
  await page.keyboard.press('ArrowDown')
  const row = rows.nth(1)
  await expect(row).toBeFocused()
  await expect(items).toHaveCount(0)

  await page.keyboard.press('ArrowRight')
  await expect(itemsUnder(row)).toBeVisible()
  await expect(itemsUnder(row).getByTestId('order-item').first()).toBeVisible()
  await expect(items).toHaveCount(1)
  await expect(row).toHaveAccessibleDescription(SHOWN)
  const orderNo = (await row.getByTestId('order-no').textContent())!.trim()
  await expect(said).toHaveText(`Items of order ${orderNo} shown`)
  await expect(row).toBeFocused()
  // Shown already: → again changes nothing, and no drawer opens.
  await page.keyboard.press('ArrowRight')
  await expect(items).toHaveCount(1)
  await expect(page.getByTestId('drawer-order-no')).toBeHidden()

  // ← with a modifier is not the plain key: the items stay.
  await page.keyboard.press('Shift+ArrowLeft')
  await expect(row).toHaveAccessibleDescription(SHOWN)
  await page.keyboard.press('ArrowLeft')
  await expect(items).toHaveCount(0)
  await expect(row).toHaveAccessibleDescription(HIDDEN)
  await expect(said).toHaveText(`Items of order ${orderNo} hidden`)
  await expect(row).toBeFocused()

  // Shown again, ↓ goes over them to the next order, ↑ back to this one, and its items stay shown.
  await page.keyboard.press('ArrowRight')
  await expect(itemsUnder(row)).toBeVisible()
  await page.keyboard.press('ArrowDown')
  await expect(rows.nth(2)).toBeFocused()
  await expect(rows.nth(2)).toHaveAccessibleDescription(HIDDEN)
  await page.keyboard.press('ArrowUp')
  await expect(row).toBeFocused()
  await expect(row).toHaveAccessibleDescription(SHOWN)
  await expect(itemsUnder(row)).toBeVisible()
  // Tab from the row goes into its items first (the tracking link there), Shift+Tab comes back to the row.
  const link = itemsUnder(row).getByRole('link').first()
  await expect(link).toBeVisible()
  await page.keyboard.press('Tab')
  await expect(link).toBeFocused()
  await page.keyboard.press('Shift+Tab')
  await expect(row).toBeFocused()

  // The items of the orders below shown too: the rows stay one Tab stop, and Tab from the row goes into
  // its own items only, then on past the list.
  for (const next of [2, 3, 4, 5]) {
    await page.keyboard.press('ArrowDown')
    await expect(rows.nth(next)).toBeFocused()
    await page.keyboard.press('ArrowRight')
    await expect(itemsUnder(rows.nth(next))).toBeVisible()
  }
  expect(await items.getByRole('link').count(), 'links in the items of other orders').toBeGreaterThan(await itemsUnder(row).getByRole('link').count())
  for (let back = 0; back < 4; back++) await page.keyboard.press('ArrowUp')
  await expect(row).toBeFocused()
  for (const own of await itemsUnder(row).getByRole('link').all()) {
    await page.keyboard.press('Tab')
    await expect(own).toBeFocused()
  }
  await page.keyboard.press('Tab')
  expect(await page.evaluate(() => document.activeElement?.closest('[data-testid="order-items"], [data-testid="order-row"]') ?? null)).toBeNull()
})
