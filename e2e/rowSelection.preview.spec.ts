/**
 * Ticking rows in Sell requests leaves the table where it was: the seller's next click, aimed at the next
 * row's check box, lands on it. (At 1024 px "Delete 1 selected" appearing in the toolbar pushed the total
 * to a row of its own and the table ~29 px down, under the pointer.) Orders has no selection.
 */
import type { Locator, Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { marketplaceForEachTest } from './marketplace'
import { layoutSettled } from './pageMeasures'
import { signInTo } from './signedIn'

const sandbox = marketplaceForEachTest({ apiKey: 'sk_live_row_selection_e2e_5Qa1', orders: 30, sellRequests: 250, seed: 17 })

test.use({ timezoneId: 'UTC', locale: 'en-US' })

const box = async (locator: Locator) => {
  const { x, y, width, height } = (await locator.boundingBox())!
  return { x: Math.round(x), y: Math.round(y), width: Math.round(width), height: Math.round(height) }
}

/** The checkbox of the row at `index` on the page. */
const checkboxOf = (page: Page, index: number) => page.getByTestId('sell-request-row').nth(index).getByRole('checkbox')

for (const width of [1024, 1366]) {
  test(`at ${width}×768, ticking a row moves neither the table nor the next row's check box: two clicks tick two rows`, async ({ app: page, host }) => {
    await page.setViewportSize({ width, height: 768 })
    await signInTo(page, host, sandbox())
    await page.getByTestId('nav-sellRequests').click()
    await expect(page.getByTestId('sell-requests-total')).toHaveText('250 sell requests')
    await expect(page.getByTestId('sell-request-row')).toHaveCount(25)
    const table = page.getByTestId('sell-requests-table')
    await layoutSettled(table) // the table measures itself once shown
    const before = { table: await box(table), second: await box(checkboxOf(page, 1)), total: await box(page.getByTestId('sell-requests-total')) }

    // The first click, then the second where the seller saw the next row's box before the first.
    await checkboxOf(page, 0).click()
    await expect(page.getByTestId('delete-selected')).toHaveText(/Delete 1 selected/)
    await expect(page.getByTestId('delete-selected')).toBeVisible()
    const after = { table: await box(table), second: await box(checkboxOf(page, 1)), total: await box(page.getByTestId('sell-requests-total')) }
    // Soft: the second click below shows what a move costs the seller.
    expect.soft(after.table, 'the table stays in place').toEqual(before.table)
    expect.soft(after.second, "the next row's check box stays in place").toEqual(before.second)
    expect.soft(after.total.y, 'the total stays on its line').toBe(before.total.y)

    await page.mouse.click(before.second.x + before.second.width / 2, before.second.y + before.second.height / 2)
    await expect(checkboxOf(page, 0)).toHaveAttribute('aria-checked', 'true')
    await expect(checkboxOf(page, 1)).toHaveAttribute('aria-checked', 'true')
    await expect(page.getByTestId('delete-selected')).toHaveText(/Delete 2 selected/)
    await expect(page.getByRole('button', { name: 'Delete 2 selected', exact: true })).toBeVisible()
    expect(await box(table), 'the table stays in place with two ticked').toEqual(before.table)

    // Unticking both puts the toolbar back as it was, the table still in place.
    await checkboxOf(page, 0).click()
    await checkboxOf(page, 1).click()
    await expect(page.getByTestId('delete-selected')).toBeHidden()
    expect(await box(table), 'the table stays in place with none ticked').toEqual(before.table)
  })
}
