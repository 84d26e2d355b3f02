/**
 * What a spec compares the page with: what the core says through the same router the page uses (the
 * expected values), what the account's snapshot file holds (read through a connection of the test's
 * own, as the core runs in its worker), a number as the page shows it ("1,204 orders" → 1204), and
 * snapshot files made unreadable between two starts.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, type Page } from '@playwright/test'
import { openSnapshot, type Snapshot } from '../electron/core/snapshot/snapshot'
import type { PreviewHost } from '../electron/preview/host'
import type { SyncStatus } from '../electron/shared/contract'

export async function viaRouter<T>(host: PreviewHost, name: string, input: object): Promise<T> {
  const outcome = await host.router.dispatch(name, input)
  if (!outcome.ok) throw new Error(outcome.error.message)
  return outcome.value as T
}

/** The signed-in account's sync status, or null while no account is open. */
export const syncStatus = (host: PreviewHost): Promise<SyncStatus | null> => viaRouter<SyncStatus>(host, 'sync.status', {}).catch(() => null)

/**
 * How often syncFinishedAfter asks: the status is one cheap call to the core's worker, and Playwright's
 * own backing-off intervals (which grow to a second apart) see a sync end up to a second late,
 * in nearly every test, as most of them sign in first.
 */
const SYNC_POLL_MS = 50

/** Waits until a sync has finished after the one that finished at `before` (null: the first). */
export async function syncFinishedAfter(host: PreviewHost, before: string | null, timeout = 20_000): Promise<void> {
  await expect
    .poll(
      async () => {
        const status = await syncStatus(host)
        if (!status) return 'no account open'
        if (status.running) return 'running'
        if (status.lastSyncedAt === null || status.lastSyncedAt === before) return status.lastError ? `failed: ${status.lastError.message}` : 'not finished'
        return 'finished'
      },
      { timeout, intervals: [SYNC_POLL_MS], message: 'a sync finishes' }
    )
    .toBe('finished')
}

/**
 * Reads the open account's snapshot file (the only one under the host's user data, or the one named)
 * through a connection of the test's own; the file's transactions make what it reads consistent.
 */
export function readSnapshot<T>(host: PreviewHost, read: (snapshot: Snapshot) => T, name?: string): T {
  const folder = join(host.userDataDir, 'snapshots')
  const files = readdirSync(folder).filter((file) => file.endsWith('.sqlite') && (!name || file === name))
  if (files.length !== 1) throw new Error(`expected one snapshot file in ${folder}, found ${files.join(', ') || 'none'}`)
  const snapshot = openSnapshot(join(folder, files[0]!))
  try {
    return read(snapshot)
  } finally {
    snapshot.close()
  }
}

export const numberIn = async (page: Page, testId: string) => Number(((await page.getByTestId(testId).textContent()) ?? '').replace(/[^\d]/g, ''))

/**
 * Makes every snapshot under a user-data folder unreadable (garbage over each file; closed, a snapshot's
 * log is folded into its file, so nothing else holds its pages). Returns the files' names.
 */
export function spoilSnapshots(userDataDir: string): string[] {
  const folder = join(userDataDir, 'snapshots')
  const files = readdirSync(folder).filter((name) => name.endsWith('.sqlite'))
  for (const name of files) {
    const path = join(folder, name)
    writeFileSync(path, Buffer.alloc(readFileSync(path).length, 0x5a))
    rmSync(`${path}-wal`, { force: true })
    rmSync(`${path}-shm`, { force: true })
  }
  return files
}
