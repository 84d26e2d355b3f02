/**
 * The snapshot's thread, on a real file:
 * - it folds the WAL back into the snapshot file while the core keeps writing: the writer never folds
 *   (its own limit is far away), yet the pages reach the file and the WAL starts over instead of
 *   growing with every write (sizes tell where the pages are);
 * - it runs jobs on its own connection while the core's thread keeps turning, and the core runs them
 *   itself once the thread is gone.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { inTransaction, openDatabase, scalar, type Db } from './database'
import { createBulkEditStore } from './bulkEditStore'
import { BACKGROUND_NICE } from './lowerPriority'
import { startSnapshotThread, type SnapshotThread } from './snapshotThread'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
let db: Db | null = null
let folder: SnapshotThread | null = null
afterEach(() => {
  folder?.stop()
  db?.close()
  db = folder = null
})

function freshDatabase() {
  const file = join(mkdtempSync(join(tmpdir(), 'seller-desk-fold-')), 'snapshot.sqlite')
  db = openDatabase(file).db
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, text TEXT NOT NULL)')
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)')
  return { file, db, size: (suffix = '') => (existsSync(file + suffix) ? statSync(file + suffix).size : 0) }
}

/** Writes `total` bytes, 100 kB every few milliseconds; returns the bytes written. */
async function writeFor(db: Db, total: number): Promise<number> {
  const insert = db.prepare('INSERT INTO t (text) VALUES (?)')
  let bytes = 0
  while (bytes < total) {
    db.transaction(() => {
      for (let k = 0; k < 25; k++) insert.run('x'.repeat(4_000))
    })()
    bytes += 25 * 4_000
    await new Promise((resolve) => setTimeout(resolve, 4))
  }
  return bytes
}

it('folds the WAL into the file from its own thread while writes keep coming, cuts the WAL file back, and the WAL starts over', async () => {
  const { file, db, size } = freshDatabase()
  expect(scalar<number>(db, 'PRAGMA wal_autocheckpoint')).toBeGreaterThanOrEqual(262_144) // the writer itself never folds here
  const empty = size()
  folder = startSnapshotThread(db, file, { intervalMs: 50, idleIntervalMs: 200 })

  const written = await writeFor(db, 32_000_000)
  // Folded during the writes: most of what was written is in the file already.
  expect(size()).toBeGreaterThan(empty + written / 4)

  // Once the writes stop everything gets folded and the thread cuts the WAL file back (the core's own
  // commits never do: SQLite's limit is off), and the next write starts the WAL over from its
  // beginning (a handful of frames, not the thousands written).
  expect(scalar<number>(db, 'PRAGMA journal_size_limit')).toBe(-1)
  await sleep(800)
  expect(size('-wal')).toBeLessThan(1024 * 1024)
  const walFrames = () => db.prepare('PRAGMA wal_checkpoint(PASSIVE)').raw().get() as [number, number, number]
  db.exec('INSERT INTO t (text) VALUES (1)')
  expect(walFrames()[1]).toBeLessThan(10)
  db.exec('INSERT INTO t (text) VALUES (2)')
  expect(size('-wal')).toBeLessThanOrEqual(16 * 1024 * 1024)
  expect(scalar<number>(db, 'SELECT COUNT(*) FROM t')).toBe(written / 4_000 + 2)
})

it('without the folder the same writes stay in the WAL (the check above can fail)', async () => {
  const { db, size } = freshDatabase()
  const empty = size()
  const written = await writeFor(db, 8_000_000)
  expect(size()).toBe(empty)
  expect(size('-wal')).toBeGreaterThan(written)
})

it('stops at once and leaves the snapshot one file once the core closes it', async () => {
  const { file, db, size } = freshDatabase()
  folder = startSnapshotThread(db, file, { intervalMs: 50, idleIntervalMs: 200 })
  await writeFor(db, 2_000_000)
  const started = performance.now()
  folder.stop()
  expect(performance.now() - started).toBeLessThan(1_000)
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)')
  db.close()
  expect(size('-wal')).toBe(0)
  expect(size()).toBeGreaterThan(0)
})

