/**
 * A user-data folder as Seller Desk leaves it after syncing a marketplace account: the account's
 * snapshot file, session.json and the key in the keychain. Benchmarks start a preview host on it to
 * measure what a returning seller sees. (Run under scripts/with-keyring.sh on Linux.)
 */
import { cpSync, mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { chooseSecretStore } from '../electron/core/secrets/chooseSecretStore'
import { createSellerApi } from '../electron/core/sellerApi'
import { snapshotFileFor } from '../electron/core/snapshot/snapshot'

export const BENCH_KEYCHAIN_SERVICE = 'Seller Desk bench'

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
