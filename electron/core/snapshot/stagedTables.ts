/**
 * The staging twins a full sync fills (see migrations.ts), for both resources: cleared at the start of
 * a run, swapped in by renaming at its end (inside the caller's transaction).
 */
import type { Db } from './database'
import { ORDER_INDEXES, ORDER_TABLES, SELL_REQUEST_INDEXES, SELL_REQUEST_TABLES } from './migrations'
import type { Resource } from './syncBookkeeping'

const TABLES: Record<Resource, { rows: string; docs: string; create: (suffix: string) => string; indexes: string }> = {
  orders: { rows: 'orders', docs: 'order_docs', create: ORDER_TABLES, indexes: ORDER_INDEXES },
  sellRequests: { rows: 'sell_requests', docs: 'sell_request_docs', create: SELL_REQUEST_TABLES, indexes: SELL_REQUEST_INDEXES }
}

export function clearStaged(db: Db, resource: Resource): void {
  const { rows, docs } = TABLES[resource]
  db.exec(`DELETE FROM ${rows}_staged; DELETE FROM ${docs}_staged;`)
}

/** Replaces the live tables with the staged ones. */
export function promoteStaged(db: Db, resource: Resource): void {
  const { rows, docs, create, indexes } = TABLES[resource]
  db.exec(`
    DROP TABLE ${rows}; DROP TABLE ${docs};
    ALTER TABLE ${rows}_staged RENAME TO ${rows}; ALTER TABLE ${docs}_staged RENAME TO ${docs};`)
  const statements = indexes.split(';').map((sql) => sql.trim()).filter(Boolean)
  try {
    // Each row once, almost always: the unique indexes (built first) find out for free.
    for (const sql of statements) db.exec(sql)
  } catch (error) {
    if (!/UNIQUE/i.test(String(error))) throw error
    // A row fetched twice (pages shift while a sync runs): the later copy wins. (A failed statement
    // undoes only itself; the transaction goes on.)
    for (const sql of statements) db.exec(sql.replace(/^CREATE (UNIQUE )?INDEX /, 'DROP INDEX IF EXISTS ').replace(/ ON .*$/s, ''))
    db.exec(`
      DELETE FROM ${rows} WHERE rowid NOT IN (SELECT MAX(rowid) FROM ${rows} GROUP BY id);
      DELETE FROM ${docs} WHERE rowid NOT IN (SELECT MAX(rowid) FROM ${docs} GROUP BY id);`)
    for (const sql of statements) db.exec(sql)
  }
  db.exec(create('_staged'))
}
