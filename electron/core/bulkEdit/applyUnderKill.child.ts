/**
 * Child process for applyUnderKill.test.ts: resumes a bulk-edit batch until it is killed (or done).
 * argv: <snapshot file> <base URL> <api key> <batch id>
 */
import { createSellerApi } from '../sellerApi'
import { openSnapshot } from '../snapshot/snapshot'
import { createBulkEdit } from './bulkEdit'

const [file, baseUrl, apiKey, batchId] = process.argv.slice(2) as [string, string, string, string]
const snapshot = openSnapshot(file)
const bulk = createBulkEdit({ snapshot, api: createSellerApi({ baseUrl, apiKey, backoffMs: 5 }), online: () => true, onProgress: () => {} })
if (bulk.status().pendingBatch?.id === batchId) bulk.resume(batchId)
process.stdout.write('ready\n')
await bulk.whenIdle()
snapshot.close()
