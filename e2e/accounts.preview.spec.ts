/**
 * Several marketplace accounts in the browser preview: sign in to marketplace A, add marketplace B
 * without signing out of A, each shows its own orders, switch back to A, remove B (its key deleted).
 * After signing out, the sign-in screen offers the saved accounts: one click signs back in, or only the
 * key is asked for when it is no longer in the keychain.
 * And the theme setting: dark chosen in Settings wins over a light OS, and survives a restart.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import type { SessionInfo } from '../electron/shared/contract'
import type { Order, Page as ListPage } from '../electron/shared/domain'
import { chooseSecretStore } from '../electron/core/secrets/chooseSecretStore'
import { startSandbox, type Sandbox } from '../electron/sandbox'
import { expect, test } from './fixtures'
import { syncFinishedAfter, viaRouter } from './fromCore'
import { startPreviewHost, type PreviewHost } from '../electron/preview/host'
import { builtCoreWorkerFile } from '../electron/worker/coreHost'

/**
 * The signed-in account's orders once its first sync is done, as the core reports them: the whole run,
 * whose end (the look through older orders) may add orders left to ship after the lists are synced.
 */
async function syncedOrderTotal(host: PreviewHost, baseUrl: string): Promise<number> {
  await expect.poll(async () => (await viaRouter<SessionInfo>(host, 'session.get', {})).baseUrl === baseUrl).toBe(true)
  await syncFinishedAfter(host, null)
  return (await viaRouter<ListPage<Order>>(host, 'orders.list', { take: 1 })).total
}

const hostOf = (baseUrl: string) => new URL(baseUrl).host

