/**
 * Opens a snapshot file with libsql (a Node-API SQLite binding: loads in Electron and Node without a
 * rebuild). WAL journal, migrations applied, integrity checked (as it opens, or apart on a thread of its
 * own: see IntegrityCheck). A file that cannot be read is moved aside (kept for inspection) and a fresh
 * one is created, with a notice; opening never crashes the app.
 */
import { existsSync, mkdirSync, renameSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname } from 'node:path'
import { Worker } from 'node:worker_threads'
import Database from 'libsql'
import { BACKGROUND_NICE, lowerPriority } from './lowerPriority'
import { MIGRATIONS } from './migrations'

export type Db = InstanceType<typeof Database>

export interface OpenedDatabase {
  db: Db
  /** Set when the old file was unreadable and has been replaced. */
  notice: string | null
}

/** First column of the first row (libsql adds metadata to row objects; raw rows avoid it). */
export function scalar<T>(db: Db, sql: string, ...params: unknown[]): T | undefined {
  const row = db
    .prepare(sql)
    .raw()
    .get(...params) as unknown[] | undefined
  return row?.[0] as T | undefined
}

/**
 * Many rows read in one native call: SQLite packs them into one JSON array (in `orderBy` order, or in
 * no particular order when null: a sort the caller does not need is a large share of reading a big
 * table) and it is parsed once. libsql's `.all()` pays a native call and an object per row fetched; this
 * pays one for the whole answer. Columns must be plain values (text, numbers, null).
 */
export function rowsAsJson<Row extends unknown[]>(db: Db, columns: string, from: string, orderBy: string | null, ...params: unknown[]): Row[] {
  const json = scalar<string>(db, `SELECT json_group_array(json_array(${columns})${orderBy ? ` ORDER BY ${orderBy}` : ''}) ${from}`, ...params)
  return json ? (JSON.parse(json) as Row[]) : []
}

/**
 * Per connection, a counter another connection's thread can see: how many of this connection's
 * transactions are waiting to begin or running (see snapshotThread.ts, which lets them go first).
 */
const writersWaiting = new WeakMap<Db, Int32Array>()

/** Makes `db`'s transactions count themselves in `counter` (an Int32Array over a SharedArrayBuffer). */
export function countWritersIn(db: Db, counter: Int32Array): void {
  writersWaiting.set(db, counter)
}

/**
 * Runs `work` as one transaction, or as part of the caller's when one is open (libsql does not nest
 * them). It takes the write lock when it begins: a transaction that read first and wrote after could
 * not write once the snapshot's thread (snapshotThread.ts) had written in between. While it waits for
 * the lock and runs, it is counted (countWritersIn), so the thread starts no new statement meanwhile.
 */
export function inTransaction<T>(db: Db, work: () => T): T {
  if (db.inTransaction) return work()
  const counter = writersWaiting.get(db)
  if (counter) Atomics.add(counter, 0, 1)
  try {
    return db.transaction(work).immediate()
  } finally {
    if (counter) {
      Atomics.sub(counter, 0, 1)
      Atomics.notify(counter, 0)
    }
  }
}

type Statement = ReturnType<Db['prepare']> & { run(...params: unknown[]): unknown }
const statements = new WeakMap<Db, Map<string, Statement>>()

/** A prepared statement, prepared once per connection (the sync runs the same few hundreds of times). */
export function statement(db: Db, sql: string): Statement {
  let cache = statements.get(db)
  if (!cache) statements.set(db, (cache = new Map()))
  let prepared = cache.get(sql)
  if (!prepared) cache.set(sql, (prepared = db.prepare(sql)))
  return prepared
}

/**
 * A write as data, so either connection can run it (the core's, or the snapshot's thread: see
 * snapshotThread.ts): rows into a table (`INSERT OR REPLACE`, values bound as they are), or one
 * statement with its parameters.
 */
export type RowWrite =
  | { readonly insert: string; readonly columns: readonly string[]; readonly rows: readonly (readonly unknown[])[] }
  | DocBytesWrite
  | {
      readonly run: string
      readonly params: readonly unknown[]
      /** Exactly one row must change, else the write fails with these words (and its transaction with it). */
      readonly unlessOneRow?: string
    }

