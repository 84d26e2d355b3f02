/**
 * A second, read-only connection to the account's snapshot file, for the dashboard's sums and the
 * filters' choices: reads run beside the sync's writes (WAL) and can never change the snapshot.
 */
import Database from 'libsql'
import type { Db } from '../snapshot/database'

export function openSnapshotReader(file: string): Db {
  return new Database(file, { readonly: true, timeout: 5 })
}