test.describe('accounts', () => {
  const KEY_A = 'sk_live_e2e_accountA_4kP9wQ2z'
  const KEY_B = 'sk_live_e2e_accountB_7nR3xT8m'
  let a: Sandbox
  let b: Sandbox
  test.beforeAll(async () => {
    a = await startSandbox({ apiKey: KEY_A, orders: 40, sellRequests: 20, seed: 21 })
    b = await startSandbox({ apiKey: KEY_B, orders: 12, sellRequests: 8, seed: 22 })
  })
  test.afterAll(async () => {
    await a.close()
    await b.close()
  })

  test('adds a second marketplace, shows each account’s orders, switches back and removes one', async ({ app: page, host, traffic }) => {
    // Sign in to A.
    await page.getByTestId('base-url').fill(a.baseUrl)
    await page.getByTestId('api-key').fill(KEY_A)
    await page.getByTestId('sign-in').click()
    await expect(page.getByTestId('marketplace')).toContainText(hostOf(a.baseUrl))
    const totalA = await syncedOrderTotal(host, a.baseUrl)
    await page.getByTestId('nav-orders').click()
    await expect(page.getByTestId('orders-total')).toContainText(`${totalA} orders`)

    // Add B from Settings: the sign-in form, with a Cancel that goes back to A untouched.
    await page.getByTestId('nav-settings').click()
    await expect(page.getByTestId('account-row')).toHaveCount(1)
    await page.getByTestId('account-add').click()
    await expect(page.getByTestId('start-demo')).toHaveCount(0)
    await expect(page.getByTestId('base-url')).toHaveValue('')
    await page.getByTestId('add-account-cancel').click()
    await expect(page.getByTestId('marketplace')).toContainText(hostOf(a.baseUrl))
    // Escape backs out the same way.
    await page.getByTestId('nav-settings').click()
    await page.getByTestId('account-add').click()
    await expect(page.getByTestId('base-url')).toBeVisible()
    await page.keyboard.press('Escape')
    await expect(page.getByTestId('marketplace')).toContainText(hostOf(a.baseUrl))
    await page.getByTestId('nav-settings').click()
    await page.getByTestId('account-add').click()
    await page.getByTestId('base-url').fill(b.baseUrl)
    await page.getByTestId('api-key').fill(KEY_B)
    await page.getByTestId('sign-in').click()
    await expect(page.getByTestId('marketplace')).toContainText(hostOf(b.baseUrl))
    const totalB = await syncedOrderTotal(host, b.baseUrl)
    expect(totalB).not.toBe(totalA)
    await page.getByTestId('nav-orders').click()
    await expect(page.getByTestId('orders-total')).toContainText(`${totalB} orders`)
    // A's key is still stored.
    expect(await host.router.dispatch('accounts.list', {})).toMatchObject({
      ok: true,
      value: {
        accounts: [
          { baseUrl: a.baseUrl, current: false },
          { baseUrl: b.baseUrl, current: true }
        ]
      }
    })

    // Switch to A: its own snapshot and orders.
    await page.getByTestId('nav-settings').click()
    const rows = page.getByTestId('account-row')
    await expect(rows).toHaveCount(2)
    // Each row's buttons say which account they act on, to a screen reader too (not three bare "Remove").
    const rowA = rows.filter({ hasText: hostOf(a.baseUrl) })
    await expect(rowA.getByTestId('account-remove')).toHaveAccessibleName(new RegExp(`^Remove .*${hostOf(a.baseUrl).replace(/\./g, '\\.')}`))
    await expect(rowA.getByTestId('account-switch')).toHaveAccessibleName(new RegExp(`^Switch to .*${hostOf(a.baseUrl).replace(/\./g, '\\.')}`))
    await rowA.getByTestId('account-switch').click()
    await expect(page.getByTestId('marketplace')).toContainText(hostOf(a.baseUrl))
    await page.getByTestId('nav-orders').click()
    await expect(page.getByTestId('orders-total')).toContainText(`${totalA} orders`)
    expect((await viaRouter<SessionInfo>(host, 'session.get', {})).baseUrl).toBe(a.baseUrl)

    // Remove B (not current): A stays signed in, B's key is gone.
    await page.getByTestId('nav-settings').click()
    await rows
      .filter({ hasText: hostOf(b.baseUrl) })
      .getByTestId('account-remove')
      .click()
    await page.getByTestId('confirm-remove-account').click()
    await expect(rows).toHaveCount(1)
    await expect(rows.first()).toContainText(hostOf(a.baseUrl))
    await expect(rows.first().getByTestId('account-current')).toBeVisible()
    await expect(page.getByTestId('marketplace')).toContainText(hostOf(a.baseUrl))
    const switchB = await host.router.dispatch('accounts.switch', { baseUrl: b.baseUrl })
    expect(switchB).toMatchObject({ ok: false, error: { kind: 'not-found' } })

    // Add B again and remove it while it is the current one: Seller Desk opens A, as the question says.
    await page.getByTestId('account-add').click()
    await page.getByTestId('base-url').fill(b.baseUrl)
    await page.getByTestId('api-key').fill(KEY_B)
    await page.getByTestId('sign-in').click()
    await expect(page.getByTestId('marketplace')).toContainText(hostOf(b.baseUrl))
    await page.getByTestId('nav-settings').click()
    await rows
      .filter({ hasText: hostOf(b.baseUrl) })
      .getByTestId('account-remove')
      .click()
    await expect(page.locator('.n-dialog')).toContainText(
      `Remove ${hostOf(b.baseUrl)}? Its API key is deleted from this computer, and Seller Desk opens ${hostOf(a.baseUrl)}.`
    )
    await page.getByTestId('confirm-remove-account').click()
    await expect(page.getByTestId('marketplace')).toContainText(hostOf(a.baseUrl))
    await expect(rows).toHaveCount(1)
    await expect(rows.first().getByTestId('account-current')).toBeVisible()
    await page.getByTestId('nav-orders').click()
    await expect(page.getByTestId('orders-total')).toContainText(`${totalA} orders`)

    // Neither key ever reached the page.
    expect(traffic.bodies.filter((body) => body.includes(KEY_A) || body.includes(KEY_B))).toEqual([])
    expect(await page.content()).not.toContain(KEY_A)
  })

  test.describe('after signing out', () => {
    const keychainService = `Seller Desk e2e saved accounts ${process.pid}-${Date.now()}`
    test.use({ hostOptions: { keychainService } })

    async function signInWithForm(page: Page, baseUrl: string, key: string) {
      await page.getByTestId('base-url').fill(baseUrl)
      await page.getByTestId('api-key').fill(key)
      await page.getByTestId('sign-in').click()
      await expect(page.getByTestId('marketplace')).toContainText(hostOf(baseUrl))
    }

    async function addAccount(page: Page, baseUrl: string, key: string) {
      await page.getByTestId('nav-settings').click()
      await page.getByTestId('account-add').click()
      await signInWithForm(page, baseUrl, key)
    }

    test('the sign-in screen offers the saved accounts: one click back in, or only the key when it is gone', async ({ app: page, traffic }) => {
      await signInWithForm(page, a.baseUrl, KEY_A)
      await addAccount(page, b.baseUrl, KEY_B)

      // Signing out of B asks first, naming B and what is lost: its key. Enter keeps the safe answer
      // (Cancel has the focus): still signed in to B, its key still stored.
      await expect(page.getByTestId('sign-out')).toHaveAttribute('title', /synced orders and listings, and changes staged in Bulk edit, stay on this computer/)
      await page.getByTestId('sign-out').click()
      const question = page.getByRole('dialog')
      await expect(question).toContainText(`Sign out of ${hostOf(b.baseUrl)}? Its API key is deleted from this computer`)
      await expect(page.getByTestId('cancel-sign-out')).toBeFocused()
      await page.keyboard.press('Enter')
      await expect(question).toHaveCount(0)
      await expect(page.getByTestId('marketplace')).toContainText(hostOf(b.baseUrl))
      expect(await (await chooseSecretStore({ service: keychainService })).store.get(b.baseUrl)).toBe(KEY_B)

      // Signed out when the seller says so: B is forgotten; A is still saved, with its key; what happened is said.
      await page.getByTestId('sign-out').click()
      await page.getByTestId('confirm-sign-out').click()
      await expect(
        page.getByText('Signed out: the API key is deleted from this computer. Your synced orders and listings stay on it for when you sign in again.')
      ).toBeVisible()
      const saved = page.getByTestId('saved-account')
      await expect(saved).toHaveCount(1)
      await expect(saved.first()).toContainText(hostOf(a.baseUrl))
      await expect(page.getByTestId('saved-accounts')).not.toContainText(hostOf(b.baseUrl))

      // One click: signed in to A, nothing typed.
      await saved.first().getByTestId('saved-account-sign-in').click()
      await expect(page.getByTestId('marketplace')).toContainText(hostOf(a.baseUrl))
      await page.getByTestId('nav-orders').click()
      await expect(page.getByTestId('order-row').first()).toBeVisible()

      // A's key disappears from the keychain (another tool removed it), then the seller signs out of B.
      await addAccount(page, b.baseUrl, KEY_B)
      await (await chooseSecretStore({ service: keychainService })).store.delete(a.baseUrl)
      await page.getByTestId('sign-out').click()
      await page.getByTestId('confirm-sign-out').click()
      await expect(saved).toHaveCount(1)
      await saved.first().getByTestId('saved-account-sign-in').click()
      // Still signed out: the reason, A's address filled in, the cursor in the empty key field.
      await expect(page.getByTestId('sign-in-error')).toContainText('no longer stored')
      await expect(page.getByTestId('base-url')).toHaveValue(a.baseUrl)
      await expect(page.getByTestId('api-key')).toHaveValue('')
      await expect(page.getByTestId('api-key')).toBeFocused()
      await page.getByTestId('api-key').fill(KEY_A)
      await page.getByTestId('sign-in').click()
      await expect(page.getByTestId('marketplace')).toContainText(hostOf(a.baseUrl))

      expect(traffic.bodies.filter((body) => body.includes(KEY_A) || body.includes(KEY_B))).toEqual([])
    })
  })
})