/** A statement that keeps SQLite busy for a while (a few hundred ms here) and writes one row. */
const SLOW_WRITE = "INSERT INTO t (text) WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 3000000) SELECT 'n=' || COUNT(*) FROM c"

/**
 * The thread at the core's priority, for the tests of how its slow statements interleave with the core:
 * below it (as the app runs it), a machine busy with other tests gives it too small a share to finish them in time.
 */
const AT_CORE_PRIORITY = { nice: 0 }

/** Runs `job` while counting this thread's timer turns and how long it took. */
async function turnsDuring<T>(job: () => Promise<T>): Promise<{ value: T; turns: number; wallMs: number }> {
  let turns = 0
  const timer = setInterval(() => turns++, 5)
  const started = performance.now()
  try {
    const value = await job()
    return { value, turns, wallMs: performance.now() - started }
  } finally {
    clearInterval(timer)
  }
}

it("runs a job's statements on its own connection while this thread keeps turning, and answers what they read", async () => {
  const { file, db } = freshDatabase()
  folder = startSnapshotThread(db, file, AT_CORE_PRIORITY)
  const { value, turns, wallMs } = await turnsDuring(() => folder!.run([{ exec: SLOW_WRITE }, { all: 'SELECT text FROM t ORDER BY id' }]))
  expect(value).toEqual([null, [['n=3000000']]])
  expect(wallMs).toBeGreaterThan(100)
  // Run here, the statement would have held this thread for all of it: no timer could have fired.
  expect(turns).toBeGreaterThanOrEqual(5)
  // The core's connection sees the row, and writes again once the thread's write is done.
  db.exec("INSERT INTO t (text) VALUES ('after')")
  expect(scalar<number>(db, 'SELECT COUNT(*) FROM t')).toBe(2)
})

it("its connection is as durable as the core's: synchronous NORMAL in WAL mode (a commit waits for no disk sync; checkpoints sync)", async () => {
  const { file, db } = freshDatabase()
  folder = startSnapshotThread(db, file)
  const core = [scalar<number>(db, 'PRAGMA synchronous'), scalar<string>(db, 'PRAGMA journal_mode')]
  expect(core).toEqual([1, 'wal'])
  expect(await folder.run([{ all: 'PRAGMA synchronous' }, { all: 'PRAGMA journal_mode' }])).toEqual([[[1]], [['wal']]])
})

it('a statement that fails fails the job with its words, and the steps after it do not run', async () => {
  const { file, db } = freshDatabase()
  folder = startSnapshotThread(db, file)
  await expect(folder.run([{ exec: 'INSERT INTO no_such_table VALUES (1)' }, { exec: "INSERT INTO t (text) VALUES ('x')" }])).rejects.toThrow(/no such table/)
  expect(scalar<number>(db, 'SELECT COUNT(*) FROM t')).toBe(0)
})

it("on a UNIQUE failure runs the step's repair and the statement again", async () => {
  const { file, db } = freshDatabase()
  db.exec("INSERT INTO t (text) VALUES ('a'), ('a'), ('b')")
  folder = startSnapshotThread(db, file)
  const index = 'CREATE UNIQUE INDEX IF NOT EXISTS t_text ON t(text)'
  await folder.run([{ exec: index, onUnique: 'DELETE FROM t WHERE id NOT IN (SELECT MAX(id) FROM t GROUP BY text)' }])
  expect(db.prepare('SELECT id, text FROM t ORDER BY id').raw().all()).toEqual([
    [2, 'a'],
    [3, 'b']
  ])
  // Without a repair the failure is the job's.
  db.exec('DROP INDEX t_text')
  db.exec("INSERT INTO t (text) VALUES ('b')")
  await expect(folder.run([{ exec: index }])).rejects.toThrow(/UNIQUE/)
})

