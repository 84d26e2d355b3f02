/**
 * Migrations on files written by an older Seller Desk. 6, at schema 5: the bulk-edit tables lose the
 * CHECK naming the fields and keep every row, their keys and their indexes. 7, at schema 6: the grid's
 * properties become columns, filled from the stored documents, and the grid's order gets its index.
 * 8, at schema 7: the saved change set gets an index on its order. 9, at schema 8: each order's units by
 * item status become a column, filled from the stored documents. 10, at schema 9: the sync state says
 * whether order times were seen to be UTC, not known for a file from before. 17, at schema 16: a full
 * sync's run says when it last made progress, not known for a run from before (its start stands in).
 * 18, at schema 17: the sync state says when the last full sync's pass ended and what a pass swapped in
 * leaves its check, neither known for a file from before (no check owed). 19, at schema 18: a full sync's
 * run keeps what its pass has seen that the check needs, nothing for a run from before. 20: the orders to
 * announce, none in a file from before.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'libsql'
import { expect, it } from 'vitest'
import { openDatabase, scalar } from './database'
import { MIGRATIONS } from './migrations'
import { readRun, readSyncState, writeRun, writeSyncState, type Resource } from './syncBookkeeping'
import { orderItemUnits, readOrderTimeZone } from './orderTable'
import { noteOrdersToAnnounce, takeOrdersToAnnounce } from './ordersToAnnounce'

/** A snapshot file as a Seller Desk at schema `version` left it (its migrations up to there run), open for rows of its time. */
function fileAtSchema(version: number): { file: string; old: Database.Database } {
  const file = join(mkdtempSync(join(tmpdir(), `seller-desk-migration-${version + 1}-`)), 'snapshot.sqlite')
  const old = new Database(file)
  for (const [i, sql] of MIGRATIONS.slice(0, version).entries()) {
    old.exec(sql)
    old.exec(`PRAGMA user_version = ${i + 1}`)
  }
  return { file, old }
}

it('migration 6 drops the field CHECK of bulk_changes and bulk_staged and keeps their rows', () => {
  const { file, old } = fileAtSchema(5)
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
    expect(scalar<string>(db, "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'bulk_changes' AND name = 'bulk_changes_by_status'")).toBe(
      'bulk_changes_by_status'
    )
    expect(scalar<string>(db, "SELECT sql FROM sqlite_master WHERE name = 'bulk_staged'")).not.toMatch(/priceCents/)
  } finally {
    db.close()
  }
})

it('migration 7 adds grade, color, storage and carrier to sell_requests (and its staging twin), filled from the documents', () => {
  const { file, old } = fileAtSchema(6)
  const docs: [string, Record<string, unknown> | undefined][] = [
    ['l1', { grade: 'A', color: 'Black', storage: '256 GB', carrier: 'Verizon' }],
    ['l2', { grade: 'B', storage: 256, carrier: null, finish: 'matte' }], // a number, a null, a key the grid does not show
    ['l3', { color: true, storage: 1.5, grade: 64.0 }], // as the listing reads them: String(value)
    ['l4', {}],
    ['l5', undefined] // no properties at all
  ]
  for (const [table, suffix] of [
    ['sell_requests', ''],
    ['sell_requests_staged', '_staged']
  ] as const) {
    for (const [id, properties] of docs) {
      old.prepare(`INSERT INTO ${table} VALUES (?, ?, 'SKU', 'Brand', 'Phones', 'open', 100, NULL, 1, 0, 5, 'x')`).run(id, `Phone ${id}`)
      // 64.0 as the marketplace may write it (JSON.stringify would write 64).
      const json = JSON.stringify({ id, name: `Phone ${id}`, ...(properties ? { properties } : {}) }).replace('"grade":64', '"grade":64.0')
      old.prepare(`INSERT INTO sell_request_docs${suffix} VALUES (?, ?)`).run(id, json)
    }
  }
  old.close()

  const { db } = openDatabase(file)
  try {
    expect(scalar<number>(db, 'PRAGMA user_version')).toBe(MIGRATIONS.length)
    const expected = [
      ['l1', 'A', 'Black', '256 GB', 'Verizon'],
      ['l2', 'B', '', '256', ''],
      ['l3', '64', 'true', '1.5', ''],
      ['l4', '', '', '', ''],
      ['l5', '', '', '', '']
    ]
    for (const table of ['sell_requests', 'sell_requests_staged']) {
      expect(db.prepare(`SELECT id, grade, color, storage, carrier FROM ${table} ORDER BY id`).raw().all()).toEqual(expected)
      // A row written without them (as before the migration) reads ''.
      db.exec(
        `INSERT INTO ${table} (id, name, sku, brand, category, status, price_cents, msrp_cents, quantity, min_quantity, updated_ms, search_text) VALUES ('l6', 'n', 's', 'b', 'c', 'open', 1, NULL, 1, 0, 5, 'x')`
      )
      expect(db.prepare(`SELECT grade, color, storage, carrier FROM ${table} WHERE id = 'l6'`).raw().get()).toEqual(['', '', '', ''])
    }
    // The grid's pages walk the name index.
    const plan = db.prepare('EXPLAIN QUERY PLAN SELECT id FROM sell_requests ORDER BY name COLLATE NOCASE, id LIMIT 10 OFFSET 10').raw().all() as unknown[][]
    expect(plan.map((row) => String(row.at(-1))).join(' ')).toMatch(/sell_requests_by_name/)
  } finally {
    db.close()
  }
})