test.describe('theme', () => {
  const brightness = (rgb: string) => (rgb.match(/\d+/g) ?? []).slice(0, 3).reduce((sum, n) => sum + Number(n), 0)
  const background = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor)

  test('dark chosen in Settings wins over a light OS and survives a restart', async ({ page }) => {
    const userDataDir = mkdtempSync(join(tmpdir(), 'seller-desk-e2e-theme-'))
    const keychainService = `Seller Desk e2e theme ${process.pid}-${Date.now()}`
    const open = async () => {
      const host = await startPreviewHost({
        userDataDir,
        keychainService,
        apiOptions: { retries: 1, backoffMs: 50, timeoutMs: 5_000 },
        coreWorkerFile: builtCoreWorkerFile()
      })
      await page.goto(host.url)
      return host
    }
    await page.route(/^(?!http:\/\/127\.0\.0\.1:)/, (route) => route.abort())
    await page.emulateMedia({ colorScheme: 'light' })
    let host = await open()
    try {
      await page.getByTestId('start-demo').click()
      await expect(page.getByTestId('demo-badge')).toBeVisible()
      await expect.poll(async () => brightness(await background(page))).toBeGreaterThan(600)
      await page.getByTestId('nav-settings').click()
      await page.getByTestId('settings-theme').getByText('Dark', { exact: true }).click()
      await expect.poll(async () => brightness(await background(page))).toBeLessThan(200)

      // A restart: a new main side on the same user-data folder, the page opened afresh, the OS still light.
      await host.close()
      host = await open()
      await expect(page.getByTestId('demo-badge')).toBeVisible()
      await expect.poll(async () => brightness(await background(page))).toBeLessThan(200)

      // Back to following the OS.
      await page.getByTestId('nav-settings').click()
      await page.getByTestId('settings-theme').getByText('System', { exact: true }).click()
      await expect.poll(async () => brightness(await background(page))).toBeGreaterThan(600)
      await page.emulateMedia({ colorScheme: 'dark' })
      await expect.poll(async () => brightness(await background(page))).toBeLessThan(200)
    } finally {
      await host.close()
      rmSync(userDataDir, { recursive: true, force: true })
    }
  })
})