it('once the thread is gone, the core runs the jobs itself, a step per turn', async () => {
  const { file, db } = freshDatabase()
  folder = startSnapshotThread(db, file)
  await folder.run([{ exec: "INSERT INTO t (text) VALUES ('on the thread')" }])
  folder.stop()
  const { value } = await turnsDuring(() => folder!.run([{ exec: "INSERT INTO t (text) VALUES ('here')" }, { all: 'SELECT text FROM t ORDER BY id' }]))
  expect(value).toEqual([null, [['on the thread'], ['here']]])
})

/**
 * A thread halfway through the first of six slow statements of a job: the database, how long one
 * statement takes here, and the job.
 */
async function threadMidStatement(): Promise<{ db: Db; thread: SnapshotThread; statementMs: number; job: Promise<unknown>; jobStarted: number }> {
  const { file, db } = freshDatabase()
  const thread = startSnapshotThread(db, file, AT_CORE_PRIORITY)
  folder = thread
  const statementMs = (() => {
    const started = performance.now()
    db.exec(SLOW_WRITE)
    return performance.now() - started
  })()
  const jobStarted = performance.now()
  const job = thread.run(Array.from({ length: 6 }, () => ({ exec: SLOW_WRITE })))
  job.catch(() => undefined)
  await sleep(statementMs / 2)
  return { db, thread, statementMs, job, jobStarted }
}

/** The texts of table t in the order written. */
const textsOf = (db: Db) => (db.prepare('SELECT text FROM t ORDER BY id').raw().all() as [string][]).map(([text]) => text)

it("a write of the core waits for the thread's statement at hand, not for the rest of its job", async () => {
  const { db, job, jobStarted } = await threadMidStatement()
  const started = performance.now()
  inTransaction(db, () => db.exec("INSERT INTO t (text) VALUES ('core')"))
  const waitedMs = performance.now() - started
  await job
  const jobMs = performance.now() - jobStarted
  // Waiting for the rest of the job (six statements, from midway through the first) would be most of it;
  // the statement at hand and the lock's polling, a quarter or so. Measured against the job as it ran:
  // a statement timed alone before it is no measure on a loaded machine.
  expect(waitedMs, `waited ${Math.round(waitedMs)} ms of the job's ${Math.round(jobMs)}`).toBeLessThan(jobMs / 2)
  // The core's row went in between the job's: written before the last of them.
  const texts = textsOf(db)
  expect(texts.indexOf('core')).toBeGreaterThan(0)
  expect(texts.indexOf('core')).toBeLessThan(texts.length - 1)
})

it("a write of the core handed to betweenStatements waits for the thread's statement at hand while the core's thread goes on turning", async () => {
  const { db, thread, statementMs, job } = await threadMidStatement()
  // The core's thread turns while the write waits: a timer every millisecond counts the turns.
  let turns = 0
  const ticking = setInterval(() => turns++, 1)
  let heldMs = 0
  const written = thread.betweenStatements(() => {
    const started = performance.now()
    db.exec("INSERT INTO t (text) VALUES ('core')")
    heldMs = performance.now() - started
    return turns
  })
  const turnsBeforeWrite = await written
  clearInterval(ticking)
  await job
  // It waited for the statement with the thread free (timers fired meanwhile), then took the lock at once.
  expect(turnsBeforeWrite).toBeGreaterThan(0)
  expect(heldMs).toBeLessThan(statementMs / 2)
  // And went in between the job's statements, as a write that waits on the lock does.
  const texts = textsOf(db)
  expect(texts.indexOf('core')).toBeGreaterThan(0)
  expect(texts.indexOf('core')).toBeLessThan(texts.length - 1)
})

it('writes of the core that wait for their turn land in the order they were asked, one asked while none waits runs at once', async () => {
  const { db, thread, job } = await threadMidStatement()
  const written = ['first', 'second', 'third'].map(async (text, k) => {
    await sleep(k * 30)
    return thread.betweenStatements(() => db.prepare('INSERT INTO t (text) VALUES (?)').run(text))
  })
  await Promise.all(written)
  await job
  const texts = textsOf(db).filter((text) => !text.startsWith('n='))
  expect(texts).toEqual(['first', 'second', 'third'])
  // The thread between statements and nothing waiting: written before betweenStatements returns.
  let ran = false
  const now = thread.betweenStatements(() => (ran = true))
  expect(ran).toBe(true)
  await now
})

