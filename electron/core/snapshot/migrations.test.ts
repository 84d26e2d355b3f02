/**
 * Migration 6 on a file written at schema 5: the bulk-edit tables lose the CHECK naming the fields and
 * keep every row, their keys and their indexes.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'libsql'
import { expect, it } from 'vitest'
import { openDatabase, scalar } from './database'
import { MIGRATIONS } from './migrations'

it('migration 6 drops the field CHECK of bulk_changes and bulk_staged and keeps their rows', () => {
  const file = join(mkdtempSync(join(tmpdir(), 'seller-desk-migration-6-')), 'snapshot.sqlite')
  const old = new Database(file)
  for (const [i, sql] of MIGRATIONS.slice(0, 5).entries()) {
    old.exec(sql)
    old.exec(`PRAGMA user_version = ${i + 1}`)
  }
  old.exec("INSERT INTO bulk_batches (id, label, created_ms) VALUES ('b1', '2 prices on 2 listings', 1)")
  old.exec(`INSERT INTO bulk_changes VALUES
    ('b1', 'l1', 'priceCents', 'SKU-1', 'Phone', 100, 200, 5, 'applied', NULL, 6),
    ('b1', 'l2', 'quantity', 'SKU-2', 'Tablet', 1, 3, 5, 'failed', 'Refused.', 7)`)
  old.exec(`INSERT INTO bulk_staged VALUES ('l1', 'quantity', 4, 9, '2026-11-24T05:31:15.000Z', 1)`)
  // At schema 5 the CHECK refuses any other field.
  expect(() => old.exec("INSERT INTO bulk_staged VALUES ('l1', 'weightGrams', 0, 180, '2026-11-24T05:31:15.000Z', 2)")).toThrow(/CHECK/)
  old.close()

  const { db } = openDatabase(file)
  try {
    expect(scalar<number>(db, 'PRAGMA user_version')).toBe(MIGRATIONS.length)
    expect(db.prepare('SELECT * FROM bulk_changes ORDER BY sell_request_id').raw().all()).toEqual([
      ['b1', 'l1', 'priceCents', 'SKU-1', 'Phone', 100, 200, 5, 'applied', null, 6],
      ['b1', 'l2', 'quantity', 'SKU-2', 'Tablet', 1, 3, 5, 'failed', 'Refused.', 7]
    ])
    expect(db.prepare('SELECT * FROM bulk_staged').raw().all()).toEqual([['l1', 'quantity', 4, 9, '2026-11-24T05:31:15.000Z', 1]])
    db.exec("INSERT INTO bulk_staged VALUES ('l1', 'weightGrams', 0, 180, '2026-11-24T05:31:15.000Z', 2)")
    db.exec("INSERT INTO bulk_changes VALUES ('b1', 'l1', 'weightGrams', 'SKU-1', 'Phone', 0, 180, 5, 'pending', NULL, 8)")
    // Keys, the status CHECK and the index are as before.
    expect(() => db.exec("INSERT INTO bulk_staged VALUES ('l1', 'quantity', 4, 10, '2026-11-24T05:31:15.000Z', 3)")).toThrow(/UNIQUE|PRIMARY/)
    expect(() => db.exec("INSERT INTO bulk_changes VALUES ('b1', 'l3', 'quantity', 'S', 'N', 0, 1, 5, 'lost', NULL, 8)")).toThrow(/CHECK/)
    expect(scalar<string>(db, "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'bulk_changes' AND name = 'bulk_changes_by_status'")).toBe('bulk_changes_by_status')
    expect(scalar<string>(db, "SELECT sql FROM sqlite_master WHERE name = 'bulk_staged'")).not.toMatch(/priceCents/)
  } finally {
    db.close()
  }
})