it('migration 8 indexes the saved change set by its order: a save finds the last number and a restore reads them in order without going over the table', () => {
  const { file, old } = fileAtSchema(7)
  old.exec(
    `INSERT INTO bulk_staged VALUES ('l1', 'quantity', 4, 9, '2026-11-24T05:31:15.000Z', 2), ('l2', 'priceCents', 100, 120, '2026-11-24T05:31:15.000Z', 1)`
  )
  old.close()

  const { db } = openDatabase(file)
  try {
    expect(scalar<number>(db, 'PRAGMA user_version')).toBe(MIGRATIONS.length)
    const plan = (sql: string) => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).raw().all() as unknown[][]).map((row) => String(row.at(-1))).join(' ')
    expect(plan('SELECT MAX(seq) FROM bulk_staged')).toMatch(/SEARCH bulk_staged USING COVERING INDEX bulk_staged_by_seq/)
    expect(plan('SELECT sell_request_id, field, before_value, after_value, base_updated_at FROM bulk_staged ORDER BY seq')).toMatch(
      /SCAN bulk_staged USING INDEX bulk_staged_by_seq/
    )
    expect(db.prepare('SELECT sell_request_id FROM bulk_staged ORDER BY seq').raw().all()).toEqual([['l2'], ['l1']])
  } finally {
    db.close()
  }
})

it('migration 9 adds the units of each order’s items by status to orders (and its staging twin), filled from the documents', () => {
  const { file, old } = fileAtSchema(8)
  const items: [string, { status: string; quantity: number | string }[]][] = [
    [
      'o1',
      [
        { status: 'delivered', quantity: 2 },
        { status: 'delivered', quantity: '3' }, // the spec's numeric string
        { status: 'ready-to-ship', quantity: 1 }
      ]
    ],
    ['o2', []],
    ['o3', [{ status: 'on "hold"', quantity: 4 }]]
  ]
  for (const suffix of ['', '_staged']) {
    for (const [id, orderItems] of items) {
      old.prepare(`INSERT INTO orders${suffix} VALUES (?, 'N', 5, 'paid', '|x|', 0, 0, 1, 1, 100, 100, 'n')`).run(id)
      old
        .prepare(`INSERT INTO order_docs${suffix} VALUES (?, ?)`)
        .run(id, JSON.stringify({ id, items: orderItems.map((item, n) => ({ id: `${id}-${n}`, ...item })) }))
    }
  }
  old.close()

  const { db } = openDatabase(file)
  try {
    expect(scalar<number>(db, 'PRAGMA user_version')).toBe(MIGRATIONS.length)
    for (const table of ['orders', 'orders_staged']) {
      const units = (db.prepare(`SELECT id, item_units FROM ${table} ORDER BY id`).raw().all() as [string, string][]).map(([id, json]) => [
        id,
        JSON.parse(json)
      ])
      expect(units).toEqual([
        ['o1', { delivered: 5, 'ready-to-ship': 1 }],
        ['o2', {}],
        ['o3', { 'on "hold"': 4 }]
      ])
    }
    expect(orderItemUnits(db, {}, ['delivered', 'on "hold"', 'canceled'])).toEqual({
      orders: 3,
      units: [
        { status: 'delivered', units: 5 },
        { status: 'on "hold"', units: 4 },
        { status: 'canceled', units: 0 }
      ]
    })
  } finally {
    db.close()
  }
})

