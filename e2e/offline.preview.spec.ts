/**
 * Offline snapshots and sync, as a seller sees them in the browser preview: the marketplace goes away
 * and comes back; new orders arrive; a long sync shows progress and can be cancelled; settings stay.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import type { AppSettings, ListResult } from '../electron/shared/contract'
import type { Order } from '../electron/shared/domain'
import { startSandbox, type Sandbox } from '../electron/sandbox'
import { expect, test } from './fixtures'
import { readSnapshot, spoilSnapshots, syncStatus, viaRouter } from './fromCore'
import { toastInPlace } from './signedIn'
import { animationsEnded } from './pageMeasures'
import { startPreviewHost, type PreviewHost } from '../electron/preview/host'
import { builtCoreWorkerFile } from '../electron/worker/coreHost'

const KEY = 'sk_live_offline_e2e_4f7Qk2'
let sandbox: Sandbox

test.beforeEach(async () => {
  sandbox = await startSandbox({ apiKey: KEY, orders: 120, sellRequests: 60, seed: 21, now: new Date() })
})
test.afterEach(async () => {
  await sandbox.close()
})

async function signIn(page: Page, baseUrl = sandbox.baseUrl) {
  await page.getByTestId('base-url').fill(baseUrl)
  await page.getByTestId('api-key').fill(KEY)
  await page.getByTestId('sign-in').click()
  await page.getByTestId('nav-orders').click()
  await expect(page.getByTestId('order-row').first()).toBeVisible()
  await expect(page.getByTestId('sync-last')).toBeVisible({ timeout: 20_000 })
}

async function snapshotTotal(host: PreviewHost, input: object): Promise<number> {
  const outcome = await host.router.dispatch('orders.list', { take: 1, ...input })
  if (!outcome.ok) throw new Error(outcome.error.message)
  return (outcome.value as ListResult<Order>).total
}

test('marketplace gone: banner, cached orders searchable, changes disabled; back: banner gone and a sync runs', async ({ app: page, host }) => {
  await signIn(page)
  const port = sandbox.port
  const term = 'iPhone'
  const expected = await snapshotTotal(host, { searchTerm: term })
  expect(expected).toBeGreaterThan(0)

  await sandbox.close()
  await page.getByTestId('sync-now').click()
  const banner = page.getByTestId('offline-banner')
  await expect(banner).toBeVisible({ timeout: 10_000 })
  await expect(banner).toContainText(/Offline — showing data synced/)
  // The header agrees with the banner: offline (the banner says when the data on screen was synced).
  await expect(page.getByTestId('sync-last')).toHaveText('Offline')
  // It says what still works and what does not, as the views then behave (nothing is queued).
  await expect(banner).toContainText(
    'Search, filters and sorting still work. Editing, deleting and applying changes need the connection (Bulk edit keeps your pending changes).'
  )

  // Everything readable keeps working.
  await page.getByTestId('orders-search').fill(term)
  await expect.poll(async () => Number(((await page.getByTestId('orders-total').textContent()) ?? '').replace(/\D/g, ''))).toBe(expected)
  await page.getByTestId('order-row').first().click()
  await expect(page.getByTestId('order-items').first()).toBeVisible()

  // Changes need the server: disabled, with the reason.
  await page.getByTestId('nav-sellRequests').click()
  const edit = page.getByTestId('edit-sell-request').first()
  await expect(edit).toBeDisabled()
  await expect(page.getByTestId('sell-request-row').first().locator('[title*="offline" i]').first()).toBeAttached()
  // Still met from the keyboard (a disabled button would be skipped without a word), and pressing it does nothing.
  const del = page.getByTestId('delete-sell-request').first()
  await edit.focus()
  await expect(edit).toBeFocused()
  await page.keyboard.press('Tab')
  await expect(del).toBeFocused()
  await expect(del).toHaveAttribute('aria-disabled', 'true')
  await expect(del).toHaveAttribute('title', /offline/i)
  await page.keyboard.press('Enter')
  await page.keyboard.press('Space')
  await del.click({ force: true })
  await animationsEnded(page)
  await expect(page.getByRole('dialog')).toHaveCount(0)

  // Sync now stays a way to try the marketplace at once; while it is gone that says so.
  const syncNow = page.getByTestId('sync-now')
  await expect(syncNow).toBeEnabled()
  await syncNow.click()
  await expect(page.locator('.n-message').filter({ hasText: 'Still offline' })).toContainText(
    'Still offline: the marketplace did not answer. Seller Desk keeps trying by itself.'
  )
  await expect(banner).toBeVisible()

  // The marketplace answers again: online by itself, and a sync runs.
  const syncedBefore = (await syncStatus(host))!.lastSyncedAt
  sandbox = await startSandbox({ apiKey: KEY, port, orders: 120, sellRequests: 60, seed: 21, now: new Date() })
  await expect(banner).toBeHidden({ timeout: 20_000 })
  await expect.poll(async () => (await syncStatus(host))?.lastSyncedAt, { timeout: 20_000 }).not.toBe(syncedBefore)
  await expect(page.getByTestId('sync-last')).toHaveText(/^Synced just now$/)
  await expect(page.getByTestId('edit-sell-request').first()).toBeEnabled()
})

test('offline, an export of dates before the kept days says in its toast, whole in the window at 1,024 px, that some older orders are missing from the file', async ({
  app: page
}) => {
  await page.setViewportSize({ width: 1024, height: 700 })
  await signIn(page)
  await sandbox.close()
  await page.getByTestId('sync-now').click()
  await expect(page.getByTestId('offline-banner')).toBeVisible({ timeout: 10_000 })
  // Dates reaching before the 90 days kept (the marketplace holds 120).
  const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' })
  const inputs = page.getByTestId('orders-date-range').locator('input')
  await inputs.nth(0).click()
  await inputs.nth(0).fill(day(115))
  await inputs.nth(1).fill(day(80))
  await page.locator('.n-date-panel-actions button', { hasText: 'Confirm' }).click()
  await expect(page.getByTestId('orders-note')).toContainText('connect to see older ones')
  await page.getByTestId('orders-export').click()
  const toast = page.locator('.n-message').filter({ hasText: 'Exported' })
  await expect(toast).toContainText(/Exported [\d,]+ orders? \([\d,]+ rows?\) to orders-.*\.csv\. Offline: some older orders are missing\./)
  await toastInPlace(toast)
  const box = (await toast.boundingBox())!
  expect(box.y).toBeGreaterThanOrEqual(0)
  expect(box.y + box.height).toBeLessThanOrEqual(700)
  expect(await toast.locator('.n-message__content').evaluate((el) => window.sdMeasure.textLines(el))).toBeLessThanOrEqual(2)
})

test('new orders from a sync: a notification with count and total, which adds up a later sync’s and opens Orders on them whatever the list’s filter; off in settings means none', async ({
  app: page,
  host
}) => {
  await signIn(page)
  // The Orders list left on a search that none of the new orders match.
  await page.getByTestId('nav-orders').click()
  await page.getByTestId('orders-search').fill('no order is called this')
  await expect(page.getByTestId('order-row')).toHaveCount(0)
  await page.getByTestId('nav-sellRequests').click()
  const added = sandbox.addOrders(3)
  await page.getByTestId('sync-now').click()
  const notification = page.getByTestId('new-orders-notification')
  await expect(notification).toBeVisible({ timeout: 15_000 })
  await expect(notification).toContainText('3 new orders')
  const money = (orderIds: string[]) =>
    new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(
      readSnapshot(host, (snapshot) => snapshot.summarizeOrders(orderIds)).totalCents / 100
    )
  await expect(notification).toContainText(money(added))
  // Two more arrive while it shows: it tells of all five, not of the last two only.
  await notification.hover()
  const more = sandbox.addOrders(2)
  await viaRouter(host, 'sync.run', {})
  await expect(notification.filter({ hasText: '5 new orders' })).toBeVisible({ timeout: 15_000 })
  // (The first one leaves as the new one comes.)
  await expect(notification).toHaveCount(1)
  await expect(notification).toContainText(money([...added, ...more]))
  await page.getByTestId('new-orders-open').click()
  await expect(page.getByTestId('nav-orders')).toHaveAttribute('aria-current', 'page')
  await expect(page.getByTestId('orders-search')).toHaveValue('')
  // Newest first: one of the last two on top (they arrived together).
  const lastTwo = sandbox.state.orders.filter((order) => more.includes(order.id)).map((order) => order.orderNo)
  await expect(page.getByTestId('order-row').first()).toContainText(new RegExp(lastTwo.join('|')))

  await page.getByTestId('nav-settings').click()
  // The words beside the switch turn it, as a label would.
  await page.getByTestId('settings-notify-words').click()
  await expect(page.getByTestId('settings-notify')).toHaveAttribute('aria-checked', 'false')
  await expect.poll(async () => (await viaRouter<AppSettings>(host, 'settings.get', {})).notifyNewOrders).toBe(false)
  const events = () =>
    page.evaluate(() =>
      ((window as unknown as { __events?: string[] }).__events ?? []).map((e) => JSON.parse(e) as { event: string; payload: { running?: boolean } })
    )
  const newOrderEvents = async () => (await events()).filter((e) => e.event === 'orders.new').length
  expect(await newOrderEvents()).toBe(2)
  const seen = (await events()).length
  sandbox.addOrders(2)
  await viaRouter(host, 'sync.run', {})
  // The sync's last status has reached the page, so an orders.new from it would have too.
  await expect.poll(async () => (await events()).slice(seen).some((e) => e.event === 'sync.status' && e.payload.running === false)).toBe(true)
  expect(await newOrderEvents()).toBe(2)
  await expect(page.getByText('2 new orders')).toHaveCount(0)
})

test('a long sync shows progress and can be cancelled, then finishes', async ({ app: page, host }) => {
  await signIn(page)
  await expect.poll(async () => (await syncStatus(host))?.running).toBe(false)
  // Slow enough that each phase of the full sync stays on screen for a while (an automatic sync may
  // also be running when the button is pressed, and the full one then follows it).
  sandbox.setFaults({ latencyMs: 600 })
  await page.getByTestId('nav-settings').click()
  await page.getByTestId('settings-full-resync').click()
  const progress = page.getByTestId('sync-progress')
  await expect(progress).toBeVisible()
  await expect(progress).toContainText(/Syncing orders… \d+ \/ \d+ pages?/)
  expect((await syncStatus(host))?.kind).toBe('full')
  await page.getByTestId('sync-cancel').click()
  await expect(progress).toBeHidden()
  await expect(page.getByTestId('sync-error')).toHaveCount(0)
  sandbox.setFaults({ latencyMs: 0 })
  await page.getByTestId('sync-now').click()
  await expect.poll(() => readSnapshot(host, (snapshot) => snapshot.run('orders')), { timeout: 20_000 }).toBeNull()
})

test('while older orders are checked, Sync now is there and runs a sync at once, beside the look', async ({ app: page, host }) => {
  // The look through the orders placed before the kept days (the only order reads with a `toDate`) is
  // held open for as long as the test looks at what shows beside it, however quickly it would end.
  const look = sandbox.hold(({ url }) => url.pathname === '/v1/orders/seller' && url.searchParams.has('toDate'))
  await page.setViewportSize({ width: 1024, height: 700 })
  await page.getByTestId('base-url').fill(sandbox.baseUrl)
  await page.getByTestId('api-key').fill(KEY)
  await page.getByTestId('sign-in').click()
  const progress = page.getByTestId('sync-progress')
  await expect(progress).toContainText('Checking older orders…', { timeout: 30_000 })
  await expect.poll(() => look.caught).toBeGreaterThan(0)
  const added = sandbox.addOrders(1)
  // The sync's own order reads are held too, so that its progress is on screen when looked for.
  const sync = sandbox.hold(({ url }) => url.pathname === '/v1/orders/seller' && !url.searchParams.has('toDate'))
  // Beside the look's Cancel, Sync now (its sign alone at 1,024 px, the header's end still in the window):
  // a sync starts at once instead of waiting for the look.
  const syncNow = page.getByRole('button', { name: 'Sync now' })
  await expect(syncNow).toBeVisible()
  await expect(syncNow).toHaveText('⟳')
  await expect(progress).toContainText('Checking older orders…')
  const signOut = (await page.getByTestId('sign-out').boundingBox())!
  expect(signOut.x + signOut.width).toBeLessThanOrEqual(1024)
  await syncNow.click()
  await expect(progress).toContainText(/Syncing…|Updating orders…/)
  await expect.poll(() => sync.caught).toBeGreaterThan(0)
  sync.release()
  await expect.poll(() => readSnapshot(host, (snapshot) => snapshot.summarizeOrders(added).count), { timeout: 20_000 }).toBe(1)
  // The new order came in while the look is still open (the look has recorded nothing yet).
  expect(readSnapshot(host, (snapshot) => snapshot.olderOpenCheck())).toBeNull()

  look.release()
  await expect.poll(async () => (await syncStatus(host))?.running, { timeout: 30_000 }).toBe(false)
  expect(readSnapshot(host, (snapshot) => snapshot.olderOpenCheck())).toMatchObject({ complete: true, error: null })
  expect((await syncStatus(host))?.lastError).toBeNull()
  await expect(progress).toBeHidden()
  // With no bar beside it, Sync now has its words again.
  await expect(page.getByTestId('sync-now')).toBeVisible()
  await expect(page.getByTestId('sync-now')).toContainText('Sync now')
})

test('sync settings survive a restart', async ({ page }) => {
  const userDataDir = mkdtempSync(join(tmpdir(), 'seller-desk-settings-'))
  const options = { userDataDir, keychainService: `Seller Desk e2e settings ${process.pid}-${Date.now()}`, coreWorkerFile: builtCoreWorkerFile() }
  let host = await startPreviewHost(options)
  await page.goto(host.url)
  await page.getByTestId('start-demo').click()
  await page.getByTestId('nav-settings').click()
  const interval = page.getByTestId('settings-sync-interval')
  await interval.fill('15')
  await interval.press('Enter')
  await expect.poll(async () => (await viaRouter<AppSettings>(host, 'settings.get', {})).syncIntervalMinutes).toBe(15)
  await interval.fill('0')
  await interval.press('Enter')
  await expect(page.getByTestId('settings-sync-interval-error')).toBeVisible()
  // An emptied field shows nothing of the library's own ("Please Input", cut short to "Plea").
  await interval.fill('')
  expect(await interval.getAttribute('placeholder')).toBe('')
  expect((await viaRouter<AppSettings>(host, 'settings.get', {})).syncIntervalMinutes).toBe(15)
  await host.close()

  host = await startPreviewHost(options)
  await page.goto(host.url)
  await page.getByTestId('nav-settings').click()
  await expect(page.getByTestId('settings-sync-interval')).toHaveValue('15')
  await host.close()
})

test('a saved copy that cannot be read is set aside at the next start, the seller is told, and the orders come back', async ({ page }) => {
  const userDataDir = mkdtempSync(join(tmpdir(), 'seller-desk-unreadable-'))
  const options = { userDataDir, keychainService: `Seller Desk e2e unreadable ${process.pid}-${Date.now()}`, coreWorkerFile: builtCoreWorkerFile() }
  try {
    let host = await startPreviewHost(options)
    await page.goto(host.url)
    await signIn(page)
    const total = await snapshotTotal(host, {})
    expect(total).toBeGreaterThan(0)
    await host.close()

    const [file] = spoilSnapshots(userDataDir)
    const folder = join(userDataDir, 'snapshots')

    // Said as the account opens, before this page listened: it waits for the page.
    host = await startPreviewHost(options)
    await page.goto(host.url)
    const notice = page.locator('.n-message').filter({
      hasText: 'The saved copy of your orders and listings could not be read, so Seller Desk set it aside and is downloading a fresh one.'
    })
    await expect(notice).toBeVisible()
    // Said before the seller may have looked: it stays past a toast's few seconds, until closed.
    await page.waitForTimeout(5_000)
    await expect(notice).toBeVisible()
    await notice.locator('.n-message__close').click()
    await expect(notice).toBeHidden()
    await page.getByTestId('nav-orders').click()
    await expect(page.getByTestId('order-row').first()).toBeVisible({ timeout: 20_000 })
    await expect.poll(() => snapshotTotal(host, {}), { timeout: 20_000 }).toBe(total)
    expect(readdirSync(folder).some((name) => name.startsWith(`${file}.unreadable-`))).toBe(true)
    await host.close()
  } finally {
    rmSync(userDataDir, { recursive: true, force: true })
  }
})
