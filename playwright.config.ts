import { existsSync } from 'node:fs'
import { defineConfig } from '@playwright/test'

/** Debian's Chromium where it exists (CI, these machines); Playwright's own browser elsewhere. */
const chromium = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => existsSync(path))

export default defineConfig({
  testDir: 'e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    headless: true,
    viewport: { width: 1360, height: 860 },
    actionTimeout: 10_000,
    // A trace is recorded for every test (kept only for failures), which slows the whole suite and hid
    // timing bugs; a failure still leaves its screenshot. To trace: npx playwright test --trace on.
    trace: 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      ...(chromium ? { executablePath: chromium } : {}),
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic'
      ]
    }
  },
  projects: [
    { name: 'preview', testMatch: /.*\.preview\.spec\.ts/ },
    { name: 'electron', testMatch: /.*\.electron\.spec\.ts/ }
  ]
})