it('migration 10 keeps the sync state of a file from before and says order times are not known to be UTC yet', () => {
  const { file, old } = fileAtSchema(9)
  old.exec(
    `INSERT INTO sync_state (resource, last_full_ms, cursor_ms, server_total, synced_count, complete, page_size) VALUES ('orders', 1000, 2000, 40, 40, 1, 100)`
  )
  old.close()

  const { db } = openDatabase(file)
  try {
    expect(scalar<number>(db, 'PRAGMA user_version')).toBe(MIGRATIONS.length)
    expect(readSyncState(db, 'orders')).toMatchObject({
      lastFullMs: 1000,
      cursorMs: 2000,
      serverTotal: 40,
      complete: true,
      pageSize: 100,
      orderTimesReadRight: null
    })
    writeSyncState(db, 'orders', { orderTimesReadRight: true })
    writeSyncState(db, 'orders', { complete: false, orderTimesReadRight: undefined })
    expect(readSyncState(db, 'orders')).toMatchObject({ cursorMs: 2000, complete: false, orderTimesReadRight: true })
  } finally {
    db.close()
  }
})

it('migration 13 takes the batches that ended before it as put away (no old failures noted as new); 14 reads order times as UTC, every column written', () => {
  const { file, old } = fileAtSchema(12)
  old.exec(
    "INSERT INTO bulk_batches (id, label, created_ms, started_ms, finished_ms) VALUES ('b1', '2 prices on 2 listings', 1, 2, 3), ('b2', 'running', 4, 5, NULL)"
  )
  old.close()

  const { db } = openDatabase(file)
  try {
    expect(scalar<number>(db, 'PRAGMA user_version')).toBe(MIGRATIONS.length)
    expect(db.prepare('SELECT id, unapplied_dismissed_ms FROM bulk_batches ORDER BY id').raw().all()).toEqual([
      ['b1', 3],
      ['b2', null]
    ])
    expect(readOrderTimeZone(db)).toEqual({ zone: null, columnsWritten: true })
  } finally {
    db.close()
  }
})

it('migration 15 keeps the sync state of a file from before, with no clock offset told yet; one written reads back', () => {
  const { file, old } = fileAtSchema(14)
  old.exec(`INSERT INTO sync_state (resource, cursor_ms, complete, zoneless_utc) VALUES ('orders', 2000, 1, 0)`)
  old.close()

  const { db } = openDatabase(file)
  try {
    expect(scalar<number>(db, 'PRAGMA user_version')).toBe(MIGRATIONS.length)
    expect(readSyncState(db, 'orders')).toMatchObject({ cursorMs: 2000, complete: true, orderTimesReadRight: false, clockOffsetMs: null })
    writeSyncState(db, 'orders', { clockOffsetMs: -19_800_000 })
    writeSyncState(db, 'orders', { complete: false, clockOffsetMs: undefined })
    expect(readSyncState(db, 'orders')).toMatchObject({ cursorMs: 2000, complete: false, orderTimesReadRight: false, clockOffsetMs: -19_800_000 })
  } finally {
    db.close()
  }
})

/**
 * A full sync run part way through its first round, written into a file at an older schema, with a time
 * of last progress when that schema has one; answers the run as it should read back.
 */
function runOfOldFile(old: Database.Database, resource: Resource, windowFromMs: number | null, progressMs?: number) {
  const [progressColumn, progressValue] = progressMs === undefined ? ['', ''] : [', progress_ms', `, ${progressMs}`]
  old.exec(
    `INSERT INTO sync_runs (resource, started_ms, take, window_from_ms, total, pages_done, cursor_ms, round, total_dropped, first_total${progressColumn})
      VALUES ('${resource}', 1000, 50, ${windowFromMs ?? 'NULL'}, 400, '[[0,150]]', 2000, 1, 0, 400${progressValue})`
  )
  const run = {
    resource,
    startedMs: 1000,
    pageSize: 50,
    windowFromMs,
    total: 400,
    covered: [[0, 150]],
    cursorMs: 2000,
    round: 1,
    totalDropped: false,
    firstTotal: 400
  }
  return progressMs === undefined ? run : { ...run, progressMs }
}

