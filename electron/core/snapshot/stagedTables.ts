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
    ALTER TABLE ${rows}_staged RENAME TO ${rows}; ALTER TABLE ${docs}_staged RENAME TO ${docs};
    -- A row fetched twice (pages shift while a sync runs): the later copy wins.
    DELETE FROM ${rows} WHERE rowid NOT IN (SELECT MAX(rowid) FROM ${rows} GROUP BY id);
    DELETE FROM ${docs} WHERE rowid NOT IN (SELECT MAX(rowid) FROM ${docs} GROUP BY id);
    ${indexes}
    ${create('_staged')}`)
}
