/**
 * The snapshot's schema, as numbered migrations (PRAGMA user_version). Append, never edit: a file
 * written by an older Seller Desk is brought forward one step at a time.
 *
 * Orders and sell requests are kept twice: the live tables the app reads, and `*_staged` tables a full
 * sync fills page by page (resumable) before swapping them in with one transaction.
 */

const orderTables = (suffix: string) => `
CREATE TABLE orders${suffix} (
  id TEXT PRIMARY KEY,
  order_no TEXT NOT NULL,
  order_ms INTEGER NOT NULL,
  status TEXT NOT NULL,
  quantity INTEGER NOT NULL,
  products INTEGER NOT NULL,
  total_cents INTEGER NOT NULL,
  amount_paid_cents INTEGER NOT NULL,
  search_text TEXT NOT NULL,
  json TEXT NOT NULL
);
CREATE TABLE order_items${suffix} (
  order_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  id TEXT NOT NULL,
  name TEXT NOT NULL,
  status TEXT NOT NULL,
  quantity INTEGER NOT NULL,
  price_cents INTEGER NOT NULL,
  total_cents INTEGER NOT NULL,
  sell_request_id TEXT,
  shipment TEXT,
  tracking_number TEXT,
  PRIMARY KEY (order_id, position)
);`

const sellRequestTable = (suffix: string) => `
CREATE TABLE sell_requests${suffix} (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  sku TEXT NOT NULL,
  brand TEXT NOT NULL,
  category TEXT NOT NULL,
  status TEXT NOT NULL,
  price_cents INTEGER NOT NULL,
  msrp_cents INTEGER,
  quantity INTEGER NOT NULL,
  min_quantity INTEGER NOT NULL,
  updated_ms INTEGER NOT NULL,
  search_text TEXT NOT NULL,
  json TEXT NOT NULL
);`

export const MIGRATIONS: readonly string[] = [
  // 1: orders, items, sell requests, their staging twins, sync bookkeeping.
  `${orderTables('')}
  CREATE INDEX orders_by_date ON orders(order_ms, id);
  CREATE INDEX orders_by_total ON orders(total_cents, id);
  CREATE INDEX order_items_by_status ON order_items(status, order_id);
  ${orderTables('_staged')}
  ${sellRequestTable('')}
  CREATE INDEX sell_requests_by_updated ON sell_requests(updated_ms, id);
  CREATE INDEX sell_requests_by_price ON sell_requests(price_cents, id);
  CREATE INDEX sell_requests_by_quantity ON sell_requests(quantity, id);
  ${sellRequestTable('_staged')}
  CREATE TABLE sync_state (
    resource TEXT PRIMARY KEY,
    last_full_ms INTEGER,
    last_incremental_ms INTEGER,
    server_total INTEGER,
    window_from_ms INTEGER
  );
  CREATE TABLE sync_runs (
    resource TEXT PRIMARY KEY,
    started_ms INTEGER NOT NULL,
    take INTEGER NOT NULL,
    window_from_ms INTEGER,
    total INTEGER NOT NULL,
    pages_done TEXT NOT NULL
  );`
]
