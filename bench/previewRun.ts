/**
 * What the browser benchmarks share: a snapshot fully synced from the marketplace, Debian's Chromium
 * with the flags the tests use, the cold start of a preview host (host start → page → dashboard → a
 * click on Orders → first cached order row), and waiting out the host's start-up sync so it does not
 * share the cores with what is measured.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { chromium, type Browser, type Page } from '@playwright/test'
import { startPreviewHost, type PreviewHost } from '../electron/preview/host'
import type { SyncStatus } from '../electron/shared/contract'
import { createSellerApi } from '../electron/core/sellerApi'
import { openSnapshot } from '../electron/core/snapshot/snapshot'
import { createSyncEngine, DEFAULT_SYNC_SETTINGS } from '../electron/core/sync/syncEngine'
import type { MarketplaceProcess } from './marketplaceProcess'
import { BENCH_KEYCHAIN_SERVICE } from './syncedAccount'

/** Sync settings of the benchmarks: a ten-year window, so every seeded order is in the snapshot. */
export const BENCH_SYNC_SETTINGS = { ...DEFAULT_SYNC_SETTINGS, historyDays: 3650 }

/** `work/snapshot.sqlite` after a full sync of the marketplace. */
export async function fullySyncedSnapshot(market: Pick<MarketplaceProcess, 'baseUrl' | 'apiKey'>, work: string): Promise<string> {
  const file = join(work, 'snapshot.sqlite')
  const snapshot = openSnapshot(file)
  await createSyncEngine({
    api: createSellerApi({ baseUrl: market.baseUrl, apiKey: market.apiKey }),
    snapshot,
    settings: BENCH_SYNC_SETTINGS
  }).run('full', new AbortController().signal)
  snapshot.close()
  return file
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run']
  })
}

/** CPU time (ms) used so far by the process `pid` and all its descendants (Linux /proc; 0 elsewhere). */
function treeCpuMs(pid: number): number {
  const stats: { pid: number; ppid: number; ms: number }[] = []
  let entries: string[] = []
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name))
  } catch {
    return 0
  }
  for (const name of entries) {
    try {
      const text = readFileSync(`/proc/${name}/stat`, 'utf8')
      const fields = text.slice(text.lastIndexOf(')') + 2).split(' ')
      // Fields after the name: state, ppid, …; utime and stime are the 12th and 13th, in clock ticks (10 ms here).
      stats.push({ pid: Number(name), ppid: Number(fields[1]), ms: (Number(fields[11]) + Number(fields[12])) * 10 })
    } catch {
      // Ended meanwhile.
    }
  }
  const inTree = new Set([pid])
  for (let grew = true; grew;) {
    grew = false
    for (const stat of stats) {
      if (inTree.has(stat.pid) || !inTree.has(stat.ppid)) continue
      inTree.add(stat.pid)
      grew = true
    }
  }
  return stats.filter((stat) => inTree.has(stat.pid)).reduce((sum, stat) => sum + stat.ms, 0)
}

/**
 * Waits until the browser's own start is over: Chromium goes on starting its own parts (a renderer of
 * its own UI among them) for a second or two after launch, which an app's window never has to share its
 * cores with. Measured on this process's children (Playwright's browser is one; the marketplace, idle,
 * another). Quiet: under 10 % of a core over two 250 ms windows in a row (at most `timeoutMs`).
 */
export async function browserSettled(timeoutMs = 10_000): Promise<void> {
  const pid = process.pid
  let quiet = 0
  for (let started = Date.now(), before = treeCpuMs(pid); quiet < 2 && Date.now() - started < timeoutMs;) {
    await new Promise((resolve) => setTimeout(resolve, 250))
    const now = treeCpuMs(pid)
    quiet = now - before < 25 ? quiet + 1 : 0
    before = now
  }
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
  const host = await startPreviewHost({ userDataDir, keychainService: BENCH_KEYCHAIN_SERVICE })
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
