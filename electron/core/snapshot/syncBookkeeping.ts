/**
 * What the snapshot knows about its own freshness: per resource, when the last full and incremental
 * syncs completed, where the next incremental sync starts (in the marketplace's clock), and how many
 * rows the last completeness check found against the server's total; and the full-sync run in progress
 * (the rows staged so far, as ranges of list positions), which is what makes a full sync resumable
 * after a crash or a cancel, whatever page size the marketplace turns out to use.
 */
import { writeRows, type Db, type RowWrite } from './database'
import type { UnreadableEntry } from './unreadableRows'

export type Resource = 'orders' | 'sellRequests'

export interface ResourceSyncState {
  /** The computer's clock: when the last full sync started (what it holds is known whole up to then). */
  lastFullMs: number | null
  /**
   * The computer's clock when the last full sync's pass was committed: the periodic reconcile counts from
   * here, so a pass that took longer than the reconcile interval is not followed at once by another.
   * Null for a snapshot from before this was kept (lastFullMs stands in).
   */
  lastFullEndedMs: number | null
  /** The computer's clock. */
  lastIncrementalMs: number | null
  /** The server's total at the last completeness check. */
  serverTotal: number | null
  /** Orders: the start of the synced history window at the last full sync. */
  windowFromMs: number | null
  /**
   * The marketplace's clock when the last completed sync started reading: everything changed before
   * it is in the snapshot. The next incremental sync asks from here (less a safety margin).
   */
  cursorMs: number | null
  /** Rows the snapshot held at the last completeness check. */
  syncedCount: number | null
  /**
   * The last check found every row the server counts, with no deletion seen while reading that could
   * hide a row behind a deleted one; null before the first check.
   */
  complete: boolean | null
  /** Rows a page of this list holds on this marketplace, as the last full sync learned it. */
  pageSize: number | null
  /**
   * Orders: whether new orders showed the marketplace's zone-less order times to be read in the right
   * zone, UTC or the one the seller named (a new order dated within minutes of its clock), in a wrong
   * one (dated half an hour or more away), or not yet (null; sync/orderClock.ts). Kept in the column
   * zoneless_utc, named when only UTC was read.
   */
  orderTimesReadRight: boolean | null
  /**
   * Orders: how far the marketplace's wall clock, which it writes order times by, is ahead of UTC (ms, a
   * whole number of quarter hours), as the last new orders that told anything of the clock told it
   * (sync/orderClock.ts, syncEngine.ts toldBy); null where they told none, and when the seller names a zone.
   */
  clockOffsetMs: number | null
  /**
   * A committed full sync whose catch-up and check have not run (a sync stopped by the marketplace's rate
   * limit, the connection, a timeout): what they need of its pass. The next sync runs them instead of
   * reading the whole list again; a recorded check settles it. Null otherwise.
   */
  checkOwed: CheckOwed | null
  /**
   * A full sync that read the list again for every round it had, each time from its start to its end with
   * no position left out, and still found fewer rows than the marketplace counts, with no deletion or
   * shift seen to explain it: by how many (the marketplace counts rows it never lists). The next syncs
   * take it as known: an automatic one is incremental while the gap stays the same, a walk of what changed
   * ends within this many rows of its count on a short page asked again that brings nothing more, and a
   * full pass read without holes does not keep the rows it did not read for them. Null otherwise, and
   * after every full sync until its check.
   */
  settledGap: number | null
}

/**
 * What a full sync's pass tells the check after it (syncEngine.ts full), beyond what the snapshot holds:
 * a check run by a later sync judges the pass as the one right after it would have.
 */
export interface CheckOwed {
  /** Rows held that the pass did not read, kept unconfirmed by the commit. */
  kept: number
  /** The total went down while the pass read: a deletion may have hidden a row. */
  totalDropped: boolean
  /** The total of the round's first answer, and the last one the pass saw. */
  firstTotal: number | null
  lastTotal: number
  /** Rows the pass read that were created after the round's first answer, and where "after" begins (ms). */
  createdCount: number
  createdAfterMs: number | null
  /** The rows the pass could not read. */
  unreadable: UnreadableEntry[]
}

/**
 * The rows a full sync's pass found created after its round's first answer, and how it tells them
 * (syncEngine.ts CreatedRows): kept with the run, so a pass read over several attempts counts them as
 * one pass would.
 */
