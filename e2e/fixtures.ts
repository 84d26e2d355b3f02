/**
 * Playwright fixtures for the browser preview: every test gets its own preview host (core services in
 * this worker, fresh user-data folder, its own keychain service name) and a page opened on it.
 * Every bridge response is recorded so tests can check what crossed to the page.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test as base, type Page } from '@playwright/test'
import { startPreviewHost, type PreviewHost, type PreviewHostOptions } from '../electron/preview/host'
import { builtCoreWorkerFile } from '../electron/worker/coreHost'
import { installPageMeasures } from './pageMeasures'

export interface BridgeTraffic {
  /** Bodies of every /rpc response and event-stream chunk the page received. */
  bodies: string[]
}

interface Fixtures {
  hostOptions: Partial<PreviewHostOptions>
  host: PreviewHost
  traffic: BridgeTraffic
  app: Page
}

export const test = base.extend<Fixtures>({
  hostOptions: [{}, { option: true }],

  host: async ({ hostOptions }, use) => {
    const userDataDir = mkdtempSync(join(tmpdir(), 'seller-desk-e2e-'))
    const host = await startPreviewHost({
      userDataDir,
      keychainService: `Seller Desk e2e ${process.pid}-${Date.now()}`,
      apiOptions: { retries: 1, backoffMs: 50, timeoutMs: 5_000 },
      coreWorkerFile: builtCoreWorkerFile(),
      ...hostOptions
    })
    await use(host)
    await host.close()
    rmSync(userDataDir, { recursive: true, force: true })
  },

  traffic: async ({}, use) => {
    await use({ bodies: [] })
  },

  app: async ({ page, host, traffic }, use) => {
    page.on('response', async (response) => {
      if (!response.url().startsWith(host.origin)) return
      const path = new URL(response.url()).pathname
      if (path.startsWith('/rpc/')) traffic.bodies.push(await response.text().catch(() => ''))
    })
    // The event stream: record what it delivers by listening in the page.
    await page.addInitScript(() => {
      const Original = window.EventSource
      window.EventSource = class extends Original {
        constructor(url: string | URL, init?: EventSourceInit) {
          super(url, init)
          this.addEventListener('message', (event) => {
            ;((window as unknown as { __events?: string[] }).__events ??= []).push(String((event as MessageEvent).data))
          })
        }
      } as typeof EventSource
    })
    await page.addInitScript(installPageMeasures)
    // No remote content: anything not from the host (or the sandbox's images on loopback) is blocked.
    await page.route(/^(?!http:\/\/127\.0\.0\.1:)/, (route) => route.abort())
    await page.goto(host.url)
    await use(page)
  }
})

export { expect } from '@playwright/test'
