/**
 * Days as a seller types them into the Orders list's From and To: ISO ("2026-06-01") and the locale's
 * numbers ("6/1/2026") set the range as the calendar's own form does, and what is no day is said, the
 * range left as it was. The date picker alone read only its display form ("Jun 1, 2026") and dropped
 * the rest without a word (src/typedDay.ts, src/composables/useTypedDayRange.ts).
 */
import type { Locator, Page as BrowserPage } from '@playwright/test'
import type { Order, Page as ListPage } from '../electron/shared/domain'
import type { PreviewHost } from '../electron/preview/host'
import { expect, test } from './fixtures'
import { numberIn, viaRouter } from './fromCore'
import { marketplaceForEachTest } from './marketplace'
import { signInTo } from './signedIn'

const KEY = 'sk_live_dates_e2e_7Rq2'
const sandbox = marketplaceForEachTest({ apiKey: KEY, orders: 120, sellRequests: 10, seed: 43 })

test.use({ locale: 'en-US', timezoneId: 'UTC', hostOptions: { dateLocale: 'en-US' } })

const DAY_MS = 86_400_000
/** The UTC day `daysAgo` days before today, at its start. */
const dayStart = (daysAgo: number) => {
  const day = new Date(Date.now() - daysAgo * DAY_MS)
  day.setUTCHours(0, 0, 0, 0)
  return day
}
const shown = (day: Date) => day.toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' })

/** Signed in to this test's marketplace, on Orders with its rows shown: the date range's From and To fields. */
async function ordersShown(page: BrowserPage, host: PreviewHost) {
  await signInTo(page, host, sandbox())
  await page.getByTestId('nav-orders').click()
  await expect(page.getByTestId('order-row').first()).toBeVisible()
  return page.getByTestId('orders-date-range').locator('input')
}

/** How many orders the core finds from the start of `from` to the end of `to` (UTC days). */
const ordersBetween = async (host: PreviewHost, from: Date, to: Date) =>
  (await viaRouter<ListPage<Order>>(host, 'orders.list', { take: 1, fromDate: from.toISOString(), toDate: new Date(to.getTime() + DAY_MS - 1).toISOString() }))
    .total

test('From and To take days typed as ISO or as the locale’s numbers, by Confirm or Enter, and say what is no day, leaving the range as it was', async ({
  app: page,
  host
}) => {
  const inputs = await ordersShown(page, host)
  const [from, to] = [dayStart(40), dayStart(10)]
  const expected = await ordersBetween(host, from, to)
  const all = await numberIn(page, 'orders-total')
  expect(expected, 'the fixture has orders on both sides of the range').toBeGreaterThan(0)
  expect(expected).toBeLessThan(all)

  // From as ISO, To as the US writes it, then the calendar's Confirm.
  await inputs.nth(0).click()
  await page.keyboard.type(from.toISOString().slice(0, 10))
  await page.keyboard.press('Tab')
  await page.keyboard.type(`${to.getUTCMonth() + 1}/${to.getUTCDate()}/${to.getUTCFullYear()}`)
  await page.locator('.n-date-panel-actions button', { hasText: 'Confirm' }).click()
  await expect.poll(() => numberIn(page, 'orders-total')).toBe(expected)
  await expect(inputs.nth(0)).toHaveValue(shown(from))
  await expect(inputs.nth(1)).toHaveValue(shown(to))

  // To typed again with dashes, and Enter.
  const later = dayStart(5)
  const widened = await ordersBetween(host, from, later)
  expect(widened, 'the fixture has orders in the five days added').toBeGreaterThan(expected)
  await inputs.nth(1).click()
  await page.keyboard.press('Control+a')
  await page.keyboard.type(`${later.getUTCMonth() + 1}-${later.getUTCDate()}-${later.getUTCFullYear()}`)
  await page.keyboard.press('Enter')
  await expect.poll(() => numberIn(page, 'orders-total')).toBe(widened)
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
  expect(await numberIn(page, 'orders-total')).toBe(widened)
})

