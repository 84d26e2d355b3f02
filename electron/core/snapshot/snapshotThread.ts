/**
 * The snapshot's second connection, in a thread of its own: it does the snapshot's long statements
 * that nothing has to wait for, so the core's thread keeps answering while they run.
 *
 * - It folds the WAL back into the file. A checkpoint copies every page written since the last one:
 *   after a full sync that is the size of the snapshot. Run by the connection that writes (SQLite's
 *   automatic checkpoint runs inside the commit that crosses its limit), it would hold up that commit
 *   and every call waiting behind it. A passive checkpoint from another connection never blocks the
 *   writer, and the writer starts the WAL over from its beginning once everything in it has been
 *   folded. The WAL file itself it cuts back once all is folded and writes pause: SQLite's own limit
 *   would cut it in the core's next commit, and freeing a large file takes a while.
 * - It runs jobs: statements and writes the core hands it (a full sync's fetched rows, staged a few
 *   pages per transaction while the core fetches the next ones; stagedTables.ts: indexing the staged
 *   rows, clearing them), each in a transaction of its own. While one writes, a write of the core waits
 *   for it (the core's busy timeout), and reads go on (WAL). The core's transactions count themselves
 *   while they wait and run (database.ts), and the thread starts no statement while any do, so the
 *   core waits for one statement at most, not for a whole job. They also take the write lock when
 *   they begin, so they never start on rows this thread then changes.
 */
import { createRequire } from 'node:module'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { Worker } from 'node:worker_threads'
import { countWritersIn, runWrites, statement, type Db, type RowWrite } from './database'
import { BACKGROUND_NICE, lowerPriority } from './lowerPriority'

/**
 * One step of a job: `exec` runs a statement, and when it fails on a UNIQUE constraint and `onUnique`
 * is given, runs `onUnique` and then the statement once more; `all` reads rows (as arrays of values);
 * `transaction` runs writes (database.ts) in one transaction that takes the write lock at once.
 */
export type ThreadStep = { readonly exec: string; readonly onUnique?: string } | { readonly all: string } | { readonly transaction: readonly RowWrite[] }

/** What a step needs from its side: database.ts's runWrites, and the connection's prepared statements. */
interface StepTools {
  runWrites: typeof runWrites
  prepared: (sql: string) => { run(...params: unknown[]): unknown }
}

/** One step on `db`; the thread runs this function's own text (it uses nothing but its arguments). */
function runStep(db: Db, step: ThreadStep, tools: StepTools): unknown[][] | null {
  if ('all' in step) return db.prepare(step.all).raw().all() as unknown[][]
  if ('transaction' in step) {
    db.transaction(() => tools.runWrites(step.transaction, tools.prepared)).immediate()
    return null
  }
  try {
    db.exec(step.exec)
  } catch (error) {
    if (step.onUnique === undefined || !/UNIQUE/i.test(String(error))) throw error
    db.exec(step.onUnique)
    db.exec(step.exec)
  }
  return null
}

/** Plain JavaScript: a worker does not inherit the loader that reads TypeScript. */
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads')
const Database = require(workerData.libsql)
const { statSync } = require('node:fs')
const { file, intervalMs, idleIntervalMs, busyMs, walLimitBytes, closed, writers, stopping, inStatement } = workerData
// Its work can wait.
${lowerPriority('workerData.nice')}
const db = new Database(file, { timeout: busyMs })
// As durable as the core's connection (database.ts): in WAL mode a commit survives a crash of the app at
// once, and one of the computer once the WAL is synced, which every checkpoint does first. SQLite's
// default here, FULL, synced the WAL in every commit of a job, and a full sync's parts waited on the disk.
// A part lost to a power cut goes with the positions it records (one transaction): the run reads it again.
db.exec('PRAGMA synchronous = NORMAL')
function walBytes() {
  try { return statSync(file + '-wal').size } catch { return 0 }
}
const statements = new Map()
const tools = {
  runWrites: (${runWrites.toString()}),
  prepared(sql) {
    let prepared = statements.get(sql)
    if (!prepared) statements.set(sql, (prepared = db.prepare(sql)))
    return prepared
  }
}
let timer = null
let stopped = false
let framesBefore = -1
/**
 * Lets the core's transactions go first: waits while one waits for the lock or runs. Stopping ends the
 * wait and the job: the core that stops the thread may be the one whose write waits (betweenStatements).
 */
