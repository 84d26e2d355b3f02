/**
 * Screenshots of every view (dashboard, orders, the order drawer, sell requests, bulk edit, settings) at
 * the window sizes sellers use (1024×700, 1366×768, 1920×1080), light and dark, from the browser preview
 * on the demo marketplace, for looking at the layout by eye:
 * `npx electron-vite build && npx tsx scripts/view-screenshots.ts [folder]` (on Linux inside
 * scripts/with-keyring.sh). Writes <folder>/<view>-<width>x<height>-<theme>.png (default folder
 * /tmp/seller-desk-views). The layout itself is asserted by e2e/layout.preview.spec.ts.
 */
import { mkdirSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Page } from '@playwright/test'
import { startPreviewHost } from '../electron/preview/host'

const out = process.argv[2] ?? '/tmp/seller-desk-views'
const SIZES = [
  { width: 1024, height: 700 },
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 }
] as const

mkdirSync(out, { recursive: true })
const host = await startPreviewHost({ userDataDir: mkdtempSync(join(tmpdir(), 'seller-desk-views-')), keychain: false, version: 'screenshots' })
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run']
})

async function shoot(page: Page, name: string) {
  await page.mouse.move(0, 0) // no hover tooltips
  await page.waitForTimeout(400) // let theme transitions and resizes settle
  await page.screenshot({ path: join(out, `${name}.png`) })
}

let signedIn = false
for (const scheme of ['light', 'dark'] as const) {
  const page = await browser.newPage({ viewport: SIZES[0], colorScheme: scheme, deviceScaleFactor: 1 })
  await page.goto(host.url)
  if (!signedIn) {
    await page.getByTestId('start-demo').click()
    // The first sync fills the snapshot every view reads.
    await page.getByTestId('sync-last').waitFor({ timeout: 60_000 })
    signedIn = true
  }
  for (const size of SIZES) {
    await page.setViewportSize(size)
    const name = (view: string) => `${view}-${size.width}x${size.height}-${scheme}`

    await page.getByTestId('nav-dashboard').click()
    await page.getByTestId('dashboard-chart').locator('canvas').waitFor()
    await shoot(page, name('dashboard'))

    await page.getByTestId('nav-orders').click()
    await page.getByTestId('order-row').first().waitFor()
    await shoot(page, name('orders'))
    await page.getByTestId('order-row').nth(1).click()
    await page.getByTestId('order-drawer').waitFor()
    await shoot(page, name('order-drawer'))
    await page.keyboard.press('Escape')
    await page.getByTestId('order-drawer').waitFor({ state: 'hidden' })

    await page.getByTestId('nav-sellRequests').click()
    await page.getByTestId('sell-request-row').first().waitFor()
    await shoot(page, name('sell-requests'))

    await page.getByTestId('nav-bulkEdit').click()
    await page.getByTestId('bulk-grid').locator('.rgCell').first().waitFor()
    await shoot(page, name('bulk-edit'))

    await page.getByTestId('nav-settings').click()
    await page.waitForTimeout(300)
    await shoot(page, name('settings'))
  }
  await page.close()
}

await browser.close()
await host.close()
console.log(`Screenshots written to ${out}/`)
