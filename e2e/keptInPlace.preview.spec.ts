/**
 * A listing changed in the Sell requests table keeps its place. Sorted by last update (as the list
 * opens), a saved price used to take its row to the top at once: the row under the seller's pointer
 * became another listing, and their next click there changed that one. Now the rows stay where they
 * were, the changed one marked, through a sync too, until the seller reads the list anew (Refresh here)
 * or leaves the section. Kept in place, the rows are still the page as read: a listing deleted elsewhere
 * goes, and the page fills up after a delete.
 */
import type { Page } from '@playwright/test'
import type { ListResult } from '../electron/shared/contract'
import type { SellRequest } from '../electron/shared/domain'
import type { PreviewHost } from '../electron/preview/host'
import { expect, test } from './fixtures'
import { marketplaceForEachTest } from './marketplace'
import { numberIn, syncFinishedAfter, syncStatus, viaRouter } from './fromCore'
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
  const { market, rows } = await signedInToListings(page, host)
  await expect(page.getByTestId('sell-requests-sort-by')).toContainText('Last updated')
  await expect(rows.nth(10)).toBeVisible()
  const keys = await rowKeys(page)
  // A copy: the marketplace's record changes as it is edited.
  const target = { ...market.state.sellRequest(keys[4]!)! }

  // Click a row's price where it is on screen (one well down the page), type a price a cent higher, Enter.
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

  // A sync that brings a change made elsewhere (the price of another listing, further down) moves no row either: its new price shows in its place.
  const elsewhere = { ...market.state.sellRequest(keys[10]!)! }
  market.state.editSellRequest(elsewhere.id, { priceCents: elsewhere.priceCents + 100 }, Date.now())
  const before = (await syncStatus(host))!.lastSyncedAt
  await viaRouter(host, 'sync.run', {})
  await syncFinishedAfter(host, before)
  await expect(rows.nth(10).getByTestId('inline-price')).toHaveText(`$${((elsewhere.priceCents + 100) / 100).toFixed(2)}`)
  expect(await rowKeys(page)).toEqual(keys)

  // Refresh reads the list anew: sorted by last update, the listings changed come first, nothing marked.
  await page.getByTestId('sell-requests-refresh').click()
  await expect(rows.nth(0)).toHaveAttribute('data-row-key', elsewhere.id)
  await expect(rows.nth(1)).toHaveAttribute('data-row-key', target.id)
  await expect(rows.locator('xpath=self::*[@data-changed]')).toHaveCount(0)
})

/** Saves a price a cent higher, typed in the price cell of the given row (from the top); answers that listing as it was. */
async function raisePrice(page: Page, market: ReturnType<typeof sandbox>, row: number) {
  const rows = page.getByTestId('sell-request-row')
  const target = { ...market.state.sellRequest((await rowKeys(page))[row]!)! }
  await rows.nth(row).getByTestId('inline-price').click()
  const input = page.getByTestId('inline-price-input')
  await input.fill(((target.priceCents + 1) / 100).toFixed(2))
  await input.press('Enter')
  await expect(page.locator('.n-message').filter({ hasText: `Saved the price of “${target.name}” (${target.sku})` })).toBeVisible()
  await expect(rows.nth(row)).toHaveAttribute('data-changed', 'true')
  return target
}

/** What the snapshot holds for a page of the list as it opens (sorted by last update), the first unless told. */
const pageRead = async (host: PreviewHost, page = 1) =>
  (await viaRouter<ListResult<SellRequest>>(host, 'sellRequests.list', { page, take: 25, sortBy: 'updated', sortDir: 'DESC' })).rows.map((row) => row.id)

/** Signed in to this test's marketplace, with Sell requests open at its first page. */
async function signedInToListings(page: Page, host: PreviewHost) {
  const market = sandbox()
  await signInTo(page, host, market)
  await openSellRequests(page, host)
  return { market, rows: page.getByTestId('sell-request-row') }
}

/** Signed in, Sell requests open at its first page, and one listing's price raised there: no row has moved. */
async function oneListingEdited(page: Page, host: PreviewHost) {
  const { market, rows } = await signedInToListings(page, host)
  await expect(rows).toHaveCount(25)
  const keys = await rowKeys(page)
  const edited = await raisePrice(page, market, 4)
  expect(await rowKeys(page)).toEqual(keys)
  return { market, rows, keys, edited }
}

async function syncNow(host: PreviewHost) {
  const before = (await syncStatus(host))!.lastSyncedAt
  await viaRouter(host, 'sync.run', {})
  await syncFinishedAfter(host, before)
}

