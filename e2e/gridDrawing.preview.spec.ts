/**
 * Bulk edit says the grid is being drawn while its library's code is still on its way (fetched the first
 * time a grid goes on the page): a stalled fetch left the grid's place blank, with no word of why.
 */
import { expect, test } from './fixtures'
import { gridCell } from './signedIn'

test('the grid is said to be drawing while its code is slow to come, then drawn; never a blank place', async ({ app: page }) => {
  // The grid's code is held back until the test lets it come, from the page's start.
  let letItCome = () => {}
  const held = new Promise<void>((resolve) => (letItCome = resolve))
  await page.route(/revogr-data[^/]*\.entry[^/]*\.js$/, async (route) => {
    await held
    await route.continue()
  })
  await page.reload()
  await page.getByTestId('start-demo').click()
  await expect(page.getByTestId('sync-last')).toBeVisible({ timeout: 60_000 })
  await page.keyboard.press('Control+4')
  await expect(page.getByTestId('bulk-grid-drawing')).toBeVisible()
  await expect(page.getByTestId('bulk-grid-drawing')).toContainText('Drawing the grid')
  letItCome()
  await expect(gridCell(page, 0, 1)).toBeVisible({ timeout: 15_000 })
  await expect(page.getByTestId('bulk-grid-drawing')).toBeHidden()
})
