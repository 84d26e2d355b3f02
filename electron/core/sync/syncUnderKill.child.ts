/**
 * Child process for syncUnderKill.test.ts: syncs a snapshot file against a marketplace in a loop until
 * it is killed. Full syncs alternate with incremental ones so kills land in every phase.
 * argv: <snapshot file> <base URL> <api key>
 */
import { createSellerApi } from '../sellerApi'
import { openSnapshot } from '../snapshot/snapshot'
import { createSyncEngine, DEFAULT_SYNC_SETTINGS } from './syncEngine'

const [file, baseUrl, apiKey] = process.argv.slice(2) as [string, string, string]
const snapshot = openSnapshot(file)
const engine = createSyncEngine({
  api: createSellerApi({ baseUrl, apiKey, backoffMs: 5 }),
  snapshot,
  settings: { ...DEFAULT_SYNC_SETTINGS, take: 50, historyDays: 3650 },
  // Each page written says so, so the parent can aim its kill at work in progress (not at start-up).
  onProgress: () => process.stdout.write('page\n')
})
process.stdout.write('ready\n')
for (let round = 0; ; round++) {
  await engine.run(round % 3 === 2 ? 'incremental' : 'full', new AbortController().signal)
}
