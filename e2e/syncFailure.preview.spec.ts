/**
 * A sync the marketplace failed (it answers, with 500s) is said alike in the header and in Settings:
 * "Last sync failed", never "Online" beside it. At 1,024 px the header's words fit whole (nothing cut,
 * nothing overlapping), and the reason is reachable: its tooltip, on hover and on focus, and its
 * accessible name; Settings says it whole. A sync that works again says "Online" in both.
 */
import type { Locator, Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { syncFinishedAfter, syncStatus } from './fromCore'
import { marketplaceForEachTest } from './marketplace'
import { signInTo } from './signedIn'

const KEY = 'sk_live_sync_failure_e2e_5Wd9'
const REASON = 'The marketplace had a problem (HTTP 500)'
const sandbox = marketplaceForEachTest({ apiKey: KEY, orders: 30, sellRequests: 20, seed: 11 })

test.use({ locale: 'en-US', viewport: { width: 1024, height: 700 } })

/** The box's text is whole: no part of it cut or ellipsized, its box inside the window. */
async function expectWhole(box: Locator, name: string) {
  const measured = await box.evaluate((el) => ({
    cutBy: window.sdMeasure.cutBy(el)?.className ?? null,
    scrollWidth: el.scrollWidth,
    clientWidth: el.clientWidth,
    right: el.getBoundingClientRect().right
  }))
  expect(measured.cutBy, `${name}: cut by`).toBeNull()
  expect(measured.scrollWidth, `${name}: text wider than its box`).toBeLessThanOrEqual(measured.clientWidth)
  expect(measured.right, `${name}: inside the window`).toBeLessThanOrEqual(1024)
}

/** The two boxes do not overlap. */
async function expectApart(a: Locator, b: Locator, names: string) {
  const [boxA, boxB] = [(await a.boundingBox())!, (await b.boundingBox())!]
  const apart = boxA.x + boxA.width <= boxB.x || boxB.x + boxB.width <= boxA.x || boxA.y + boxA.height <= boxB.y || boxB.y + boxB.height <= boxA.y
  expect(apart, names).toBe(true)
}

async function syncNow(page: Page, host: Parameters<typeof syncFinishedAfter>[0]) {
  const before = (await syncStatus(host))?.lastSyncedAt ?? null
  await page.getByTestId('sync-now').click()
  await expect.poll(async () => (await syncStatus(host))?.running, { timeout: 20_000 }).toBe(false)
  return before
}

test('at 1,024 px a failed sync is said whole in the header, its reason in the tooltip and accessible name, and Settings says the same', async ({
  app: page,
  host
}) => {
  await signInTo(page, host, { baseUrl: sandbox().baseUrl, apiKey: KEY })

  // The marketplace answers, with 500s: the sync fails, the app stays online.
  sandbox().injectNext('server-error', 50)
  await syncNow(page, host)
  const failure = page.getByTestId('sync-error')
  await expect(failure).toBeVisible()
  sandbox().injectNext('server-error', 0)
  expect((await syncStatus(host))?.online).toBe(true)

  // Whole: the words, the last good sync beside them and Sync now, none cut, none over another.
  const label = page.getByTestId('sync-error-label')
  await expect(label).toHaveText('Last sync failed')
  await expectWhole(failure, 'the failure')
  await expectWhole(page.getByTestId('sync-last'), 'the last good sync')
  await expect(page.getByTestId('sync-last')).toHaveText(/^Last good sync/)
  await expectApart(failure, page.getByTestId('sync-last'), 'failure and last good sync')
  await expectApart(page.getByTestId('sync-last'), page.getByTestId('sync-now'), 'last good sync and Sync now')
  await expectApart(page.getByTestId('sync-now'), page.getByTestId('sign-out'), 'Sync now and Sign out')

  // The reason: in the accessible name, and in the tooltip on hover and on focus, which the words show
  // they have (underlined with dots, the pointer a question mark).
  await expect(label).toHaveCSS('text-decoration-style', 'dotted')
  await expect(failure).toHaveCSS('cursor', 'help')
  await expect(failure).toHaveAccessibleName(new RegExp(`^Last sync failed: ${REASON.replace(/[()]/g, '\\$&')}`))
  const detail = page.getByTestId('sync-error-detail')
  await failure.hover()
  await expect(detail).toContainText(`Last sync failed: ${REASON}`)
  await expectWhole(detail, 'the tooltip')
  await page.mouse.move(0, 400)
  await expect(detail).toBeHidden()
  await failure.focus()
  await expect(detail).toContainText(`Last sync failed: ${REASON}`)
  const shownInHeader = await detail.textContent()
  await failure.blur()

  // Settings: the same words, not "Online", and the whole reason.
  await page.getByTestId('nav-settings').click()
  await expect(page.getByTestId('settings-connection')).toHaveText('Last sync failed')
  await expect(page.getByTestId('settings-sync-failure')).toHaveText(shownInHeader!)
  await expectWhole(page.getByTestId('settings-sync-failure'), 'the reason in Settings')

  // The next sync works: "Online" in Settings, nothing failed in the header.
  const before = await syncNow(page, host)
  await syncFinishedAfter(host, before)
  await expect(page.getByTestId('settings-connection')).toHaveText('Online')
  await expect(page.getByTestId('settings-sync-failure')).toHaveCount(0)
  await expect(failure).toHaveCount(0)
  await expect(page.getByTestId('sync-last')).toHaveText(/^Synced/)
})
