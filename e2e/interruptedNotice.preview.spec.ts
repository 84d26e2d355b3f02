/**
 * The notice that an apply was cut off (the app closed while changes were being sent) says, at the next
 * start, that changes were not sent yet and to open Bulk edit to resume. It goes once that is no longer
 * true: the seller resumed the batch (and may cancel it then), gave its changes up, or the batch was
 * sent meanwhile, as Bulk edit reads it.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from '@playwright/test'
import { accountKeyOf, type BatchStatus, type SessionInfo } from '../electron/shared/contract'
import type { Page as ListPage, SellRequest } from '../electron/shared/domain'
import { startPreviewHost, type PreviewHost } from '../electron/preview/host'
import { builtCoreWorkerFile } from '../electron/worker/coreHost'
import { expect, test } from './fixtures'
import { marketplaceForEachTest } from './marketplace'
import { viaRouter } from './fromCore'
import { signInTo } from './signedIn'

const KEY = 'sk_live_interrupted_e2e_5Kp3'
const sandbox = marketplaceForEachTest({ apiKey: KEY, orders: 10, sellRequests: 40, seed: 73 })

test.use({ locale: 'en-US' })

const NOTICE = /was interrupted: \d+ changes were not sent yet\. Open Bulk edit to resume\./

interface Started {
  host: PreviewHost
  page: Page
  account: string
  batchId: string
  close(): Promise<void>
}

/**
 * Signs in, applies a quantity change to every listing against a slow marketplace and closes the app
 * once some are sent; then starts it again on the same profile, where the notice shows.
 */
async function startAfterInterruptedApply(browser: Browser, userDataDir: string): Promise<Started> {
  const keychainService = `Seller Desk e2e interrupted ${process.pid}-${Date.now()}`
  const start = () =>
    startPreviewHost({ userDataDir, keychainService, apiOptions: { retries: 1, backoffMs: 50, timeoutMs: 5_000 }, coreWorkerFile: builtCoreWorkerFile() })
  let host = await start()
  let context = await browser.newContext({ locale: 'en-US' })
  let page = await context.newPage()
  await page.goto(host.url)
  await signInTo(page, host, sandbox())
  const account = accountKeyOf(await viaRouter<SessionInfo>(host, 'session.get', {}))
  const listings = (await viaRouter<ListPage<SellRequest>>(host, 'sellRequests.list', { take: 200, sortBy: 'name', sortDir: 'ASC' })).rows
  await viaRouter(host, 'bulk.stage', { account, changes: listings.map((listing) => ({ sellRequestId: listing.id, quantity: listing.quantity + 1 })) })
  // Slow enough that the batch is far from done when the app closes, even on a busy machine.
  sandbox().setFaults({ latencyMs: 1_500 })
  const batch = await viaRouter<BatchStatus>(host, 'bulk.apply', { account, confirmed: true })
  await expect
    .poll(async () => (await viaRouter<{ running: BatchStatus | null }>(host, 'bulk.status', { account })).running?.applied ?? 0, { intervals: [50] })
    .toBeGreaterThan(0)
  await context.close()
  await host.close()
  sandbox().setFaults({ latencyMs: 0 })

  host = await start()
  context = await browser.newContext({ locale: 'en-US' })
  page = await context.newPage()
  await page.goto(host.url)
  await expect(page.getByText(NOTICE)).toBeVisible()
  const opened = host
  return {
    host,
    page,
    account,
    batchId: batch.id,
    close: async () => {
      await context.close()
      await opened.close()
    }
  }
}

/** Each test gets a profile of its own, removed after it. */
let userDataDir = ''
test.beforeEach(() => {
  userDataDir = mkdtempSync(join(tmpdir(), 'seller-desk-e2e-interrupted-'))
})
test.afterEach(() => {
  rmSync(userDataDir, { recursive: true, force: true })
})

test('the notice goes once the seller resumes the batch, and does not come back when they cancel it', async ({ browser }) => {
  const { page, close } = await startAfterInterruptedApply(browser, userDataDir)
  try {
    await page.getByTestId('nav-bulkEdit').click()
    const banner = page.getByTestId('resume-banner')
    await expect(banner).toContainText('not sent yet')
    // Slow again: the resumed batch is still being sent when the seller cancels it.
    sandbox().setFaults({ latencyMs: 1_500 })
    await banner.getByTestId('resume-batch').click()
    await expect(page.getByTestId('batch-panel')).toHaveAttribute('data-running', 'true')
    await expect(page.getByText(NOTICE)).toBeHidden()
    await page.getByTestId('batch-cancel').click()
    await expect(page.getByTestId('batch-panel')).toHaveAttribute('data-running', 'false', { timeout: 20_000 })
    await expect(page.getByTestId('batch-summary')).toContainText('canceled')
    await expect(page.getByText(NOTICE)).toBeHidden()
    await expect(banner).toBeHidden()
  } finally {
    await close()
  }
})

test('the notice goes once the seller chooses not to send the changes', async ({ browser }) => {
  const { page, close } = await startAfterInterruptedApply(browser, userDataDir)
  try {
    await page.getByTestId('nav-bulkEdit').click()
    const banner = page.getByTestId('resume-banner')
    await banner.getByTestId('resume-cancel').click()
    await expect(banner).toBeHidden()
    await expect(page.getByText(NOTICE)).toBeHidden()
  } finally {
    await close()
  }
})

test('the notice goes when Bulk edit finds the batch sent meanwhile', async ({ browser }) => {
  const { host, page, account, batchId, close } = await startAfterInterruptedApply(browser, userDataDir)
  try {
    // Sent without this page (as another window of the app would): the page hears nothing of it until Bulk edit reads.
    await viaRouter(host, 'bulk.resume', { account, batchId })
    await expect
      .poll(async () => (await viaRouter<BatchStatus[]>(host, 'bulk.history', { account, limit: 5 })).find((batch) => batch.id === batchId)?.pending, {
        timeout: 20_000
      })
      .toBe(0)
    await expect(page.getByText(NOTICE)).toBeVisible()
    await page.getByTestId('nav-bulkEdit').click()
    await expect(page.getByTestId('bulk-summary')).toBeVisible()
    await expect(page.getByText(NOTICE)).toBeHidden()
  } finally {
    await close()
  }
})