const iso = (day: Date) => day.toISOString().slice(0, 10)

/** From and To typed over what the fields hold, in the form `typed` writes a day in (ISO unless said), then Enter. */
async function typeRange(page: BrowserPage, inputs: Locator, from: Date, to: Date, typed: (day: Date) => string = iso) {
  await inputs.nth(0).click()
  for (const [at, day] of [from, to].entries()) {
    if (at > 0) await page.keyboard.press('Tab')
    await page.keyboard.press('Control+a')
    await page.keyboard.type(typed(day))
  }
  await page.keyboard.press('Enter')
}

/** A day after today typed into To, then into From, in the form `typed` writes a day in. */
async function dayAfterTodayTyped(page: BrowserPage, host: PreviewHost, typed: (day: Date) => string) {
  const inputs = await ordersShown(page, host)
  const [from, ahead, today] = [dayStart(20), dayStart(-10), dayStart(0)]
  const expected = await ordersBetween(host, from, today)
  await typeRange(page, inputs, from, ahead, typed)
  await expect(page.locator('.n-message').filter({ hasText: `Orders are placed up to today: To is today, ${shown(today)}.` })).toBeVisible()
  await expect(inputs.nth(1)).toHaveValue(shown(today))
  await expect.poll(() => numberIn(page, 'orders-total')).toBe(expected)
  await page.keyboard.press('Escape')

  // A From after today: refused, said, the range as it was.
  await inputs.nth(0).click()
  await page.keyboard.press('Control+a')
  await page.keyboard.type(typed(ahead))
  await page.keyboard.press('Enter')
  await expect(page.locator('.n-message').filter({ hasText: `${shown(ahead)} is after today, and orders are placed up to today.` })).toBeVisible()
  await expect(inputs.nth(0)).toHaveValue(shown(from))
  await expect(inputs.nth(1)).toHaveValue(shown(today))
  expect(await numberIn(page, 'orders-total')).toBe(expected)
}

test('a day after today typed: To becomes today, and a From is refused with the range kept', async ({ app: page, host }) => {
  await dayAfterTodayTyped(page, host, iso)
})

test('a day after today typed as the calendar writes it ("Dec 12, 2026"): the same, never put back without a word', async ({ app: page, host }) => {
  await dayAfterTodayTyped(page, host, shown)
})

test('a To typed before the From typed: refused with both days said, the From kept to mend the To, the range as it was', async ({ app: page, host }) => {
  const inputs = await ordersShown(page, host)
  const all = await numberIn(page, 'orders-total')
  const [later, earlier] = [dayStart(10), dayStart(20)]
  await inputs.nth(0).click()
  await page.keyboard.type(later.toISOString().slice(0, 10))
  await page.keyboard.press('Tab')
  await page.keyboard.type(earlier.toISOString().slice(0, 10))
  await page.keyboard.press('Enter')
  await expect(page.locator('.n-message').filter({ hasText: `From ${shown(later)} is after To ${shown(earlier)}. Type a To on or after From.` })).toBeVisible()
  await expect(inputs.nth(0)).toHaveValue(shown(later))
  await expect(inputs.nth(1)).toHaveValue('')
  expect(await numberIn(page, 'orders-total')).toBe(all)
  // The To mended: the range is the one meant.
  const today = dayStart(0)
  const expected = await ordersBetween(host, later, today)
  await inputs.nth(1).click()
  await page.keyboard.type(today.toISOString().slice(0, 10))
  await page.keyboard.press('Enter')
  await expect.poll(() => numberIn(page, 'orders-total')).toBe(expected)
  await expect(inputs.nth(0)).toHaveValue(shown(later))
  await expect(inputs.nth(1)).toHaveValue(shown(today))
  await page.keyboard.press('Escape')

  // With a range in force, a From typed after its To (the picker moves the To onto it), then a To before
  // that From: refused, the From kept.
  const [forceFrom, forceTo, newFrom, badTo] = [dayStart(40), dayStart(30), dayStart(12), dayStart(16)]
  await typeRange(page, inputs, forceFrom, forceTo)
  await expect(inputs.nth(1)).toHaveValue(shown(forceTo))
  await page.keyboard.press('Escape')
  await typeRange(page, inputs, newFrom, badTo)
  await expect(page.locator('.n-message').filter({ hasText: `From ${shown(newFrom)} is after To ${shown(badTo)}.` })).toBeVisible()
  await expect(inputs.nth(0)).toHaveValue(shown(newFrom))
  await expect(inputs.nth(1)).not.toHaveValue(shown(badTo))
  await expect(inputs.nth(1)).not.toHaveValue('')
})

