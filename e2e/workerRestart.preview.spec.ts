/**
 * The core runs in a worker thread; when that worker dies (here: killed while a batch is being
 * applied), the page stays usable, the seller is told, and the interrupted batch is offered again in
 * Bulk edit and finishes with every change as staged.
 */
import { accountKeyOf, type BatchStatus, type SessionInfo } from '../electron/shared/contract'
import type { Page as ListPage, SellRequest } from '../electron/shared/domain'
import { expect, test } from './fixtures'
import { marketplaceForEachTest } from './marketplace'
import { viaRouter } from './fromCore'
import { signInTo } from './signedIn'

const KEY = 'sk_live_worker_e2e_3Rb8'
const sandbox = marketplaceForEachTest({ apiKey: KEY, orders: 30, sellRequests: 120, seed: 61 })

test('the core’s worker killed mid-apply: a notice, the page keeps working, and the batch is offered again and finishes', async ({ app: page, host }) => {
  await signInTo(page, host, sandbox())
  await page.getByTestId('nav-bulkEdit').click()
  await expect(page.getByTestId('bulk-summary')).toBeVisible()

  const listings = (await viaRouter<ListPage<SellRequest>>(host, 'sellRequests.list', { take: 200, sortBy: 'name', sortDir: 'ASC' })).rows
  const intended = new Map(listings.map((listing, index) => [listing.id, 500 + index]))
  const account = accountKeyOf(await viaRouter<SessionInfo>(host, 'session.get', {}))
  await viaRouter(host, 'bulk.stage', { account, changes: listings.map((listing) => ({ sellRequestId: listing.id, quantity: intended.get(listing.id)! })) })

  // A slow marketplace, then one that holds every further change once some are through: the batch is
  // still running when the worker dies, however slowly this machine runs (unheld, the whole batch can
  // finish between two looks at its progress, and nothing is left to offer again).
  sandbox().setFaults({ latencyMs: 150 })
  const batch = await viaRouter<BatchStatus>(host, 'bulk.apply', { account, confirmed: true })
  await expect
    .poll(async () => (await viaRouter<{ running: BatchStatus | null }>(host, 'bulk.status', { account })).running?.applied ?? 0, { intervals: [50] })
    .toBeGreaterThan(30)
  sandbox().setFaults({ latencyMs: 120_000 })
  await expect(page.getByTestId('batch-panel')).toHaveAttribute('data-running', 'true')
  await host.core.worker().terminate()
  // (What the dead worker had sent stays held; the new worker's calls are answered at once.)
  sandbox().setFaults({ latencyMs: 0 })

  await expect(page.getByText(/background work stopped unexpectedly and has been restarted/)).toBeVisible()
  const banner = page.getByTestId('resume-banner')
  await expect(banner).toBeVisible({ timeout: 20_000 })
  await expect(banner).toContainText('not sent yet')

  // The rest of the app answers from the new worker.
  await page.getByTestId('nav-orders').click()
  await expect(page.getByTestId('order-row').first()).toBeVisible()
  await page.getByTestId('nav-bulkEdit').click()
  await page.getByTestId('resume-batch').click()
  await expect(banner).toBeHidden({ timeout: 20_000 })
  await expect(page.getByTestId('batch-summary')).toBeVisible({ timeout: 20_000 })
  await expect
    .poll(async () => (await viaRouter<BatchStatus[]>(host, 'bulk.history', { account, limit: 5 })).find((b) => b.id === batch.id)?.applied, {
      timeout: 20_000
    })
    .toBe(listings.length)
  for (const [id, quantity] of intended) expect(sandbox().state.sellRequests.find((listing) => listing.id === id)?.quantity).toBe(quantity)
})
