/**
 * What the browser benchmarks share: Debian's Chromium with the flags the tests use, the cold start of
 * a preview host (host start → page → dashboard → a click on Orders → first cached order row), and
 * waiting out the host's start-up sync so it does not share the cores with what is measured. (The
 * synced snapshot and user data they start from: bench/syncedAccount.ts.)
 */
import { chromium, type Browser, type Page } from '@playwright/test'
import { startPreviewHost, type PreviewHost } from '../electron/preview/host'
import { builtCoreWorkerFile } from '../electron/worker/coreHost'
import type { SyncStatus } from '../electron/shared/contract'
import { cpuUsedBetween, treeCpuMs } from './processCpu'
import { BENCH_KEYCHAIN_SERVICE } from './syncedAccount'

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run']
  })
}

const WINDOW_MS = 250
const QUIET_WINDOWS = 2
/** A tenth of one core over a window. */
const QUIET_CPU_MS = WINDOW_MS / 10

/**
 * Waits until the browser's own start is over: Chromium goes on starting its own parts (a renderer of
 * its own UI among them) after its launch, which an app's window never has to share its cores with.
 * Measured on this process's children (Playwright's browser is one; the marketplace, idle, another).
 * Quiet: less than QUIET_CPU_MS of CPU in each of QUIET_WINDOWS windows of WINDOW_MS in a row. False
 * when it was not quiet within `timeoutMs`, or there is no /proc to tell (then it only waited).
 */
export async function browserSettled(timeoutMs = 10_000): Promise<boolean> {
  let quiet = 0
  let before = treeCpuMs(process.pid)
  if (before.size === 0) {
    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS * QUIET_WINDOWS))
    return false
  }
  for (const started = Date.now(); quiet < QUIET_WINDOWS && Date.now() - started < timeoutMs;) {
    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS))
    const now = treeCpuMs(process.pid)
    quiet = cpuUsedBetween(before, now) < QUIET_CPU_MS ? quiet + 1 : 0
    before = now
  }
  return quiet >= QUIET_WINDOWS
}

export interface ColdStart {
  host: PreviewHost
  /** Host started: snapshot opened, key read from the keychain. */
  hostReadyMs: number
  /** Host start → the first cached order row visible (the seller lands on the dashboard and opens Orders). */
  coldStartMs: number
  /** Host start → the page's load event, the menu shown, the click on Orders done (Playwright's checks included). */
  steps: { pageLoadedMs: number; menuShownMs: number; clickedMs: number }
}

/** Starts a preview host on a prepared user-data folder and opens it in `page` as a returning seller would. */
export async function coldStart(page: Page, userDataDir: string): Promise<ColdStart> {
  const started = performance.now()
  const since = () => performance.now() - started
  const host = await startPreviewHost({ userDataDir, keychainService: BENCH_KEYCHAIN_SERVICE, coreWorkerFile: builtCoreWorkerFile() })
  const hostReadyMs = since()
  await page.goto(host.url)
  const pageLoadedMs = since()
  const orders = page.getByTestId('nav-orders')
  await orders.waitFor()
  const menuShownMs = since()
  await orders.click()
  const clickedMs = since()
  await page.getByTestId('order-row').first().waitFor()
  return { host, hostReadyMs, coldStartMs: since(), steps: { pageLoadedMs, menuShownMs, clickedMs } }
}

/** Waits for the host's start-up sync to have run and finished. */
export async function afterStartupSync(host: PreviewHost): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 2_500))
  const running = async () => {
    const outcome = await host.router.dispatch('sync.status', {})
    return outcome.ok && (outcome.value as SyncStatus).running
  }
  while (await running()) await new Promise((resolve) => setTimeout(resolve, 100))
}
