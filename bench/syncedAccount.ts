/**
 * A marketplace account as Seller Desk leaves it after syncing: the marketplace (in a process of its own),
 * its snapshot after a full sync, and user-data folders made from it (the account's snapshot file,
 * session.json and the key in the keychain). Benchmarks start a core or preview host on such a folder to
 * measure what a returning seller sees. (Run under scripts/with-keyring.sh on Linux.)
 */
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { chooseSecretStore } from '../electron/core/secrets/chooseSecretStore'
import { createSellerApi } from '../electron/core/sellerApi'
import { openSnapshot, snapshotFileFor } from '../electron/core/snapshot/snapshot'
import { createSyncEngine, DEFAULT_SYNC_SETTINGS } from '../electron/core/sync/syncEngine'
import { startMarketplaceProcess, type MarketplaceProcess } from './marketplaceProcess'

export const BENCH_KEYCHAIN_SERVICE = 'Seller Desk bench'

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

export async function prepareSyncedAccount(options: { userDataDir: string; snapshotFile: string; baseUrl: string; apiKey: string }) {
  const api = createSellerApi({ baseUrl: options.baseUrl, apiKey: options.apiKey })
  const probe = await api.listSellRequests({ take: 1 })
  const account = { demo: false, baseUrl: api.baseUrl, sellerId: probe.sellRequests[0]?.seller ?? null }
  const target = snapshotFileFor(options.userDataDir, account)
  mkdirSync(dirname(target), { recursive: true })
  cpSync(options.snapshotFile, target)
  writeFileSync(join(options.userDataDir, 'session.json'), JSON.stringify({ lastAccount: { kind: 'marketplace', ...account }, lastBaseUrl: api.baseUrl }))
  const secrets = await chooseSecretStore({ service: BENCH_KEYCHAIN_SERVICE })
  await secrets.store.set(api.baseUrl, options.apiKey)
  return { forget: () => secrets.store.delete(api.baseUrl) }
}

export interface SyncedBenchAccount {
  market: MarketplaceProcess
  /** A fresh folder of this benchmark's own (`seller-desk-bench-<name>-…`), the synced snapshot in it. */
  work: string
  /** Makes `userDataDir` a returning seller's user data for this account; `forget` takes the key out of the keychain again. */
  userData(userDataDir: string): ReturnType<typeof prepareSyncedAccount>
}

/** Starts a marketplace of `orders` orders and `sellRequests` sell requests and syncs it fully once, into a work folder named for `name`. */
export async function syncedBenchAccount(name: string, sizes: { orders: number; sellRequests: number }): Promise<SyncedBenchAccount> {
  const market = await startMarketplaceProcess(sizes.orders, sizes.sellRequests)
  const work = mkdtempSync(join(tmpdir(), `seller-desk-bench-${name}-`))
  const snapshotFile = await fullySyncedSnapshot(market, work)
  return {
    market,
    work,
    userData: (userDataDir) => prepareSyncedAccount({ userDataDir, snapshotFile, baseUrl: market.baseUrl, apiKey: market.apiKey })
  }
}