/**
 * Rows of two values: a key, and a row's text as the UTF-8 bytes it came in (row j is `bytes` from
 * `bounds[2j]` to `bounds[2j + 1]`, each with the next of `keys`). Held so while they wait to be
 * written, they are memory outside the collected heap; bound as they are, SQLite stores them as text
 * (CAST). They cross to the snapshot's thread as bytes, which it writes as a text per row (snapshotThread.ts).
 */
export interface DocBytesWrite {
  readonly insert: string
  readonly columns: readonly [string, string]
  readonly keys: readonly string[]
  readonly bytes: Uint8Array
  readonly bounds: readonly number[]
}

/**
 * Runs `writes` on the connection `prepared` prepares for: rows go up to 100 per native call, nothing
 * serialised for SQLite to parse again. The snapshot's thread runs this function's own text, so it
 * uses nothing from outside it.
 */
export function runWrites(writes: readonly RowWrite[], prepared: (sql: string) => { run(...params: unknown[]): unknown }): void {
  for (const write of writes) {
    if ('run' in write) {
      const done = prepared(write.run).run(write.params) as { changes: number }
      if (write.unlessOneRow !== undefined && done.changes !== 1) throw new Error(write.unlessOneRow)
      continue
    }
    let row = '(' + write.columns.map(() => '?').join(', ') + ')'
    let rows: readonly (readonly unknown[])[]
    if ('rows' in write) rows = write.rows
    else {
      const { bytes, bounds } = write
      const cut: unknown[][] = []
      for (let j = 0; j < bounds.length; j += 2)
        cut.push([write.keys[j / 2], Buffer.from(bytes.buffer, bytes.byteOffset + bounds[j]!, bounds[j + 1]! - bounds[j]!)])
      rows = cut
      row = '(?, CAST(? AS TEXT))'
    }
    for (let from = 0; from < rows.length; from += 100) {
      const chunk = rows.slice(from, from + 100)
      const values: unknown[] = []
      for (const r of chunk) for (const v of r) values.push(v)
      prepared(`INSERT OR REPLACE INTO ${write.insert} (${write.columns.join(', ')}) VALUES ${Array(chunk.length).fill(row).join(', ')}`).run(values)
    }
  }
}

/** Runs `writes` on `db` (in the caller's transaction, if any). */
export function writeRows(db: Db, writes: readonly RowWrite[]): void {
  runWrites(writes, (sql) => statement(db, sql))
}

/** `INSERT OR REPLACE` of many rows (see runWrites). */
export function insertRows(db: Db, table: string, columns: readonly string[], rows: readonly (readonly unknown[])[]): void {
  writeRows(db, [{ insert: table, columns, rows }])
}

/**
 * The WAL is folded back into the file by a thread of its own (snapshotThread.ts). SQLite's own fold runs
 * inside whatever commit crosses its limit and costs that commit dearly, so the limit stays far above
 * what the folder lets the WAL grow to: it is only a guard for a folder that cannot run.
 */
const WAL_FOLD_LIMIT_PAGES = 262_144

/**
 * The page size of a snapshot file created now (one that exists keeps its own). A full sync writes many
 * documents of a few KB each: SQLite's default page size takes several times the pages for them, and
 * every page costs its own share of work (a WAL frame of its own and a checksum, written once and
 * copied into the file once more by the fold, each a system call; a place in the B-tree).
 */
const NEW_FILE_PAGE_SIZE = 16_384

/**
 * How long a write waits for the snapshot's thread to finish a statement (it indexes or drops a full
 * sync's rows, one statement over every row) before it fails.
 */
const BUSY_MS = 5_000

/**
 * When a file's integrity is checked: 'now', in full as it opens (SQLite's quick_check reads every page
 * of the file, which for a large file not in the system's cache yet is a long wait before the seller
 * sees anything); or 'later', apart (integrityProblem, on a thread of its own) while the file is used,
 * and as it opens only the first page of each table, which opening reads anyway.
 */
