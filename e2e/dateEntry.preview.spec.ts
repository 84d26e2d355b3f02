/**
 * Days as a seller types them into the Orders list's From and To: ISO ("2026-06-01") and the locale's
 * numbers ("6/1/2026") set the range as the calendar's own form does, and what is no day is said, the
 * range left as it was. The date picker alone read only its display form ("Jun 1, 2026") and dropped
 * the rest without a word (src/typedDay.ts, src/composables/useTypedDayRange.ts).
 */
import type { Order, Page as ListPage } from '../electron/shared/domain'
import { expect, test } from './fixtures'
import { numberIn, viaRouter } from './fromCore'
import { marketplaceForEachTest } from './marketplace'
import { signInTo } from './signedIn'

const KEY = 'sk_live_dates_e2e_7Rq2'
const sandbox = marketplaceForEachTest({ apiKey: KEY, orders: 120, sellRequests: 10, seed: 43 })

test.use({ locale: 'en-US', timezoneId: 'UTC' })

const DAY_MS = 86_400_000
/** The UTC day `daysAgo` days before today, at its start. */
const dayStart = (daysAgo: number) => {
  const day = new Date(Date.now() - daysAgo * DAY_MS)
  day.setUTCHours(0, 0, 0, 0)
  return day
}
const shown = (day: Date) => day.toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' })

test('From and To take days typed as ISO or as the locale’s numbers, by Confirm or Enter, and say what is no day, leaving the range as it was', async ({
  app: page,
  host
}) => {
  await signInTo(page, host, sandbox())
  await page.getByTestId('nav-orders').click()
  await expect(page.getByTestId('order-row').first()).toBeVisible()
  const [from, to] = [dayStart(40), dayStart(10)]
  const expected = await viaRouter<ListPage<Order>>(host, 'orders.list', {
    take: 1,
    fromDate: from.toISOString(),
    toDate: new Date(to.getTime() + DAY_MS - 1).toISOString()
  })
  const all = await numberIn(page, 'orders-total')
  expect(expected.total, 'the fixture has orders on both sides of the range').toBeGreaterThan(0)
  expect(expected.total).toBeLessThan(all)

  // From as ISO, To as the US writes it, then the calendar's Confirm.
  const inputs = page.getByTestId('orders-date-range').locator('input')
  await inputs.nth(0).click()
  await page.keyboard.type(from.toISOString().slice(0, 10))
  await page.keyboard.press('Tab')
  await page.keyboard.type(`${to.getUTCMonth() + 1}/${to.getUTCDate()}/${to.getUTCFullYear()}`)
  await page.locator('.n-date-panel-actions button', { hasText: 'Confirm' }).click()
  await expect.poll(() => numberIn(page, 'orders-total')).toBe(expected.total)
  await expect(inputs.nth(0)).toHaveValue(shown(from))
  await expect(inputs.nth(1)).toHaveValue(shown(to))

  // To typed again with dashes, and Enter.
  const later = dayStart(5)
  const widened = await viaRouter<ListPage<Order>>(host, 'orders.list', {
    take: 1,
    fromDate: from.toISOString(),
    toDate: new Date(later.getTime() + DAY_MS - 1).toISOString()
  })
  expect(widened.total, 'the fixture has orders in the five days added').toBeGreaterThan(expected.total)
  await inputs.nth(1).click()
  await page.keyboard.press('Control+a')
  await page.keyboard.type(`${later.getUTCMonth() + 1}-${later.getUTCDate()}-${later.getUTCFullYear()}`)
  await page.keyboard.press('Enter')
  await expect.poll(() => numberIn(page, 'orders-total')).toBe(widened.total)
  await expect(inputs.nth(1)).toHaveValue(shown(later))
  await page.keyboard.press('Escape')

  // What is no day: said, and the range stays.
  await inputs.nth(0).click()
  await page.keyboard.press('Control+a')
  await page.keyboard.type('2026-02-30')
  await page.getByTestId('orders-search').click()
  await expect(page.locator('.n-message').filter({ hasText: '“2026-02-30” is not a day Seller Desk can read.' })).toBeVisible()
  await expect(inputs.nth(0)).toHaveValue(shown(from))
  await expect(inputs.nth(1)).toHaveValue(shown(later))
  expect(await numberIn(page, 'orders-total')).toBe(widened.total)
})