test('rows kept in place are still the page as read: a listing deleted elsewhere goes at the next sync, and a delete here leaves the page full', async ({
  app: page,
  host
}) => {
  const { market, rows, keys, edited } = await oneListingEdited(page, host)

  // Deleted on the marketplace by the seller's other tool: the sync drops it from the snapshot, and the
  // list drops it too; the listing the next page began with fills the page, at its end.
  const goneElsewhere = keys[7]!
  expect(market.state.deleteSellRequest(goneElsewhere)).toBe(true)
  await syncNow(host)
  const afterSync = await pageRead(host)
  expect(afterSync).not.toContain(goneElsewhere)
  const stillShown = keys.filter((key) => key !== goneElsewhere)
  const filler = afterSync.filter((key) => !keys.includes(key))
  expect(filler).toHaveLength(1)
  await expect.poll(() => rowKeys(page)).toEqual([...stillShown, ...filler])
  await expect.poll(() => numberIn(page, 'sell-requests-total')).toBe(market.state.sellRequests.length)
  // The changed listing is still where it was, marked.
  await expect(rows.nth(4)).toHaveAttribute('data-row-key', edited.id)
  await expect(rows.nth(4)).toHaveAttribute('data-changed', 'true')

  // Deleted here: gone from the list, and the page still full (the next listing fills it), the others in place.
  const deletedHere = stillShown[10]!
  await page.locator(`[data-testid="sell-request-row"][data-row-key="${deletedHere}"]`).getByTestId('delete-sell-request').click()
  await page.getByTestId('confirm-delete').click()
  await expect(page.locator('.n-message').filter({ hasText: 'Deleted the listing' })).toBeVisible()
  const afterDelete = await pageRead(host)
  const nextFiller = afterDelete.filter((key) => !keys.includes(key) && !filler.includes(key))
  expect(nextFiller).toHaveLength(1)
  await expect.poll(() => rowKeys(page)).toEqual([...stillShown.filter((key) => key !== deletedHere), ...filler, ...nextFiller])
  await expect(rows).toHaveCount(25)
  await expect.poll(() => numberIn(page, 'sell-requests-total')).toBe(market.state.sellRequests.length)
  await expect(rows.nth(4)).toHaveAttribute('data-row-key', edited.id)
})

test('a listing changed on page 2, kept in place though the read no longer brings it, goes once deleted on the marketplace and synced; the other rows keep their order', async ({
  app: page,
  host
}) => {
  const { market, rows } = await signedInToListings(page, host)
  await expect(rows).toHaveCount(25)
  await page.getByTestId('sell-requests-table').locator('.n-pagination-item').filter({ hasText: /^2$/ }).click()
  await expect(page.getByTestId('sell-requests-table').locator('.n-pagination-item--active')).toHaveText('2')
  await expect(rows).toHaveCount(5)
  const keys = await rowKeys(page)
  const edited = await raisePrice(page, market, 1)

  // Sorted by last update, the change took the listing to the first page: the second page's read no
  // longer brings it, and brings the listing the first page pushed down instead. A sync shows that read:
  // the changed listing keeps its place, the newcomer comes in at the end.
  await syncNow(host)
  const afterEdit = await pageRead(host, 2)
  expect(afterEdit).not.toContain(edited.id)
  const pushedDown = afterEdit.filter((key) => !keys.includes(key))
  expect(pushedDown).toHaveLength(1)
  await expect.poll(() => rowKeys(page)).toEqual([...keys, ...pushedDown])
  await expect(rows.nth(1)).toHaveAttribute('data-changed', 'true')

  // Deleted on the marketplace by the seller's other tool, and a sync drops it from the snapshot: no
  // longer a listing, it goes from the page too; the others stay in their order (the one pushed down is
  // back on the first page).
  expect(market.state.deleteSellRequest(edited.id)).toBe(true)
  await syncNow(host)
  const afterDelete = await pageRead(host, 2)
  expect(afterDelete).toEqual(keys.filter((key) => key !== edited.id))
  await expect.poll(() => rowKeys(page)).toEqual(afterDelete)
  await expect(rows.locator('xpath=self::*[@data-changed]')).toHaveCount(0)
  await expect.poll(() => numberIn(page, 'sell-requests-total')).toBe(market.state.sellRequests.length)

  // What the list asked the core: which listings the snapshot still holds. An id that is none is refused.
  expect(await viaRouter(host, 'sellRequests.existing', { ids: [keys[0]!, edited.id] })).toEqual({ ids: [keys[0]] })
  await expect(viaRouter(host, 'sellRequests.existing', { ids: ['not-an-id'] })).rejects.toThrow('That is not a sell request id')
})

test('leaving Sell requests lets the rows kept in place move: back there, the list is sorted as set, with the listings that came meanwhile', async ({
  app: page,
  host
}) => {
  const { market, rows, edited } = await oneListingEdited(page, host)

  // Away on the dashboard, a listing is created elsewhere and a sync brings it.
  await page.getByTestId('nav-dashboard').click()
  await expect(page.getByTestId('sell-requests-table')).toBeHidden()
  const now = Date.now()
  const created = { ...market.state.sellRequests[0]!, id: '00000000-0000-4000-8000-00000000bbbb', sku: 'NEW-LISTING', createdAt: now, updatedAt: now }
  market.state.addSellRequest(created)
  await syncNow(host)

  // Back: sorted by last update, the new listing first, then the one changed; nothing marked.
  await page.getByTestId('nav-sellRequests').click()
  await expect(rows.nth(0)).toHaveAttribute('data-row-key', created.id)
  await expect(rows.nth(1)).toHaveAttribute('data-row-key', edited.id)
  await expect(rows.locator('xpath=self::*[@data-changed]')).toHaveCount(0)
  expect(await rowKeys(page)).toEqual(await pageRead(host))
})

test('the mark on a changed listing names each thing that shows the list anew, the page size among them', async ({ app: page, host }) => {
  const { rows, edited } = await oneListingEdited(page, host)
  await expect(rows.nth(4)).toHaveAttribute(
    'title',
    'You changed this listing: it keeps its place until you refresh, sort, filter, search, change the page or page size, or leave Sell requests.'
  )

  // A page size chosen reads the list anew: sorted by last update, the listing changed comes first, unmarked.
  await page.getByTestId('sell-requests-table').locator('.n-pagination .n-base-selection').click()
  await page.locator('.n-base-select-option').filter({ hasText: '50 / page' }).click()
  await expect(rows).toHaveCount(30)
  await expect(rows.nth(0)).toHaveAttribute('data-row-key', edited.id)
  await expect(rows.locator('xpath=self::*[@data-changed]')).toHaveCount(0)
})
