/**
 * The number settings (Sync every, Keep orders for, Low stock below) behave alike, through the one field
 * they share: an emptied field says what to enter while the seller is in it, and once they leave it (or
 * press Escape) it shows the value in force again, nothing saved; a refused value says why and what is
 * still in force (too large or too small alike: none is raised to its least value quietly), and Escape
 * gives it up.
 */
import { appSettingsUpdateInput, type AppSettings } from '../electron/shared/contract'
import { expect, test } from './fixtures'
import { viaRouter } from './fromCore'

const FIELDS = [
  { id: 'settings-sync-interval', setting: 'syncIntervalMinutes', suffix: 'min', counted: 'minutes' },
  { id: 'settings-history-days', setting: 'historyDays', suffix: 'days', counted: 'days' },
  { id: 'settings-low-stock', setting: 'lowStockThreshold', suffix: 'units', counted: 'units' }
] as const

test('an emptied or refused number setting shows the value in force again when left or on Escape, and nothing is saved', async ({ app: page, host }) => {
  await page.getByTestId('start-demo').click()
  await page.getByTestId('nav-settings').click()
  const before = await viaRouter<AppSettings>(host, 'settings.get', {})

  for (const { id, setting, suffix, counted } of FIELDS) {
    const field = page.getByTestId(id)
    const error = page.getByTestId(`${id}-error`)
    const inForce = String(before[setting])
    await expect(field, id).toHaveValue(inForce)

    // Emptied and committed: said while the seller is in the field, with what is still in force.
    await field.fill('')
    await field.press('Enter')
    await expect(error, id).toContainText(`Still ${inForce} ${suffix}.`)
    await expect(field).toHaveValue('')
    // Left: the value in force again, the reason gone.
    await field.press('Tab')
    await expect(field, id).toHaveValue(inForce)
    await expect(error).toHaveCount(0)

    // Emptied, not committed, Escape: the value in force again, the keyboard still in the field.
    await field.fill('')
    await field.press('Escape')
    await expect(field, id).toHaveValue(inForce)
    await expect(field).toBeFocused()
    // Leaving it now changes nothing.
    await field.press('Tab')
    await expect(field, id).toHaveValue(inForce)

    /** Refused: the reason (`words`) and what is in force, the typed value kept; Escape gives it up. */
    const refusedThenEscape = async (value: string, words: RegExp) => {
      await field.fill(value)
      await field.press('Enter')
      await expect(error, id).toContainText(words)
      await expect(error, id).toContainText(`Still ${inForce} ${suffix}.`)
      await expect(field).toHaveValue(value)
      await field.press('Escape')
      await expect(field, id).toHaveValue(inForce)
      await expect(error).toHaveCount(0)
    }
    await refusedThenEscape('9999999', /At most/)
    // Below the least allowed: refused alike in every field, never raised to it quietly and saved.
    await refusedThenEscape('0', /At least/)
    // What JavaScript reads as a number but a seller's field does not (as price and quantity fields).
    await refusedThenEscape('1e2', /^Not a number: “1e2”\./)
    await refusedThenEscape('0x10', /^Not a number: “0x10”\./)
    // A decimal comma with a fraction, as a quantity field says it: the setting is whole, not told to write the fraction with a point.
    await refusedThenEscape('12,5', new RegExp(`^The number of ${counted} must be a whole number\\.`))
    // A whole number written so is told how to write it, as a price or quantity field tells it.
    await refusedThenEscape('12,0', /^Not a number: “12,0”\. Write decimals with a point: 12\.0\./)
    // Left instead: said the same, and the field shows what is in force.
    await field.fill('1e2')
    await field.press('Tab')
    await expect(error, id).toHaveText(`Not a number: “1e2”. Still ${inForce} ${suffix}.`)
    await expect(field, id).toHaveValue(inForce)
    // The value in force typed again and committed: nothing is wrong any more.
    await field.fill('1e2')
    await field.press('Enter')
    await field.fill(inForce)
    await field.press('Enter')
    await expect(error).toHaveCount(0)
  }

  expect(await viaRouter<AppSettings>(host, 'settings.get', {})).toEqual(before)
})

test('the dashboard says the low-stock setting in words: below 5 is "fewer than 5 units", below 1 is "none in stock"', async ({ app: page }) => {
  await page.getByTestId('start-demo').click()
  await page.getByTestId('nav-settings').click()
  const detail = page.getByTestId('figure-low-stock').getByTestId('figure-detail')
  for (const [below, words] of [
    ['5', 'fewer than 5 units (Settings)'],
    ['1', 'none in stock (Settings)']
  ] as const) {
    await page.getByTestId('nav-settings').click()
    await page.getByTestId('settings-low-stock').fill(below)
    await page.getByTestId('settings-low-stock').press('Enter')
    await page.getByTestId('nav-dashboard').click()
    await expect(detail).toHaveText(words)
  }
})

test('a number setting typed with a thousands comma reads as a quantity field reads it: "1,000" days is a thousand, saved', async ({ app: page, host }) => {
  await page.getByTestId('start-demo').click()
  await page.getByTestId('nav-settings').click()
  const field = page.getByTestId('settings-history-days')
  await field.fill('1,000')
  await field.press('Enter')
  await expect(page.getByTestId('settings-history-days-error')).toHaveCount(0)
  await expect.poll(async () => (await viaRouter<AppSettings>(host, 'settings.get', {})).historyDays).toBe(1000)
  await field.press('Tab')
  await expect(field).toHaveValue('1000')
})

test('each number setting shows its largest allowed value whole, as typed with thousands commas and as read, beside its unit and step buttons, at 1024 and 1366', async ({
  app: page
}) => {
  await page.getByTestId('start-demo').click()
  await page.getByTestId('nav-settings').click()
  const settings = appSettingsUpdateInput.shape
  for (const width of [1024, 1366]) {
    await page.setViewportSize({ width, height: 800 })
    for (const { id, setting, suffix } of FIELDS) {
      const largest = settings[setting].unwrap().maxValue!
      const field = page.getByTestId(id)
      const control = page.locator('.n-input-number').filter({ has: field })
      for (const text of [largest.toLocaleString('en-US'), String(largest)]) {
        await field.fill(text)
        await field.scrollIntoViewIfNeeded()
        const shown = await field.evaluate((input) => ({ scroll: input.scrollWidth, client: input.clientWidth }))
        expect(shown.scroll, `${id} at ${width} holding “${text}”: its text fits (${shown.scroll} ≤ ${shown.client})`).toBeLessThanOrEqual(shown.client)
        await expect(control.locator('.n-input__suffix')).toContainText(suffix)
        for (const step of ['Decrease', 'Increase']) await expect(control.getByRole('button', { name: step })).toBeInViewport({ ratio: 1 })
      }
      await field.press('Escape')
    }
  }
})
