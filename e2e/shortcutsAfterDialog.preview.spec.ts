/**
 * A shortcut pressed the moment a dialog closes is answered: the closing dialog, still in its leave
 * transition, no longer owns the keyboard. On a slow (throttled) page, as under load, where that
 * transition and the next key overlap.
 */
import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { throttleCpu } from './pageMeasures'

const gridCell = (page: Page, row: number, col: number) =>
  page.locator(`revogr-data[type="rgRow"]:not([col-type="rowHeaders"]):not([col-type="colPinStart"]) .rgCell[data-rgrow="${row}"][data-rgcol="${col}"]`)

test('shortcuts pressed right after Escape closes a dialog are answered (Review, Edit, Shortcuts), on a throttled CPU', async ({ app: page }) => {
  test.setTimeout(180_000)
  await page.getByTestId('start-demo').click()
  await expect(page.getByTestId('sync-last')).toBeVisible({ timeout: 60_000 })
  const shortcuts = page.getByTestId('shortcuts-dialog')

  // Review in Bulk edit, closed with Escape, then at once Ctrl+/.
  await page.getByTestId('nav-bulkEdit').click()
  await expect(gridCell(page, 0, 1)).toBeVisible()
  await gridCell(page, 0, 1).click()
  await page.keyboard.type('123')
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('bulk-summary')).toHaveAttribute('data-changes', '1')
  await throttleCpu(page, 6)
  for (let round = 0; round < 3; round++) {
    await page.getByTestId('bulk-review').click()
    await expect(page.getByTestId('bulk-preview')).toBeVisible()
    await page.keyboard.press('Escape')
    await page.keyboard.press('Control+/')
    await expect(shortcuts, `round ${round}: Ctrl+/ right after the review closed`).toBeVisible()
    await page.keyboard.press('Escape')
    await expect(shortcuts).toBeHidden()
  }

  // The shortcuts list closed with Escape, then at once a section key.
  await page.keyboard.press('Control+/')
  await expect(shortcuts).toBeVisible()
  await page.keyboard.press('Escape')
  await page.keyboard.press('Control+3')
  await expect(page.getByTestId('nav-sellRequests'), 'Ctrl+3 right after the shortcuts list closed').toHaveAttribute('aria-current', 'page')

  // Edit in Sell requests, closed with Escape, then at once a section key.
  await expect(page.getByTestId('edit-sell-request').first()).toBeVisible()
  await page.getByTestId('edit-sell-request').first().click()
  await expect(page.getByTestId('edit-dialog')).toBeVisible()
  await page.keyboard.press('Escape')
  await page.keyboard.press('Control+2')
  await expect(page.getByTestId('nav-orders'), 'Ctrl+2 right after the edit dialog closed').toHaveAttribute('aria-current', 'page')
})
