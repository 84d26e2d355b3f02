/**
 * A change the marketplace made but answered unreadably (a 200 whose body is cut off): never reported as
 * "not changed" and never rolled back on screen. Read back from the marketplace, the listing shows its
 * new value as saved; when even reading back fails, the new value stays and the seller is told it may
 * have been changed (most likely was). In the table and in the Edit dialog.
 */
import type { Page } from '@playwright/test'
import type { ListResult } from '../electron/shared/contract'
import type { SellRequest } from '../electron/shared/domain'
import type { PreviewHost } from '../electron/preview/host'
import { expect, test } from './fixtures'
import { readSnapshot, syncFinishedAfter, viaRouter } from './fromCore'
import { marketplaceForEachTest } from './marketplace'

const KEY = 'sk_live_unconfirmed_e2e_7Tq2'
const sandbox = marketplaceForEachTest({ apiKey: KEY, orders: 40, sellRequests: 40, seed: 13 })

async function signInToSellRequests(page: Page, host: PreviewHost): Promise<SellRequest[]> {
  await page.getByTestId('base-url').fill(sandbox().baseUrl)
  await page.getByTestId('api-key').fill(KEY)
  await page.getByTestId('sign-in').click()
  await expect(page.getByTestId('nav-orders')).toBeVisible()
  await syncFinishedAfter(host, null)
  await page.getByTestId('nav-sellRequests').click()
  await expect(page.getByTestId('sell-request-row').first()).toBeVisible()
  return (await viaRouter<ListResult<SellRequest>>(host, 'sellRequests.list', { take: 5 })).rows
}

const money = (cents: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(cents / 100)
const snapshotRow = (host: PreviewHost, id: string) => readSnapshot(host, (snapshot) => snapshot.sellRequest(id))

test('an edit in the table answered unreadably is read back: the new price shows as saved, not rolled back', async ({ app: page, host }) => {
  const [target] = await signInToSellRequests(page, host)
  const row = () => page.getByTestId('sell-request-row').filter({ hasText: target!.sku })

  // A move small enough to save on the first Enter (no warning to confirm).
  const priceCents = target!.priceCents + 1_234
  sandbox().injectNext('malformed', 1)
  await row().getByTestId('inline-price').click()
  await page.getByTestId('inline-price-input').fill((priceCents / 100).toFixed(2))
  await page.getByTestId('inline-price-input').press('Enter')
  await expect(page.getByText(`Saved the price of “${target!.name}” (${target!.sku}).`)).toBeVisible({ timeout: 15_000 })
  await expect(page.getByText(/was not changed/)).toHaveCount(0)
  await expect(row().getByTestId('inline-price')).toHaveText(money(priceCents))
  expect(sandbox().state.sellRequest(target!.id)!.priceCents).toBe(priceCents)
  expect(snapshotRow(host, target!.id)!.priceCents, 'read back into the snapshot').toBe(priceCents)
})

test('an edit answered unreadably that cannot be read back either keeps the new value and says it may have been changed: in the table and in the dialog', async ({
  app: page,
  host
}) => {
  const [first, second] = await signInToSellRequests(page, host)
  const rowOf = (listing: SellRequest) => page.getByTestId('sell-request-row').filter({ hasText: listing.sku })

  // The PATCH's answer and the read-back's page both cut off, the page also when asked again.
  sandbox().injectNext('malformed', 3)
  await rowOf(first!).getByTestId('inline-quantity').click()
  await page.getByTestId('inline-quantity-input').fill(String(first!.quantity + 3))
  await page.getByTestId('inline-quantity-input').press('Enter')
  await expect(page.getByText(`The quantity of “${first!.name}” (${first!.sku}) may have been changed: `)).toBeVisible({ timeout: 15_000 })
  await expect(page.getByText(/so it was most likely made/).first()).toBeVisible()
  await expect(page.getByText(/was not changed/)).toHaveCount(0)
  // Not a refusal: the cell does not open again to send it once more.
  await expect(page.getByTestId('inline-quantity-input')).toHaveCount(0)
  await expect(rowOf(first!).getByTestId('inline-quantity')).toHaveText(String(first!.quantity + 3))
  expect(sandbox().state.sellRequest(first!.id)!.quantity).toBe(first!.quantity + 3)

  const priceCents = second!.priceCents - 1_000
  sandbox().injectNext('malformed', 3)
  await rowOf(second!).getByTestId('edit-sell-request').click()
  const dialog = page.getByTestId('edit-dialog')
  await expect(dialog).toBeVisible()
  await page.getByTestId('edit-price').fill((priceCents / 100).toFixed(2))
  await page.getByTestId('edit-save').click()
  await expect(dialog).toBeHidden({ timeout: 15_000 })
  await expect(page.getByText(`“${second!.name}” may have been changed: `)).toBeVisible()
  await expect(rowOf(second!).getByTestId('inline-price')).toHaveText(money(priceCents))
  expect(sandbox().state.sellRequest(second!.id)!.priceCents).toBe(priceCents)
})
