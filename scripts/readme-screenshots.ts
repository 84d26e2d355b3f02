/**
 * Takes README's screenshots from the browser preview on the demo marketplace (dashboard, orders with
 * the order drawer, sell requests, bulk edit; light and dark):
 * `npx electron-vite build && npx tsx scripts/readme-screenshots.ts` (on Linux inside
 * scripts/with-keyring.sh). Writes docs/screenshots/*.png.
 */
import { mkdirSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Page } from '@playwright/test'
import { startPreviewHost } from '../electron/preview/host'

const out = 'docs/screenshots'
mkdirSync(out, { recursive: true })
const host = await startPreviewHost({ userDataDir: mkdtempSync(join(tmpdir(), 'seller-desk-shots-')), keychain: false, version: 'screenshots' })
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run']
})

async function shoot(page: Page, name: string) {
  await page.mouse.move(0, 0) // no hover tooltips
  await page.waitForTimeout(400) // let theme transitions settle
  await page.screenshot({ path: join(out, `${name}.png`) })
}

for (const scheme of ['light', 'dark'] as const) {
  const suffix = scheme === 'dark' ? '-dark' : ''
  const page = await browser.newPage({ viewport: { width: 1360, height: 820 }, colorScheme: scheme, deviceScaleFactor: 1 })
  await page.goto(host.url)
  if (scheme === 'light') {
    await page.getByTestId('start-demo').waitFor()
    await shoot(page, 'sign-in')
    await page.getByTestId('start-demo').click()
    // The first sync fills the snapshot the dashboard sums.
    await page.getByTestId('sync-last').waitFor({ timeout: 60_000 })
  }

  await page.getByTestId('nav-dashboard').click()
  await page.getByTestId('dashboard-chart').locator('canvas').waitFor()
  await shoot(page, `dashboard${suffix}`)

  await page.getByTestId('nav-orders').click()
  await page.getByTestId('order-row').first().waitFor()
  await shoot(page, `orders${suffix}`)
  await page.getByTestId('order-row').nth(1).click()
  await page.getByTestId('order-drawer').waitFor()
  await shoot(page, `order-drawer${suffix}`)
  await page.keyboard.press('Escape')
  await page.getByTestId('order-drawer').waitFor({ state: 'hidden' })

  await page.getByTestId('nav-sellRequests').click()
  await page.getByTestId('sell-request-row').first().waitFor()
  await shoot(page, `sell-requests${suffix}`)
  if (scheme === 'light') {
    await page.getByTestId('edit-sell-request').first().click()
    await page.getByTestId('edit-price').fill('12.345')
    await shoot(page, 'edit')
    // Closing with something typed asks first.
    await page.keyboard.press('Escape')
    await page.locator('.n-dialog').getByRole('button', { name: 'Discard', exact: true }).click()
    await page.getByTestId('edit-dialog').waitFor({ state: 'hidden' })
  }

  // Bulk edit: a pasted price column with one bad cell, a quantity filled down, then the review.
  await page.getByTestId('nav-bulkEdit').click()
  const cell = (row: number, col: number) =>
    page.locator(`revogr-data[type="rgRow"]:not([col-type="rowHeaders"]):not([col-type="colPinStart"]) .rgCell[data-rgrow="${row}"][data-rgcol="${col}"]`)
  await cell(0, 1).waitFor()
  if (scheme === 'light') {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: host.origin })
    await cell(1, 1).click()
    await page.evaluate(`navigator.clipboard.writeText('219.00\\n189.50\\n-5\\n349.99\\n')`)
    await page.keyboard.press('Control+v')
    await cell(2, 3).click()
    await page.keyboard.press('Enter')
    await page.locator('revogr-edit input').fill('12')
    await page.keyboard.press('Enter')
    await cell(3, 1).waitFor()
  }
  await cell(3, 1).click()
  await shoot(page, `bulk-edit${suffix}`)
  if (scheme === 'light') {
    await page.getByTestId('bulk-review').click()
    await page.getByTestId('bulk-preview-table').waitFor()
    await shoot(page, 'bulk-preview')
    await page.keyboard.press('Escape')
  }
  await page.close()
}

await browser.close()
await host.close()
console.log(`Screenshots written to ${out}/`)