function afterCoreWriters() {
  for (let waiting = Atomics.load(writers, 0); waiting > 0; waiting = Atomics.load(writers, 0)) {
    if (Atomics.load(stopping, 0) === 1) throw new Error('the snapshot is being closed')
    Atomics.wait(writers, 0, waiting, 50)
  }
}
/**
 * Begins a statement once no write of the core waits, and says so (inStatement): a write of the core
 * that counted itself first waits for the end (leaveStatement) without holding its thread. Set, then
 * checked: of the two sides, at least one sees the other.
 */
function enterStatement() {
  for (;;) {
    afterCoreWriters()
    Atomics.store(inStatement, 0, 1)
    if (Atomics.load(writers, 0) === 0) return
    leaveStatement()
  }
}
function leaveStatement() {
  Atomics.store(inStatement, 0, 0)
  Atomics.notify(inStatement, 0)
}
function fold() {
  timer = null
  if (stopped) return
  let idle = false
  try {
    // [busy, frames in the WAL, frames folded]: all folded means there is nothing to do until a write.
    const [busy, frames, folded] = db.prepare('PRAGMA wal_checkpoint(PASSIVE)').raw().get()
    idle = busy === 0 && frames === folded
    // Everything folded, nothing written since the last look, and the WAL file left large: cut it to
    // nothing, rather than in a commit of the core. It holds the write lock meanwhile (tens of ms for a
    // large file), so it waits until writes have paused, and gives up at once when someone is busy.
    const quiet = idle && frames === framesBefore
    framesBefore = frames
    if (quiet && walBytes() > walLimitBytes) {
      try {
        Atomics.store(inStatement, 0, 1)
        if (Atomics.load(writers, 0) === 0) {
          db.exec('PRAGMA busy_timeout = 0')
          try { db.prepare('PRAGMA wal_checkpoint(TRUNCATE)').raw().get() } finally { db.exec('PRAGMA busy_timeout = ' + busyMs) }
        }
      } finally {
        leaveStatement()
      }
    }
  } catch {
    // Busy or locked for a moment: the next turn folds it.
  }
  timer = setTimeout(fold, idle ? idleIntervalMs : intervalMs)
}
// Named here: a bundler may rename the functions themselves.
const runStep = (${runStep.toString()})
const textRows = (${textRows.toString()})
parentPort.on('message', (message) => {
  if (message.job !== undefined) {
    // Stopping: the jobs still queued were refused on the other side already.
    if (Atomics.load(stopping, 0) === 1) return
    let answer
    try {
      answer = {
        job: message.job,
        results: message.steps.map((step) => {
          enterStatement()
          try {
            return runStep(db, textRows(step), tools)
          } finally {
            leaveStatement()
          }
        })
      }
    } catch (error) {
      answer = { job: message.job, error: String(error && error.message ? error.message : error) }
    }
    parentPort.postMessage(answer)
    // What the job wrote is folded soon.
    if (timer) clearTimeout(timer)
    timer = setTimeout(fold, intervalMs)
    return
  }
  stopped = true
  if (timer) clearTimeout(timer)
  try { db.close() } finally { Atomics.store(closed, 0, 1); Atomics.notify(closed, 0); parentPort.close() }
})
timer = setTimeout(fold, intervalMs)
`

export interface SnapshotThread {
  /**
   * Runs the steps in order on the thread's connection; resolves with what each `all` step read (null
   * for `exec`). Steps must be safe to run twice (`IF NOT EXISTS`, …): when the thread is gone (it
   * failed to start, died or was stopped) the core's connection runs them, a step per turn. Jobs
   * still waiting for the thread when it is stopped fail instead: the snapshot is being closed.
   */
  run(steps: readonly ThreadStep[]): Promise<(unknown[][] | null)[]>
  /**
   * Runs `work` (a write of the core) once the thread is between statements, and keeps the thread from
   * starting one until it is done. The wait does not hold the core's thread: without it, the write would
   * wait for the thread's statement in SQLite's busy handler (tens of ms for a staging transaction, more
   * for an index), and every call would wait behind it. Once the thread is stopped (the snapshot is
   * closing), the write is refused. Writes that wait run in the order they were asked for; one asked
   * while none waits and the thread is between statements runs at once, before this returns.
   */
  betweenStatements<T>(work: () => T): Promise<T>
  /**
   * Stops and waits (at most `waitMs`) until the thread's connection is closed, so the snapshot's own
   * close is the last one and leaves one self-contained file. A job under way ends first (it cannot be
   * cut); those queued behind it do not run.
   */
  stop(waitMs?: number): void
}

export interface SnapshotThreadOptions {
  /** Fold every `intervalMs` while there is something to fold, every `idleIntervalMs` while there is not. */
  intervalMs?: number
  idleIntervalMs?: number
  /** How long a job's statement waits for the core's write lock. */
  busyMs?: number
  /** A WAL file larger than this is cut to nothing once everything in it is folded. */
  walLimitBytes?: number
  /**
   * The thread's nice value (BACKGROUND_NICE by default). Tests of how its statements interleave with
   * the core's writes run it at the core's own (0): where other work takes every core, a thread below
   * it gets a small share, and a job of slow statements takes many times as long.
   */
  nice?: number
}

/**
 * A step as it crosses to the thread: documents held as the bytes they came in (DocBytesWrite) cross
 * as a copy of the bytes that hold their rows, handed over (transferred) rather than serialised, and
 * the thread makes a text per row of them (textRows). The step kept for the core (should the thread be
 * gone) keeps its own bytes, outside the collected heap. Texts made here would be copied into the
 * message and out again, on the core's thread: a page of orders is ~145 KB of them.
 */
function asSent(step: ThreadStep, transfer: ArrayBuffer[]): ThreadStep {
  if (!('transaction' in step) || !step.transaction.some((write) => 'bytes' in write)) return step
  return {
    transaction: step.transaction.map((write): RowWrite => {
      if (!('bytes' in write) || write.bounds.length === 0) return write
      const from = write.bounds[0]!
      // A copy (a Buffer's slice would be a view of the same memory, which the transfer would take away).
      const bytes = new Uint8Array(write.bytes.subarray(from, write.bounds[write.bounds.length - 1]))
      transfer.push(bytes.buffer)
      return { ...write, bytes, bounds: write.bounds.map((at) => at - from) }
    })
  }
}

/**
 * A step's documents held as bytes (DocBytesWrite), as rows of a key and a text: how the thread writes
 * them (bound as strings; binding a view of the bytes per row costs the thread more). The thread runs
 * this function's own text (it uses nothing but its argument and Buffer).
 */
function textRows(step: ThreadStep): ThreadStep {
  if (!('transaction' in step)) return step
  return {
    transaction: step.transaction.map((write): RowWrite => {
      if (!('bytes' in write)) return write
      const buffer = Buffer.from(write.bytes.buffer, write.bytes.byteOffset, write.bytes.byteLength)
      const rows: [string, string][] = []
      for (let j = 0; j < write.bounds.length; j += 2) rows.push([write.keys[j / 2]!, buffer.toString('utf8', write.bounds[j], write.bounds[j + 1])])
      return { insert: write.insert, columns: write.columns, rows }
    })
  }
}

/** Runs steps on `db` itself, a step per turn of the event loop. */
async function runHere(db: Db, steps: readonly ThreadStep[]): Promise<(unknown[][] | null)[]> {
  const results: (unknown[][] | null)[] = []
  for (const step of steps) {
    await nextTurn()
    results.push(runStep(db, step, { runWrites, prepared: (sql) => statement(db, sql) }))
  }
  return results
}

class ThreadGone extends Error {}

/**
 * Starts the thread for the snapshot in `file`, which the core has open as `db`. It keeps the process
 * alive only while a job runs.
 */
export function startSnapshotThread(db: Db, file: string, options: SnapshotThreadOptions = {}): SnapshotThread {
  const { intervalMs = 250, idleIntervalMs = 1_000, busyMs = 10_000, walLimitBytes = 16 * 1024 * 1024 } = options
  const libsql = createRequire(import.meta.url).resolve('libsql')
  const closed = new Int32Array(new SharedArrayBuffer(4))
  const stopping = new Int32Array(new SharedArrayBuffer(4))
  // The core's transactions waiting or running: the thread starts no statement while there are any,
  // so a write of the core waits for one statement of a job at most, never for the whole job.
  const writers = new Int32Array(new SharedArrayBuffer(4))
  countWritersIn(db, writers)
  // 1 while the thread runs a statement (or cuts the WAL), so a write of the core can wait for it in turn.
  const inStatement = new Int32Array(new SharedArrayBuffer(4))
  const pending = new Map<number, { resolve: (results: (unknown[][] | null)[]) => void; reject: (error: Error) => void }>()
  let gone: string | null = null
  let exited = false
  let stopped = false
  let jobs = 0
  /** Writes of the core waiting for their turn (betweenStatements), and the last of them. */
  let queued = 0
  let queue: Promise<unknown> = Promise.resolve()
  const worker = new Worker(THREAD, {
    eval: true,
    workerData: {
      libsql,
      file,
      intervalMs,
      idleIntervalMs,
      busyMs,
      walLimitBytes,
      closed,
      writers,
      stopping,
      inStatement,
      nice: options.nice ?? BACKGROUND_NICE
    }
  })
  worker.unref()

  /** The thread is gone: jobs waiting for it fail, and are run by the core instead unless it was stopped. */
  function failAll(why: string) {
    gone ??= why
    for (const { reject } of pending.values()) reject(stopped ? new Error(`${why} while this work waited for its thread`) : new ThreadGone(gone))
    pending.clear()
    worker.unref()
  }
  worker.on('message', (answer: { job: number; results?: (unknown[][] | null)[]; error?: string }) => {
    const waiting = pending.get(answer.job)
    if (!waiting) return
    pending.delete(answer.job)
    if (pending.size === 0) worker.unref()
    if (answer.error !== undefined) waiting.reject(new Error(answer.error))
    else waiting.resolve(answer.results ?? [])
  })
  worker.on('error', (error) => {
    // Nothing is lost (the core runs the jobs itself), but the core's turns get long again: say so.
    console.error(`[seller-desk] the snapshot's thread failed (${error.message}); its work runs in the core from now on`)
    failAll(`the snapshot's thread failed: ${error.message}`)
  })
  worker.on('exit', () => {
    exited = true
    failAll("the snapshot's thread stopped")
  })

  return {
    async run(steps) {
      if (steps.length === 0) return []
      if (gone === null) {
        const job = ++jobs
        try {
          return await new Promise<(unknown[][] | null)[]>((resolve, reject) => {
            pending.set(job, { resolve, reject })
            worker.ref()
            const transfer: ArrayBuffer[] = []
            worker.postMessage({ job, steps: steps.map((step) => asSent(step, transfer)) }, transfer)
          })
        } catch (error) {
          if (!(error instanceof ThreadGone)) throw error
        }
      }
      return runHere(db, steps)
    },
    betweenStatements<T>(work: () => T): Promise<T> {
      // Counted at once: the thread starts no statement while a write of the core waits its turn.
      Atomics.add(writers, 0, 1)
      const write = (): T => {
        try {
          // Stopped: the snapshot is being closed, and its connection with it.
          if (stopped) throw new Error('the snapshot was closed while this write waited for its turn')
          return work()
        } finally {
          Atomics.sub(writers, 0, 1)
          Atomics.notify(writers, 0)
        }
      }
      // Nothing before it and the thread between statements (or gone, or stopped): now, in this turn.
      if (queued === 0 && (stopped || gone !== null || Atomics.load(inStatement, 0) === 0)) {
        try {
          return Promise.resolve(write())
        } catch (error) {
          return Promise.reject(error as Error)
        }
      }
      // Else after the writes before it, in the order they were asked for (a seller's later edit of a
      // cell lands after the earlier one), once the thread's statement has ended.
      queued++
      const mine = queue
        .then(async () => {
          // A thread that is gone runs nothing (its flag may be left set by a statement cut short): the
          // write goes on at once, as the core runs the thread's jobs itself then.
          for (let waited = 0; !stopped && gone === null && Atomics.load(inStatement, 0) === 1 && waited < busyMs; waited += 100) {
            const wait = Atomics.waitAsync(inStatement, 0, 1, 100)
            if (wait.async) await wait.value
          }
          return write()
        })
        .finally(() => queued--)
      queue = mine.catch(() => undefined)
      return mine
    },
    stop(waitMs = 2_000) {
      if (stopped) return
      stopped = true
      failAll('the snapshot was closed')
      if (exited) return
      Atomics.store(stopping, 0, 1)
      // A job waiting for a write of the core to go first (betweenStatements) ends now.
      Atomics.notify(writers, 0)
      worker.postMessage('stop')
      if (Atomics.wait(closed, 0, 0, waitMs) === 'timed-out') void worker.terminate()
    }
  }
}