it("the bulk-edit store's writes wait for the thread's statement without holding the core's thread", async () => {
  const { db, thread, statementMs, job } = await threadMidStatement()
  const store = createBulkEditStore(db, (work) => thread.betweenStatements(work))
  let turns = 0
  const ticking = setInterval(() => turns++, 1)
  const started = performance.now()
  const saved = store.writeStaged([
    {
      sellRequestId: 'listing-1',
      field: 'priceCents',
      change: { sellRequestId: 'listing-1', field: 'priceCents', before: 1000, after: 1100, baseUpdatedAt: '2026-11-01T00:00:00.000Z' }
    }
  ])
  // Asked mid-statement: not written yet, and this thread was not held (a plain write would have waited here).
  const askedMs = performance.now() - started
  expect(askedMs).toBeLessThan(statementMs / 4)
  expect(store.readStaged()).toEqual([])
  await saved
  clearInterval(ticking)
  expect(turns).toBeGreaterThan(0)
  expect(store.readStaged()).toMatchObject([{ sellRequestId: 'listing-1', field: 'priceCents', after: 1100 }])
  await job
})

it('stopping the thread while a write of the core waits for its turn ends the job at once and refuses the write', async () => {
  const { thread, statementMs, job } = await threadMidStatement()
  let ran = false
  const waiting = thread.betweenStatements(() => (ran = true))
  // The core stops the thread while its write waits: the thread must not wait for that write to go first.
  const started = performance.now()
  thread.stop(5_000)
  const stopMs = performance.now() - started
  await expect(waiting).rejects.toThrow(/closed/)
  expect(ran).toBe(false)
  await expect(job).rejects.toThrow()
  // At most the statement under way, not the 5 s the stop would wait for a thread that never ends.
  expect(stopMs).toBeLessThan(statementMs + 2_000)
})

it('writes a transaction step whole on its own connection, or nothing of it when one write fails; the core writes the same steps once the thread is gone', async () => {
  const { file, db } = freshDatabase()
  folder = startSnapshotThread(db, file)
  const rows = Array.from({ length: 250 }, (_, k) => [k + 1, `row ${k + 1}`])
  await folder.run([
    {
      transaction: [
        { insert: 't', columns: ['id', 'text'], rows },
        { run: 'UPDATE t SET text = ? WHERE id = ?', params: ['first', 1] }
      ]
    }
  ])
  expect(scalar<number>(db, 'SELECT COUNT(*) FROM t')).toBe(250)
  expect(scalar<string>(db, 'SELECT text FROM t WHERE id = 1')).toBe('first')
  // A failing write undoes the writes before it in the same step.
  await expect(
    folder.run([
      {
        transaction: [
          { insert: 't', columns: ['id', 'text'], rows: [[1_000, 'lost']] },
          { run: 'INSERT INTO no_such_table VALUES (?)', params: [1] }
        ]
      }
    ])
  ).rejects.toThrow(/no such table/)
  expect(scalar<number>(db, 'SELECT COUNT(*) FROM t WHERE id = 1000')).toBe(0)
  folder.stop()
  await folder.run([{ transaction: [{ insert: 't', columns: ['id', 'text'], rows: [[2_000, 'here']] }] }])
  expect(scalar<string>(db, 'SELECT text FROM t WHERE id = 2000')).toBe('here')
})

it('stopping lets the job under way end and refuses the jobs queued behind it, which the core does not run either', async () => {
  const { file, db } = freshDatabase()
  folder = startSnapshotThread(db, file, AT_CORE_PRIORITY)
  const underWay = folder.run([{ exec: "INSERT INTO t (text) VALUES ('started')" }, { exec: SLOW_WRITE }])
  const queued = folder.run([{ exec: "INSERT INTO t (text) VALUES ('queued')" }])
  const texts = () => (db.prepare('SELECT text FROM t ORDER BY id').raw().all() as [string][]).map(([text]) => text)
  // Under way: its first step is written (the thread may take a while to start on a busy machine).
  for (const until = Date.now() + 10_000; !texts().includes('started') && Date.now() < until;) await sleep(5)
  folder.stop(5_000)
  await expect(queued).rejects.toThrow(/closed/)
  await expect(underWay).rejects.toThrow(/closed/)
  await sleep(50)
  expect(texts()).toEqual(['started', 'n=3000000'])
})

