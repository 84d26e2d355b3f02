/**
 * While an apply is under way, Bulk edit's toolbar says how many of its changes are still to be sent:
 * applying takes them out of the pending changes at once, and a seller reading "No pending changes"
 * halfway through a slow apply would think the rest were lost.
 */
import { accountKeyOf, type SessionInfo } from '../electron/shared/contract'
import type { Page as ListPage, SellRequest } from '../electron/shared/domain'
import { expect, test } from './fixtures'
import { marketplaceForEachTest } from './marketplace'
import { viaRouter } from './fromCore'
import { applyFromPreview, signInTo } from './signedIn'

const KEY = 'sk_live_sending_e2e_8Tn4'
const sandbox = marketplaceForEachTest({ apiKey: KEY, orders: 10, sellRequests: 40, seed: 79 })

test.use({ locale: 'en-US' })

test('a slow apply: the toolbar says how many changes are still being sent, and no pending changes once every one is', async ({ app: page, host }) => {
  await signInTo(page, host, sandbox())
  const account = accountKeyOf(await viaRouter<SessionInfo>(host, 'session.get', {}))
  const listings = (await viaRouter<ListPage<SellRequest>>(host, 'sellRequests.list', { take: 200, sortBy: 'name', sortDir: 'ASC' })).rows
  await viaRouter(host, 'bulk.stage', { account, changes: listings.map((listing) => ({ sellRequestId: listing.id, quantity: listing.quantity + 1 })) })
  await page.getByTestId('nav-bulkEdit').click()
  const summary = page.getByTestId('bulk-summary')
  await expect(summary).toHaveText(`${listings.length} pending changes on ${listings.length} listings`)

  // A slow marketplace: the batch is sent over several seconds, its progress pushed as it goes.
  sandbox().setFaults({ latencyMs: 1_000 })
  await page.getByTestId('bulk-review').click()
  await applyFromPreview(page)
  const progress = page.getByTestId('batch-progress-text')
  await expect(progress).toContainText(/^[1-9]\d* of \d+ sent/)

  // Read together: the toolbar's count is what the panel's progress has not sent yet.
  const { progressText, summaryText } = await page.evaluate(() => ({
    progressText: document.querySelector('[data-testid="batch-progress-text"]')?.textContent?.trim() ?? '',
    summaryText: document.querySelector('[data-testid="bulk-summary"]')?.textContent?.trim() ?? ''
  }))
  const [, sent, total] = /^(\d+) of (\d+) sent/.exec(progressText) ?? []
  expect(Number(total)).toBe(listings.length)
  expect(Number(sent)).toBeLessThan(Number(total))
  expect(summaryText).toBe(`${Number(total) - Number(sent)} changes still being sent`)

  sandbox().setFaults({ latencyMs: 0 })
  await expect(page.getByTestId('batch-panel')).toHaveAttribute('data-running', 'false', { timeout: 20_000 })
  await expect(summary).toHaveText('No pending changes')
})