export type IntegrityCheck = 'now' | 'later'

/** Reads each table's first row: throws for a file whose tables' first pages are gone or scrambled. */
function readFirstPages(db: Db): void {
  for (const [table] of db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").raw().all() as [string][])
    db.prepare(`SELECT 1 FROM "${table.replaceAll('"', '""')}" LIMIT 1`)
      .raw()
      .get()
}

function openAndMigrate(file: string, check: IntegrityCheck): Db {
  const db = new Database(file, { timeout: BUSY_MS })
  try {
    // Takes effect only in a file that holds nothing yet (before WAL mode writes its header).
    db.exec(`PRAGMA page_size = ${NEW_FILE_PAGE_SIZE}`)
    db.exec('PRAGMA journal_mode = WAL')
    db.exec('PRAGMA synchronous = NORMAL')
    db.exec(`PRAGMA wal_autocheckpoint = ${WAL_FOLD_LIMIT_PAGES}`)
    db.exec('PRAGMA journal_size_limit = -1') // the snapshot's thread cuts the WAL file back, not a commit of the core
    db.exec('PRAGMA foreign_keys = OFF')
    if (check === 'later') readFirstPages(db)
    else {
      const problem = quickCheckProblem(scalar<string>(db, 'PRAGMA quick_check'))
      if (problem !== null) throw new Error(`integrity: ${problem}`)
    }
    const version = scalar<number>(db, 'PRAGMA user_version') ?? 0
    if (version > MIGRATIONS.length) throw new Error(`written by a newer Seller Desk (schema ${version})`)
    for (let next = version; next < MIGRATIONS.length; next++) {
      db.transaction(() => {
        db.exec(MIGRATIONS[next]!)
        db.exec(`PRAGMA user_version = ${next + 1}`)
      })()
    }
    return db
  } catch (error) {
    db.close()
    throw error
  }
}

/** quick_check's answer as a problem: null when it found none. */
const quickCheckProblem = (answer: string | undefined): string | null => (answer === 'ok' ? null : (answer ?? 'no answer'))

export function openDatabase(file: string, now: () => Date = () => new Date(), check: IntegrityCheck = 'now'): OpenedDatabase {
  mkdirSync(dirname(file), { recursive: true })
  try {
    return { db: openAndMigrate(file, check), notice: null }
  } catch {
    const stamp = now().toISOString().replace(/[:.]/g, '-')
    for (const suffix of ['', '-wal', '-shm']) {
      if (existsSync(file + suffix)) renameSync(file + suffix, `${file}.unreadable-${stamp}${suffix}`)
    }
    return {
      db: openAndMigrate(file, 'now'),
      notice: 'The saved copy of your orders and listings could not be read, so Seller Desk set it aside and is downloading a fresh one.'
    }
  }
}

const INTEGRITY_THREAD = `
const { parentPort, workerData } = require('node:worker_threads')
${lowerPriority('workerData.nice')}
let answer
try {
  const db = new (require(workerData.libsql))(workerData.file, { timeout: workerData.busyMs })
  try {
    answer = db.prepare('PRAGMA quick_check').raw().get()?.[0]
  } finally {
    db.close()
  }
} catch (error) {
  answer = String(error && error.message || error)
}
parentPort.postMessage(answer)
`

/**
 * The file's integrity checked in full on a thread of its own, below the window's threads (see
 * IntegrityCheck): null when sound, else what is wrong (a file that cannot be read at all says so too).
 */
export function integrityProblem(file: string): Promise<string | null> {
  const libsql = createRequire(import.meta.url).resolve('libsql')
  const worker = new Worker(INTEGRITY_THREAD, { eval: true, workerData: { libsql, file, busyMs: BUSY_MS, nice: BACKGROUND_NICE } })
  worker.unref()
  return new Promise((resolve) => {
    worker.once('message', (answer: string | undefined) => resolve(quickCheckProblem(answer)))
    worker.once('error', (error) => resolve(error.message))
    worker.once('exit', (code) => resolve(`the check ended without an answer (exit ${code})`))
  })
}