test('a To typed before the From as the calendar writes it ("Nov 3, 2026"): refused the same, the From never moved onto it', async ({ app: page, host }) => {
  const inputs = await ordersShown(page, host)
  const [from, to, before] = [dayStart(20), dayStart(10), dayStart(30)]
  const expected = await ordersBetween(host, from, to)
  await typeRange(page, inputs, from, to, shown)
  await expect.poll(() => numberIn(page, 'orders-total')).toBe(expected)
  await page.keyboard.press('Escape')

  // The To typed again, before the From: the picker takes a day in its own form at the keystroke that ends it.
  await inputs.nth(1).click()
  await page.keyboard.press('Control+a')
  await page.keyboard.type(shown(before))
  await page.keyboard.press('Enter')
  await expect(page.locator('.n-message').filter({ hasText: `From ${shown(from)} is after To ${shown(before)}. Type a To on or after From.` })).toBeVisible()
  await expect(inputs.nth(0)).toHaveValue(shown(from))
  await expect(inputs.nth(1)).toHaveValue(shown(to))
  expect(await numberIn(page, 'orders-total')).toBe(expected)
})

test('the calendar opens on last month and this one, where days can be picked; with a range in force, on the range', async ({ app: page, host }) => {
  const inputs = await ordersShown(page, host)
  const months = page.locator('.n-date-panel-month__text')
  const monthOf = (day: Date) => day.toLocaleDateString('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' })
  const now = new Date()
  const [lastMonth, thisMonth] = [
    new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)),
    new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1))
  ]
  await inputs.nth(0).click()
  await expect(months).toHaveCount(2)
  await expect(months).toHaveText([monthOf(lastMonth), monthOf(thisMonth)])
  await page.keyboard.press('Escape')

  const [from, to] = [dayStart(100), dayStart(95)]
  await typeRange(page, inputs, from, to)
  await expect(inputs.nth(1)).toHaveValue(shown(to))
  await page.keyboard.press('Escape')
  await inputs.nth(0).click()
  await expect(months.first()).toHaveText(monthOf(from))
})

test.describe('on a computer with UK dates and a window in US English', () => {
  test.use({ hostOptions: { dateLocale: 'en-GB' } })

  test('days typed with numbers are read day first, as the computer writes them, and the month by name in any order', async ({ app: page, host }) => {
    const inputs = await ordersShown(page, host)
    // A From whose day and month differ: read the US way it would be another day, or none.
    let from = dayStart(40)
    if (from.getUTCDate() === from.getUTCMonth() + 1) from = dayStart(41)
    const to = dayStart(3)
    const two = (n: number) => String(n).padStart(2, '0')
    await inputs.nth(0).click()
    await page.keyboard.type(`${two(from.getUTCDate())}/${two(from.getUTCMonth() + 1)}/${from.getUTCFullYear()}`)
    await page.keyboard.press('Tab')
    await page.keyboard.type(`${to.getUTCDate()} ${to.toLocaleDateString('en-GB', { month: 'long', timeZone: 'UTC' })} ${to.getUTCFullYear()}`)
    await page.locator('.n-date-panel-actions button', { hasText: 'Confirm' }).click()
    await expect(inputs.nth(0)).toHaveValue(shown(from))
    await expect(inputs.nth(1)).toHaveValue(shown(to))
    const expected = await ordersBetween(host, from, to)
    await expect.poll(() => numberIn(page, 'orders-total')).toBe(expected)
  })
})
