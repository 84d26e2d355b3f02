/**
 * Keys typed the moment a dialog opens reach its field: a seller who presses Enter on "Change many…" and
 * types "-5" at once cuts prices by five percent; a lost minus sign would raise them. On a slow
 * (throttled) page, as under load, where the dialog's opening animation and the typing overlap.
 */
import { expect, test } from './fixtures'
import { throttleCpu } from './pageMeasures'

test('typed right after Enter opens it: Change many gets every key, the minus sign included; so does the Edit dialog’s price', async ({ app: page }) => {
  test.setTimeout(120_000)
  await page.getByTestId('start-demo').click()
  await expect(page.getByTestId('sync-last')).toBeVisible({ timeout: 60_000 })

  await page.keyboard.press('Control+4')
  const changeMany = page.getByTestId('bulk-change-many')
  await expect(changeMany).toBeEnabled()
  await changeMany.focus()
  await throttleCpu(page, 4)
  await page.keyboard.press('Enter')
  await page.keyboard.type('-5')
  await expect(page.getByTestId('bulk-operation-value').locator('input')).toHaveValue('-5')
  await throttleCpu(page, 1)
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('bulk-operation-dialog')).toBeHidden()

  await page.keyboard.press('Control+3')
  const edit = page.getByTestId('sell-request-row').first().getByTestId('edit-sell-request')
  await expect(edit).toBeVisible()
  await edit.focus()
  await throttleCpu(page, 4)
  await page.keyboard.press('Enter')
  await page.keyboard.type('123.45')
  await expect(page.getByTestId('edit-price')).toHaveValue('123.45')
})
