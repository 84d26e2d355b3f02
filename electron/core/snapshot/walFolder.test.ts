/**
 * The WAL is folded back into the snapshot file by the folder's thread while the core keeps writing:
 * the writer never folds (its own limit is far away), yet the pages reach the file and the WAL starts
 * over instead of growing with every write (a real file; sizes tell where the pages are).
 */
import { existsSync, mkdtempSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { openDatabase, scalar, type Db } from './database'
import { startWalFolder, type WalFolder } from './walFolder'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
let db: Db | null = null
let folder: WalFolder | null = null
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

it('folds the WAL into the file from its own thread while writes keep coming, and the WAL starts over', async () => {
  const { file, db, size } = freshDatabase()
  expect(scalar<number>(db, 'PRAGMA wal_autocheckpoint')).toBeGreaterThanOrEqual(262_144) // the writer itself never folds here
  const empty = size()
  folder = startWalFolder(file, 50, 200)

  const written = await writeFor(db, 32_000_000)
  // Folded during the writes: most of what was written is in the file already.
  expect(size()).toBeGreaterThan(empty + written / 4)

  // Once the writes stop everything gets folded, and the next write starts the WAL over from its
  // beginning (a handful of frames, not the thousands written) and cuts the file back to the limit.
  await sleep(800)
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
  folder = startWalFolder(file, 50, 200)
  await writeFor(db, 2_000_000)
  const started = performance.now()
  folder.stop()
  expect(performance.now() - started).toBeLessThan(1_000)
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)')
  db.close()
  expect(size('-wal')).toBe(0)
  expect(size()).toBeGreaterThan(0)
})