export interface CreatedSoFar {
  /** Where "created after the first answer" begins (ms); null when nothing told it. */
  afterMs: number | null
  /** The rows of the first answer: there before it, whatever their dates say. */
  firstIds: string[]
  /** The rows read so far that were created after it. */
  ids: string[]
}

/** Half-open ranges [start, end) of list positions, sorted and disjoint. */
export type RowRanges = [number, number][]

export interface SyncRun {
  resource: Resource
  /** The computer's clock. */
  startedMs: number
  windowFromMs: number | null
  /** The latest total the server gave during this run. */
  total: number
  /** Rows per page as the server pages (learned from its answers). */
  pageSize: number
  /** List positions staged in this round. */
  covered: RowRanges
  /** The marketplace's clock at the run's first answer (see ResourceSyncState.cursorMs). */
  cursorMs: number | null
  /** 1 for the first pass over the list; each check that fails starts another from scratch. */
  round: number
  /** The total went down during this round: a deletion may have shifted rows past a page boundary. */
  totalDropped: boolean
  /** The total of the round's first answer: with the rows created since, it tells whether any were deleted. */
  firstTotal: number | null
  /**
   * The computer's clock when the run last recorded positions read (or began its round): how long it has
   * made no progress. Absent for a run from before this was kept, whose start stands in.
   */
  progressMs?: number
  /**
   * What the round's pass has seen so far that the check after it judges it by, beyond the totals: the
   * rows created meanwhile, and the rows it could not read. Absent for a run from before these were
   * kept, and until the pass first records positions read.
   */
  created?: CreatedSoFar
  unreadable?: UnreadableEntry[]
}

const EMPTY: ResourceSyncState = {
  lastFullMs: null,
  lastFullEndedMs: null,
  lastIncrementalMs: null,
  serverTotal: null,
  windowFromMs: null,
  cursorMs: null,
  syncedCount: null,
  complete: null,
  pageSize: null,
  orderTimesReadRight: null,
  clockOffsetMs: null,
  checkOwed: null,
  settledGap: null
}

type StateRow = [
  number | null,
  number | null,
  number | null,
  number | null,
  number | null,
  number | null,
  number | null,
  number | null,
  number | null,
  number | null,
  number | null,
  string | null,
  number | null
]

export function readSyncState(db: Db, resource: Resource): ResourceSyncState {
  const row = db
    .prepare(
      'SELECT last_full_ms, last_incremental_ms, server_total, window_from_ms, cursor_ms, synced_count, complete, page_size, zoneless_utc, clock_offset_ms, last_full_ended_ms, check_owed, settled_gap FROM sync_state WHERE resource = ?'
    )
    .raw()
    .get(resource) as StateRow | undefined
  if (!row) return { ...EMPTY }
  return {
    lastFullMs: row[0],
    lastIncrementalMs: row[1],
    serverTotal: row[2],
    windowFromMs: row[3],
    cursorMs: row[4],
    syncedCount: row[5],
    complete: row[6] === null ? null : row[6] === 1,
    pageSize: row[7],
    orderTimesReadRight: row[8] === null ? null : row[8] === 1,
    clockOffsetMs: row[9],
    lastFullEndedMs: row[10],
    checkOwed: row[11] === null ? null : (JSON.parse(row[11]) as CheckOwed),
    settledGap: row[12]
  }
}

/** Writes the patch's values over the resource's state; a key left undefined keeps what is stored. */
export function writeSyncState(db: Db, resource: Resource, patch: { [K in keyof ResourceSyncState]?: ResourceSyncState[K] | undefined }): void {
  const next = { ...readSyncState(db, resource) }
  for (const [key, value] of Object.entries(patch)) if (value !== undefined) (next as Record<string, unknown>)[key] = value
  db.prepare(
    'INSERT OR REPLACE INTO sync_state (resource, last_full_ms, last_incremental_ms, server_total, window_from_ms, cursor_ms, synced_count, complete, page_size, zoneless_utc, clock_offset_ms, last_full_ended_ms, check_owed, settled_gap) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)'
  ).run(
    resource,
    next.lastFullMs,
    next.lastIncrementalMs,
    next.serverTotal,
    next.windowFromMs,
    next.cursorMs,
    next.syncedCount,
    next.complete === null ? null : next.complete ? 1 : 0,
    next.pageSize,
    next.orderTimesReadRight === null ? null : next.orderTimesReadRight ? 1 : 0,
    next.clockOffsetMs,
    next.lastFullEndedMs,
    next.checkOwed === null ? null : JSON.stringify(next.checkOwed),
    next.settledGap
  )
}

