/**
 * A listing changed in the Sell requests table keeps its place. Sorted by last update (as the list
 * opens), a saved price used to take its row to the top at once: the row under the seller's pointer
 * became another listing, and their next click there changed that one. Now the rows stay where they
 * were, the changed one marked, through a sync too, until the seller reads the list anew (Refresh here).
 */
import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { marketplaceForEachTest } from './marketplace'
import { syncFinishedAfter, syncStatus, viaRouter } from './fromCore'
import { openSellRequests, signInTo } from './signedIn'

const sandbox = marketplaceForEachTest({ apiKey: 'sk_live_kept_in_place_e2e_5Tq1', orders: 10, sellRequests: 30, seed: 29 })
test.use({ locale: 'en-US' })

const rowKeys = (page: Page) => page.getByTestId('sell-request-row').evaluateAll((els) => els.map((el) => el.getAttribute('data-row-key') ?? ''))

/** The middle of an element's box, where a seller clicks it. */
async function middleOf(page: Page, testId: string, row: number) {
  const box = (await page.getByTestId('sell-request-row').nth(row).getByTestId(testId).boundingBox())!
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 }
}

test('a price saved with the mouse, sorted by last update: the row at the place clicked is still that listing, and the next click there changes it, not another', async ({
  app: page,
  host
}) => {
  const market = sandbox()
  await signInTo(page, host, market)
  await openSellRequests(page, host)
  const rows = page.getByTestId('sell-request-row')
  await expect(page.getByTestId('sell-requests-sort-by')).toContainText('Last updated')
  await expect(rows.nth(10)).toBeVisible()
  const keys = await rowKeys(page)
  // A copy: the marketplace's record changes as it is edited.
  const target = { ...market.state.sellRequest(keys[4]!)! }

  // Click the fifth row's price where it is on screen, type a price a cent higher, Enter.
  const price = await middleOf(page, 'inline-price', 4)
  await page.mouse.click(price.x, price.y)
  const priceInput = page.getByTestId('inline-price-input')
  await expect(priceInput).toBeFocused()
  const newCents = target.priceCents + 1
  await priceInput.fill((newCents / 100).toFixed(2))
  await priceInput.press('Enter')
  await expect(page.locator('.n-message').filter({ hasText: `Saved the price of “${target.name}” (${target.sku})` })).toBeVisible()
  expect(market.state.sellRequest(target.id)!.priceCents).toBe(newCents)

  // The rows are where they were; the one changed is marked as such.
  expect(await rowKeys(page)).toEqual(keys)
  await expect(rows.nth(4)).toHaveAttribute('data-changed', 'true')
  await expect(rows.locator('xpath=self::*[@data-changed]')).toHaveCount(1)

  // The seller's next click, at the same height, on the quantity: it opens that listing's quantity.
  const quantity = await middleOf(page, 'inline-quantity', 4)
  expect(Math.abs(quantity.y - price.y)).toBeLessThan(4)
  await page.mouse.click(quantity.x, quantity.y)
  const quantityInput = page.getByTestId('inline-quantity-input')
  await expect(quantityInput).toBeFocused()
  await expect(rows.nth(4).getByTestId('inline-quantity-input')).toHaveCount(1)
  await quantityInput.fill(String(target.quantity + 1))
  await quantityInput.press('Enter')
  await expect(page.locator('.n-message').filter({ hasText: `Saved the quantity of “${target.name}” (${target.sku})` })).toBeVisible()
  expect(market.state.sellRequest(target.id)!.quantity).toBe(target.quantity + 1)
  expect(await rowKeys(page)).toEqual(keys)

  // A sync that brings a change made elsewhere (another listing's price, the eleventh row's) moves no row either: its new price shows in its place.
  const elsewhere = { ...market.state.sellRequest(keys[10]!)! }
  market.state.editSellRequest(elsewhere.id, { priceCents: elsewhere.priceCents + 100 }, Date.now())
  const before = (await syncStatus(host))!.lastSyncedAt
  await viaRouter(host, 'sync.run', {})
  await syncFinishedAfter(host, before)
  await expect(rows.nth(10).getByTestId('inline-price')).toHaveText(`$${((elsewhere.priceCents + 100) / 100).toFixed(2)}`)
  expect(await rowKeys(page)).toEqual(keys)

  // Refresh reads the list anew: sorted by last update, the two listings changed come first, nothing marked.
  await page.getByTestId('sell-requests-refresh').click()
  await expect(rows.nth(0)).toHaveAttribute('data-row-key', elsewhere.id)
  await expect(rows.nth(1)).toHaveAttribute('data-row-key', target.id)
  await expect(rows.locator('xpath=self::*[@data-changed]')).toHaveCount(0)
})