it('migration 17 keeps a full sync run of a file from before, with no time of last progress (its start stands in); one written reads back', () => {
  const { file, old } = fileAtSchema(16)
  const held = runOfOldFile(old, 'orders', 500)
  old.close()

  const { db } = openDatabase(file)
  try {
    expect(scalar<number>(db, 'PRAGMA user_version')).toBe(MIGRATIONS.length)
    const run = readRun(db, 'orders')!
    expect(run).toEqual(held)
    writeRun(db, { ...run, covered: [[0, 200]], progressMs: 9000 })
    expect(readRun(db, 'orders')).toMatchObject({ startedMs: 1000, covered: [[0, 200]], progressMs: 9000 })
  } finally {
    db.close()
  }
})

it('migration 18 keeps the sync state of a file from before, with no end of the last full sync and no check owed; ones written read back', () => {
  const { file, old } = fileAtSchema(17)
  old.exec(
    `INSERT INTO sync_state (resource, last_full_ms, last_incremental_ms, cursor_ms, server_total, synced_count, complete, page_size) VALUES ('orders', 1000, 1500, 2000, 40, 40, 1, 100)`
  )
  old.close()

  const { db } = openDatabase(file)
  try {
    expect(scalar<number>(db, 'PRAGMA user_version')).toBe(MIGRATIONS.length)
    expect(readSyncState(db, 'orders')).toMatchObject({
      lastFullMs: 1000,
      lastIncrementalMs: 1500,
      serverTotal: 40,
      complete: true,
      lastFullEndedMs: null,
      checkOwed: null
    })
    const checkOwed = {
      kept: 0,
      totalDropped: true,
      firstTotal: 40,
      lastTotal: 39,
      createdCount: 2,
      createdAfterMs: 2500,
      unreadable: [{ id: 'a', label: 'Order A', position: 3, problem: 'price: expected an amount in dollars' }]
    }
    writeSyncState(db, 'orders', { lastFullEndedMs: 9000, checkOwed, complete: false, serverTotal: null, syncedCount: null })
    expect(readSyncState(db, 'orders')).toMatchObject({ lastFullMs: 1000, lastFullEndedMs: 9000, checkOwed, complete: false })
    // A patch that leaves them out keeps them; null settles the check owed.
    writeSyncState(db, 'orders', { cursorMs: 3000 })
    expect(readSyncState(db, 'orders')).toMatchObject({ lastFullEndedMs: 9000, checkOwed })
    writeSyncState(db, 'orders', { checkOwed: null })
    expect(readSyncState(db, 'orders')).toMatchObject({ lastFullEndedMs: 9000, checkOwed: null })
  } finally {
    db.close()
  }
})

it('migration 19 keeps a full sync run of a file from before, with nothing of what its pass saw (it goes on as it did); what one written saw reads back', () => {
  const { file, old } = fileAtSchema(18)
  const held = runOfOldFile(old, 'sellRequests', null, 3000)
  old.close()

  const { db } = openDatabase(file)
  try {
    expect(scalar<number>(db, 'PRAGMA user_version')).toBe(MIGRATIONS.length)
    const run = readRun(db, 'sellRequests')!
    expect(run).toEqual(held)
    expect(run).not.toHaveProperty('created')
    expect(run).not.toHaveProperty('unreadable')
    const created = { afterMs: 1500, firstIds: ['a', 'b'], ids: ['c'] }
    const unreadable = [{ id: null, label: null, position: 7, problem: 'id: missing' }]
    writeRun(db, { ...run, covered: [[0, 200]], created, unreadable })
    expect(readRun(db, 'sellRequests')).toMatchObject({ covered: [[0, 200]], created, unreadable })
  } finally {
    db.close()
  }
})

it('migration 20 starts a file from before with no orders to announce; each noted is taken once', () => {
  const { file, old } = fileAtSchema(19)
  old.close()

  const { db } = openDatabase(file)
  try {
    expect(scalar<number>(db, 'PRAGMA user_version')).toBe(MIGRATIONS.length)
    expect(takeOrdersToAnnounce(db)).toEqual([])
    noteOrdersToAnnounce(db, ['o2', 'o1'])
    noteOrdersToAnnounce(db, ['o1'])
    expect(takeOrdersToAnnounce(db).sort()).toEqual(['o1', 'o2'])
    expect(takeOrdersToAnnounce(db)).toEqual([])
  } finally {
    db.close()
  }
})
