/**
 * When the WAL is folded back into the snapshot file: not inside a stretch of writes, but once they
 * stop (a real file; its size tells whether the pages reached it).
 */
import { mkdtempSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { foldWhenQuiet, openDatabase, scalar, type Db } from './database'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
let db: Db | null = null
let stop = () => {}
afterEach(() => {
  stop()
  db?.close()
  db = null
})

it('folds the WAL into the file once writes stop, not while they keep coming', async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'seller-desk-fold-')), 'snapshot.sqlite')
  db = openDatabase(file).db
  expect(scalar<number>(db, 'PRAGMA wal_autocheckpoint')).toBe(16_384) // SQLite's own fold only far later
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, text TEXT NOT NULL)')
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)')
  const size = () => statSync(file).size
  const empty = size()
  const insert = db.prepare('INSERT INTO t (text) VALUES (?)')

  stop = foldWhenQuiet(db, 150)
  // Writes every millisecond or so for half a second: never quiet for a whole check. (Paced, so that a fast
  // machine does not write enough to reach SQLite's own fold limit, which is not what this tests.)
  let rows = 0
  for (const until = Date.now() + 500; Date.now() < until; ) {
    db.transaction(() => {
      for (let k = 0; k < 50; k++) insert.run('x'.repeat(200))
    })()
    rows += 50
    await new Promise((resolve) => setTimeout(resolve, 1))
  }
  expect(size()).toBe(empty)

  // Quiet: within two checks the pages are in the file.
  await sleep(450)
  expect(size()).toBeGreaterThan(empty + rows * 200)
  expect(scalar<number>(db, 'SELECT COUNT(*) FROM t')).toBe(rows)
})
