/**
 * Opens a snapshot file with libsql (a Node-API SQLite binding: loads in Electron and Node without a
 * rebuild). WAL journal, migrations applied, integrity checked. A file that cannot be read is moved
 * aside (kept for inspection) and a fresh one is created, with a notice; opening never crashes the app.
 */
import { existsSync, mkdirSync, renameSync } from 'node:fs'
import { dirname } from 'node:path'
import Database from 'libsql'
import { MIGRATIONS } from './migrations'

export type Db = InstanceType<typeof Database>

export interface OpenedDatabase {
  db: Db
  /** Set when the old file was unreadable and has been replaced. */
  notice: string | null
}

/** First column of the first row (libsql adds metadata to row objects; raw rows avoid it). */
export function scalar<T>(db: Db, sql: string, ...params: unknown[]): T | undefined {
  const row = db.prepare(sql).raw().get(...params) as unknown[] | undefined
  return row?.[0] as T | undefined
}

function openAndMigrate(file: string): Db {
  const db = new Database(file, { timeout: 5 })
  try {
    db.exec('PRAGMA journal_mode = WAL')
    db.exec('PRAGMA synchronous = NORMAL')
    db.exec('PRAGMA foreign_keys = OFF')
    const check = scalar<string>(db, 'PRAGMA quick_check')
    if (check !== 'ok') throw new Error(`integrity: ${check}`)
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

export function openDatabase(file: string, now: () => Date = () => new Date()): OpenedDatabase {
  mkdirSync(dirname(file), { recursive: true })
  try {
    return { db: openAndMigrate(file), notice: null }
  } catch {
    const stamp = now().toISOString().replace(/[:.]/g, '-')
    for (const suffix of ['', '-wal', '-shm']) {
      if (existsSync(file + suffix)) renameSync(file + suffix, `${file}.unreadable-${stamp}${suffix}`)
    }
    return {
      db: openAndMigrate(file),
      notice: 'The saved copy of your orders and listings could not be read, so Seller Desk set it aside and is downloading a fresh one.'
    }
  }
}
