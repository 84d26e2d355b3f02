/**
 * Child process for stagedUnderKill.test.ts: opens the snapshot (the saved change set comes back), then
 * stages one step after another until it is killed, printing `saved <step>` once a step is written.
 * argv: <snapshot file> <base URL> <first step> <listing ids, comma-separated>
 */
import { createSellerApi } from '../sellerApi'
import { openSnapshot } from '../snapshot/snapshot'
import { createBulkEdit } from './bulkEdit'
import { stepChanges } from './stagedUnderKill.steps'

const [file, baseUrl, first, idList] = process.argv.slice(2) as [string, string, string, string]
const ids = idList.split(',')
const snapshot = openSnapshot(file)
const bulk = createBulkEdit({ snapshot, api: createSellerApi({ baseUrl, apiKey: 'unused' }), online: () => true, onProgress: () => {} })
for (let step = Number(first); ; step++) {
  bulk.stage(stepChanges(ids, step))
  await new Promise((resolve) => setImmediate(resolve)) // the step's save runs first (queued by the stage)
  process.stdout.write(`saved ${step}\n`)
}
