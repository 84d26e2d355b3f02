/**
 * Takes README's screenshots from the browser preview on the demo marketplace:
 * `npx electron-vite build && npx tsx scripts/readme-screenshots.ts` (on Linux inside
 * scripts/with-keyring.sh). Writes docs/screenshots/*.png.
 */
import { mkdirSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Page } from '@playwright/test'
import { startPreviewHost } from '../e2e/preview/host'

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
  const page = await browser.newPage({ viewport: { width: 1360, height: 820 }, colorScheme: scheme, deviceScaleFactor: 1 })
  await page.goto(host.url)
  if (scheme === 'light') {
    await page.getByTestId('start-demo').waitFor()
    await shoot(page, 'sign-in')
    await page.getByTestId('start-demo').click()
  }
  await page.getByTestId('order-row').first().waitFor()
  await page.getByTestId('order-row').nth(1).click()
  await page.getByTestId('order-items').first().waitFor()
  await shoot(page, scheme === 'light' ? 'orders' : 'orders-dark')
  if (scheme === 'light') {
    await page.getByTestId('nav-sellRequests').click()
    await page.getByTestId('sell-request-row').first().waitFor()
    await shoot(page, 'sell-requests')
    await page.getByTestId('edit-sell-request').first().click()
    await page.getByTestId('edit-price').fill('12.345')
    await shoot(page, 'edit')
  }
  await page.close()
}

await browser.close()
await host.close()
console.log(`Screenshots written to ${out}/`)
