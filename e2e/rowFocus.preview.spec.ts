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
