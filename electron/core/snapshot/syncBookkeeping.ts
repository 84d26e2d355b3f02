/**
 * What the snapshot knows about its own freshness: per resource, when the last full and incremental
 * syncs completed and the server's total; and the full-sync run in progress (pages staged so far),
 * which is what makes a full sync resumable after a crash or a cancel.
 */
import type { Db } from './database'

export type Resource = 'orders' | 'sellRequests'

export interface ResourceSyncState {
  lastFullMs: number | null
  lastIncrementalMs: number | null
  serverTotal: number | null
  /** Orders: the start of the synced history window at the last full sync. */
  windowFromMs: number | null
}

export interface SyncRun {
  resource: Resource
  startedMs: number
  take: number
  windowFromMs: number | null
  total: number
  pagesDone: number[]
}

const EMPTY: ResourceSyncState = { lastFullMs: null, lastIncrementalMs: null, serverTotal: null, windowFromMs: null }

export function readSyncState(db: Db, resource: Resource): ResourceSyncState {
  const row = db
    .prepare('SELECT last_full_ms, last_incremental_ms, server_total, window_from_ms FROM sync_state WHERE resource = ?')
    .raw()
    .get(resource) as [number | null, number | null, number | null, number | null] | undefined
  if (!row) return { ...EMPTY }
  return { lastFullMs: row[0], lastIncrementalMs: row[1], serverTotal: row[2], windowFromMs: row[3] }
}

export function writeSyncState(db: Db, resource: Resource, patch: Partial<ResourceSyncState>): void {
  const next = { ...readSyncState(db, resource), ...patch }
  db.prepare(
    'INSERT OR REPLACE INTO sync_state (resource, last_full_ms, last_incremental_ms, server_total, window_from_ms) VALUES (?, ?, ?, ?, ?)'
  ).run(resource, next.lastFullMs, next.lastIncrementalMs, next.serverTotal, next.windowFromMs)
}

export function readRun(db: Db, resource: Resource): SyncRun | null {
  const row = db
    .prepare('SELECT started_ms, take, window_from_ms, total, pages_done FROM sync_runs WHERE resource = ?')
    .raw()
    .get(resource) as [number, number, number | null, number, string] | undefined
  if (!row) return null
  return { resource, startedMs: row[0], take: row[1], windowFromMs: row[2], total: row[3], pagesDone: JSON.parse(row[4]) as number[] }
}

export function writeRun(db: Db, run: SyncRun): void {
  db.prepare('INSERT OR REPLACE INTO sync_runs (resource, started_ms, take, window_from_ms, total, pages_done) VALUES (?, ?, ?, ?, ?, ?)').run(
    run.resource, run.startedMs, run.take, run.windowFromMs, run.total, JSON.stringify(run.pagesDone)
  )
}

export function deleteRun(db: Db, resource: Resource): void {
  db.prepare('DELETE FROM sync_runs WHERE resource = ?').run(resource)
}