/** The nice values of this process's threads (Linux: field 19 of each task's stat). */
function threadNiceValues(): number[] {
  return readdirSync('/proc/self/task').map((task) => Number(readFileSync(`/proc/self/task/${task}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]))
}

it.runIf(process.platform === 'linux')('runs at a lower priority than the threads that answer the window', async () => {
  const { file, db } = freshDatabase()
  const before = threadNiceValues().filter((nice) => nice === BACKGROUND_NICE).length
  folder = startSnapshotThread(db, file)
  await folder.run([{ all: 'SELECT 1' }])
  expect(threadNiceValues().filter((nice) => nice === BACKGROUND_NICE)).toHaveLength(before + 1)
  expect(readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1]!.split(' ')[16]).toBe('0')
})

it('documents held as bytes are written as text, as sent, by the thread and by the core once the thread is gone', async () => {
  const { file, db } = freshDatabase()
  folder = startSnapshotThread(db, file)
  const text = '[{"a":"Café 😀"},{"b":1}]'
  const bytes = new Uint8Array(Buffer.from(text, 'utf8'))
  const bounds = [1, Buffer.byteLength('[{"a":"Café 😀"}', 'utf8'), Buffer.byteLength('[{"a":"Café 😀"},', 'utf8'), bytes.length - 1]
  const stored = () => db.prepare('SELECT id, typeof(text), text FROM t ORDER BY id').raw().all()
  await folder.run([{ transaction: [{ insert: 't', columns: ['id', 'text'], keys: ['1', '2'], bytes, bounds }] }])
  expect(stored()).toEqual([
    [1, 'text', '{"a":"Café 😀"}'],
    [2, 'text', '{"b":1}']
  ])
  folder.stop()
  await folder.run([{ transaction: [{ insert: 't', columns: ['id', 'text'], keys: ['3', '4'], bytes, bounds }] }])
  expect(stored()).toEqual([
    [1, 'text', '{"a":"Café 😀"}'],
    [2, 'text', '{"b":1}'],
    [3, 'text', '{"a":"Café 😀"}'],
    [4, 'text', '{"b":1}']
  ])
})

it('documents held as a Buffer within a larger one (as the client reads them) are written by the thread and stay whole for the core', async () => {
  const { file, db } = freshDatabase()
  folder = startSnapshotThread(db, file)
  const text = '{"data":[{"a":"Café 😀"},{"b":1}]}'
  // Memory of its own (as an answer's body has), not a slice of Node's shared pool.
  const whole = Buffer.alloc(Buffer.byteLength(`xx${text}yy`))
  whole.write(`xx${text}yy`, 'utf8')
  const bytes = whole.subarray(2, 2 + Buffer.byteLength(text))
  const start = Buffer.byteLength('{"data":[')
  const bounds = [start, start + Buffer.byteLength('{"a":"Café 😀"}'), start + Buffer.byteLength('{"a":"Café 😀"},'), bytes.length - 2]
  const stored = () => db.prepare('SELECT id, text FROM t ORDER BY id').raw().all()
  await folder.run([{ transaction: [{ insert: 't', columns: ['id', 'text'], keys: ['1', '2'], bytes, bounds }] }])
  expect(whole.toString('utf8')).toBe(`xx${text}yy`)
  folder.stop()
  await folder.run([{ transaction: [{ insert: 't', columns: ['id', 'text'], keys: ['3', '4'], bytes, bounds }] }])
  expect(stored()).toEqual([
    [1, '{"a":"Café 😀"}'],
    [2, '{"b":1}'],
    [3, '{"a":"Café 😀"}'],
    [4, '{"b":1}']
  ])
})
