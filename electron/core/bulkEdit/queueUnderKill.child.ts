/**
 * Child process for queueUnderKill.test.ts: opens the snapshot (the saved change set comes back) and
 * applies every staged change, queued a few at a time, until it is killed (or done). It prints
 * `queueing` as each part of the batch is written (the test aims its kill from the first).
 * argv: <snapshot file> <base URL> <api key>
 */
import { createSellerApi } from '../sellerApi'
import { openSnapshot } from '../snapshot/snapshot'
import { createBulkEdit } from './bulkEdit'

const [file, baseUrl, apiKey] = process.argv.slice(2) as [string, string, string]
const snapshot = openSnapshot(file)
const bulk = createBulkEdit({
  snapshot,
  api: createSellerApi({ baseUrl, apiKey, backoffMs: 5 }),
  online: () => true,
  onProgress: () => {},
  queuePart: 10,
  turnMs: 0,
  restMs: 0
})
const { queueBatch } = snapshot.bulkEdit
snapshot.bulkEdit.queueBatch = (batch, taken) => {
  process.stdout.write('queueing\n')
  return queueBatch(batch, taken)
}
await bulk.apply(true)
await bulk.whenIdle()
snapshot.close()