type RunRow = [number, number, number | null, number, string, number | null, number, number, number | null, number | null, string | null, string | null]

export function readRun(db: Db, resource: Resource): SyncRun | null {
  const row = db
    .prepare(
      'SELECT started_ms, take, window_from_ms, total, pages_done, cursor_ms, round, total_dropped, first_total, progress_ms, created_rows, unreadable_found FROM sync_runs WHERE resource = ?'
    )
    .raw()
    .get(resource) as RunRow | undefined
  if (!row) return null
  const [startedMs, pageSize, windowFromMs, total, done, cursorMs, round, totalDropped, firstTotal, progressMs, created, unreadable] = row
  return {
    resource,
    startedMs,
    pageSize,
    windowFromMs,
    total,
    covered: coveredFrom(JSON.parse(done) as unknown[], pageSize),
    cursorMs,
    round,
    totalDropped: totalDropped === 1,
    firstTotal,
    ...(progressMs !== null ? { progressMs } : {}),
    ...(created !== null ? { created: JSON.parse(created) as CreatedSoFar } : {}),
    ...(unreadable !== null ? { unreadable: JSON.parse(unreadable) as UnreadableEntry[] } : {})
  }
}

/** Ranges as stored; a run written before ranges were kept lists page numbers of `pageSize` rows. */
function coveredFrom(done: unknown[], pageSize: number): RowRanges {
  const ranges: RowRanges = []
  for (const item of done) {
    if (Array.isArray(item) && item.length === 2) ranges.push([Number(item[0]), Number(item[1])])
    else if (typeof item === 'number') ranges.push([(item - 1) * pageSize, item * pageSize])
  }
  return ranges.sort((a, b) => a[0] - b[0])
}

/** A run's positions as stored. */
const positionsOf = (run: SyncRun) => JSON.stringify(run.covered)

/** A run's stored columns besides its key (resource, started_ms), with their values. */
function runColumns(run: SyncRun): [column: string, value: unknown][] {
  return [
    ['take', run.pageSize],
    ['window_from_ms', run.windowFromMs],
    ['total', run.total],
    ['pages_done', positionsOf(run)],
    ['cursor_ms', run.cursorMs],
    ['round', run.round],
    ['total_dropped', run.totalDropped ? 1 : 0],
    ['first_total', run.firstTotal],
    ['progress_ms', run.progressMs ?? null],
    ['created_rows', run.created ? JSON.stringify(run.created) : null],
    ['unreadable_found', run.unreadable ? JSON.stringify(run.unreadable) : null]
  ]
}

/** The write that records a run as it stands, as data. */
function runWrite(run: SyncRun): RowWrite {
  const columns = runColumns(run)
  return {
    run: `INSERT OR REPLACE INTO sync_runs (resource, started_ms, ${columns.map(([column]) => column).join(', ')}) VALUES (?, ?, ${columns.map(() => '?').join(', ')})`,
    params: [run.resource, run.startedMs, ...columns.map(([, value]) => value)]
  }
}

/**
 * The write that records a run as it stands after a staged part, as data (it goes in the part's
 * transaction). It finds the run where the part before left it (`before`: the positions it recorded,
 * as stored) or fails, and the part with it: once a part failed, no later one can record positions
 * whose rows were never staged.
 */
export function runAdvance(run: SyncRun, before: string): { write: RowWrite; after: string } {
  const columns = runColumns(run)
  return {
    after: positionsOf(run),
    write: {
      run: `UPDATE sync_runs SET ${columns.map(([column]) => `${column} = ?`).join(', ')} WHERE resource = ? AND started_ms = ? AND pages_done = ?`,
      params: [...columns.map(([, value]) => value), run.resource, run.startedMs, before],
      unlessOneRow: `the ${run.resource} sync run is not where its last staged part left it (a part before this one failed)`
    }
  }
}

/** A run's positions as stored (what runAdvance expects to find), or null when there is no run. */
export function storedPositions(db: Db, resource: Resource): string | null {
  const row = db.prepare('SELECT pages_done FROM sync_runs WHERE resource = ?').raw().get(resource) as [string] | undefined
  return row ? row[0] : null
}

/** Records the run as it stands; returns its positions as stored (see runAdvance). */
export function writeRun(db: Db, run: SyncRun): string {
  writeRows(db, [runWrite(run)])
  return positionsOf(run)
}

export function deleteRun(db: Db, resource: Resource): void {
  db.prepare('DELETE FROM sync_runs WHERE resource = ?').run(resource)
}
