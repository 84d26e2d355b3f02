/**
 * The snapshot's schema, as numbered migrations (PRAGMA user_version). Append, never edit a released
 * one: a file written by an older Seller Desk is brought forward one step at a time.
 *
 * Each resource is a narrow table of the columns lists filter and sort on (scans stay fast) plus a
 * table of the full JSON documents, read only for the rows of the page shown. A full sync appends to
 * the `*_staged` twins page by page (resumable; no indexes there while it stages, so each page writes
 * only new pages of the file), indexes them one index per step, then swaps them in by renaming (see
 * stagedTables.ts).
 */

const ORDER_TABLES = (suffix: string) => `
CREATE TABLE orders${suffix} (
  id TEXT NOT NULL,
  order_no TEXT NOT NULL,
  order_ms INTEGER NOT NULL,
  status TEXT NOT NULL,
  item_statuses TEXT NOT NULL,
  awaiting_shipment_units INTEGER NOT NULL,
  ready_to_ship_units INTEGER NOT NULL,
  quantity INTEGER NOT NULL,
  products INTEGER NOT NULL,
  total_cents INTEGER NOT NULL,
  amount_paid_cents INTEGER NOT NULL,
  search_text TEXT NOT NULL
);
CREATE TABLE order_docs${suffix} (id TEXT NOT NULL, json TEXT NOT NULL);`

/** The live tables' indexes (one row per id: upserts replace). */
const ORDER_INDEXES = `
CREATE UNIQUE INDEX orders_id ON orders(id);
CREATE UNIQUE INDEX order_docs_id ON order_docs(id);
CREATE INDEX orders_by_date ON orders(order_ms, id);
CREATE INDEX orders_by_total ON orders(total_cents, id);`

/**
 * The sell-request tables as migration 1 created them (a released migration's text never changes;
 * later ones alter them, and a full sync's staging twin copies the live table as it is).
 */
const SELL_REQUEST_TABLES_1 = (suffix: string) => `
CREATE TABLE sell_requests${suffix} (
  id TEXT NOT NULL,
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
  search_text TEXT NOT NULL
);
CREATE TABLE sell_request_docs${suffix} (id TEXT NOT NULL, json TEXT NOT NULL);`

const SELL_REQUEST_INDEXES_1 = `
CREATE UNIQUE INDEX sell_requests_id ON sell_requests(id);
CREATE UNIQUE INDEX sell_request_docs_id ON sell_request_docs(id);
CREATE INDEX sell_requests_by_updated ON sell_requests(updated_ms, id);
CREATE INDEX sell_requests_by_price ON sell_requests(price_cents, id);
CREATE INDEX sell_requests_by_quantity ON sell_requests(quantity, id);`

/** The properties the bulk-edit grid shows, sorts and filters by: a text column each on sell_requests (migration 7). */
export const GRID_PROPERTIES = ['grade', 'color', 'storage', 'carrier'] as const

/** The grid's order (name, then id), so each of its pages is a short walk of an index rather than a sort of every listing. */
const SELL_REQUEST_NAME_INDEX = 'CREATE INDEX sell_requests_by_name ON sell_requests(name COLLATE NOCASE, id);'

/**
 * A stored document's property as the listing's text (sellerApi/wire.ts: `String(value)`, absent or
 * null ''), for backfilling the property columns.
 */
const propertyText = (docs: string, key: string) => {
  const path = `'$.properties.${key}'`
  const value = `json_extract(${docs}.json, ${path})`
  return `CASE json_type(${docs}.json, ${path})
      WHEN 'true' THEN 'true' WHEN 'false' THEN 'false'
      WHEN 'real' THEN CASE WHEN ${value} = CAST(${value} AS INTEGER) THEN CAST(CAST(${value} AS INTEGER) AS TEXT) ELSE CAST(${value} AS TEXT) END
      ELSE coalesce(CAST(${value} AS TEXT), '') END`
}

const addGridProperties = (suffix: string) => `
  ${GRID_PROPERTIES.map((key) => `ALTER TABLE sell_requests${suffix} ADD COLUMN ${key} TEXT NOT NULL DEFAULT '';`).join('\n  ')}
  UPDATE sell_requests${suffix} SET ${GRID_PROPERTIES.map((key) => `${key} = ${propertyText('d', key)}`).join(', ')}
    FROM sell_request_docs${suffix} d WHERE d.id = sell_requests${suffix}.id;`

/** Units per item status of each order, from its document (as orderTable.ts writes them at sync). */
const addItemUnits = (suffix: string) => `
  ALTER TABLE orders${suffix} ADD COLUMN item_units TEXT NOT NULL DEFAULT '{}';
  UPDATE orders${suffix} SET item_units = (
      SELECT json_group_object(status, units) FROM (
        SELECT i.value->>'$.status' AS status, SUM(CAST(i.value->>'$.quantity' AS INTEGER)) AS units
        FROM json_each(d.json, '$.items') i GROUP BY status))
    FROM order_docs${suffix} d WHERE d.id = orders${suffix}.id;`

export const MIGRATIONS: readonly string[] = [
  // 1: orders, sell requests, their staging twins, sync bookkeeping.
  `${ORDER_TABLES('')}
  ${ORDER_INDEXES}
  ${ORDER_TABLES('_staged')}
  ${SELL_REQUEST_TABLES_1('')}
  ${SELL_REQUEST_INDEXES_1}
  ${SELL_REQUEST_TABLES_1('_staged')}
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
  );`,
  // 2: bulk edit: batches of changes applied to sell requests, and each change's outcome (the apply queue).
  `CREATE TABLE bulk_batches (
    id TEXT PRIMARY KEY,
    label TEXT NOT NULL,
    created_ms INTEGER NOT NULL,
    started_ms INTEGER,
    finished_ms INTEGER
  );
  CREATE TABLE bulk_changes (
    batch_id TEXT NOT NULL,
    sell_request_id TEXT NOT NULL,
    field TEXT NOT NULL CHECK (field IN ('priceCents', 'quantity')),
    sku TEXT NOT NULL,
    name TEXT NOT NULL,
    before_value INTEGER NOT NULL,
    after_value INTEGER NOT NULL,
    base_updated_ms INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pending', 'applied', 'failed', 'conflict', 'cancelled')),
    message TEXT,
    changed_ms INTEGER NOT NULL,
    PRIMARY KEY (batch_id, sell_request_id, field)
  ) WITHOUT ROWID;
  CREATE INDEX bulk_changes_by_status ON bulk_changes(batch_id, status);`,
  // 3: bulk edit: the change set (staged, not yet applied), so closing or a crash loses none of it.
  // `seq` keeps staging order; values are cents or units as staged (an invalid one may be fractional).
  `CREATE TABLE bulk_staged (
    sell_request_id TEXT NOT NULL,
    field TEXT NOT NULL CHECK (field IN ('priceCents', 'quantity')),
    before_value INTEGER NOT NULL,
    after_value INTEGER NOT NULL,
    base_updated_at TEXT NOT NULL,
    seq INTEGER NOT NULL,
    PRIMARY KEY (sell_request_id, field)
  ) WITHOUT ROWID;`,
  // 4: sync against any marketplace: where incremental syncs start in the marketplace's clock, what the
  // last completeness check found, and a full sync's progress as row ranges in rounds (pages_done then
  // holds [start, end) pairs; `take` the page size the marketplace uses).
  `ALTER TABLE sync_state ADD COLUMN cursor_ms INTEGER;
  ALTER TABLE sync_state ADD COLUMN synced_count INTEGER;
  ALTER TABLE sync_state ADD COLUMN complete INTEGER;
  ALTER TABLE sync_state ADD COLUMN page_size INTEGER;
  ALTER TABLE sync_runs ADD COLUMN cursor_ms INTEGER;
  ALTER TABLE sync_runs ADD COLUMN round INTEGER NOT NULL DEFAULT 1;
  ALTER TABLE sync_runs ADD COLUMN total_dropped INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE sync_runs ADD COLUMN first_total INTEGER;`,
  // 5: bulk edit history: the batch an applied batch undoes (set when it applies changes staged by
  // "Undo batch"), so the history names an undo as such and a batch already undone says so.
  `ALTER TABLE bulk_batches ADD COLUMN undo_of TEXT;
  CREATE INDEX bulk_batches_by_undo_of ON bulk_batches(undo_of);`,
  // 6: which fields a bulk change may be to is the field descriptors' to say (listingFields.ts: the
  // change set refuses a key no descriptor has, and leaves out a saved one), not a CHECK naming them
  // here: both tables are rebuilt without it (SQLite cannot drop a CHECK), their rows kept.
  `CREATE TABLE bulk_changes_next (
    batch_id TEXT NOT NULL,
    sell_request_id TEXT NOT NULL,
    field TEXT NOT NULL,
    sku TEXT NOT NULL,
    name TEXT NOT NULL,
    before_value INTEGER NOT NULL,
    after_value INTEGER NOT NULL,
    base_updated_ms INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pending', 'applied', 'failed', 'conflict', 'cancelled')),
    message TEXT,
    changed_ms INTEGER NOT NULL,
    PRIMARY KEY (batch_id, sell_request_id, field)
  ) WITHOUT ROWID;
  INSERT INTO bulk_changes_next (batch_id, sell_request_id, field, sku, name, before_value, after_value, base_updated_ms, status, message, changed_ms)
    SELECT batch_id, sell_request_id, field, sku, name, before_value, after_value, base_updated_ms, status, message, changed_ms FROM bulk_changes;
  DROP TABLE bulk_changes;
  ALTER TABLE bulk_changes_next RENAME TO bulk_changes;
  CREATE INDEX bulk_changes_by_status ON bulk_changes(batch_id, status);
  CREATE TABLE bulk_staged_next (
    sell_request_id TEXT NOT NULL,
    field TEXT NOT NULL,
    before_value INTEGER NOT NULL,
    after_value INTEGER NOT NULL,
    base_updated_at TEXT NOT NULL,
    seq INTEGER NOT NULL,
    PRIMARY KEY (sell_request_id, field)
  ) WITHOUT ROWID;
  INSERT INTO bulk_staged_next (sell_request_id, field, before_value, after_value, base_updated_at, seq)
    SELECT sell_request_id, field, before_value, after_value, base_updated_at, seq FROM bulk_staged;
  DROP TABLE bulk_staged;
  ALTER TABLE bulk_staged_next RENAME TO bulk_staged;`,
  // 7: the bulk-edit grid reads its rows a page at a time in name order, with the properties it sorts and
  // filters by as columns written at sync (filled here from the stored documents, staged ones too), not
  // extracted from every document at each read.
  `${addGridProperties('')}
  ${addGridProperties('_staged')}
  ${SELL_REQUEST_NAME_INDEX}`,
  // 8: each save of staged changes numbers its rows after the last one (MAX(seq)) and a restore reads
  // them in that order: both walk this index instead of the whole table (50,000 rows after an import).
  `CREATE INDEX bulk_staged_by_seq ON bulk_staged(seq);`,
  // 9: the units of each order's items by status become a column written at sync (filled here from the
  // stored documents, staged ones too): the Orders list filtered by an item status without a column of
  // its own (delivered, canceled, …) sums those instead of reading every matching order's document.
  `${addItemUnits('')}
  ${addItemUnits('_staged')}`,
  // 10: whether the marketplace's zone-less order times were seen to be UTC: until they are, incremental
  // syncs ask for the orders changed in the 12 hours before their cursor too (syncEngine's ZONELESS_SLACK_MS).
  `ALTER TABLE sync_state ADD COLUMN zoneless_utc INTEGER;`,
  // 11: the seller's bulk-edit warning rules, kept with the account (one row, as JSON).
  `CREATE TABLE bulk_rules (id INTEGER PRIMARY KEY CHECK (id = 1), json TEXT NOT NULL);`,
  // 12: unshipped orders placed before the synced window, kept in the live orders table and named here
  // (olderOpenOrders.ts), and the last sweep that looked for them (one row).
  `CREATE TABLE older_open_orders (id TEXT PRIMARY KEY) WITHOUT ROWID;
  CREATE TABLE older_open_check (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    before_ms INTEGER,
    checked_ms INTEGER NOT NULL,
    listed INTEGER NOT NULL,
    answered INTEGER NOT NULL,
    kept INTEGER NOT NULL,
    complete INTEGER NOT NULL,
    error TEXT
  );`,
  // 13: when the seller put away the note of a batch's changes that did not apply (bulk edit's toolbar);
  // a retry of the batch clears it, so the outcomes of that retry are noted again. Batches that ended
  // before the note existed are taken as put away: the seller saw their outcome in their panel then.
  `ALTER TABLE bulk_batches ADD COLUMN unapplied_dismissed_ms INTEGER;
  UPDATE bulk_batches SET unapplied_dismissed_ms = finished_ms WHERE finished_ms IS NOT NULL;`,
  // 14: the time zone the marketplace writes its zone-less order times in, where the seller named one
  // (null: UTC), and whether every order's order_ms is written in it yet (orderTable.ts).
  `CREATE TABLE order_time_zone (id INTEGER PRIMARY KEY CHECK (id = 1), zone TEXT, columns_written INTEGER NOT NULL);`,
  // 15: how far the marketplace's clock for order times is ahead of UTC, as new orders told (null: not told yet).
  `ALTER TABLE sync_state ADD COLUMN clock_offset_ms INTEGER;`,
  // 16: the rows of each list the last sync could not read (unreadableRows.ts): by id, or where it
  // was read for a row with none, with what a seller knows it by.
  `CREATE TABLE unreadable_rows (
    resource TEXT NOT NULL,
    key TEXT NOT NULL,
    id TEXT,
    label TEXT,
    position INTEGER NOT NULL,
    problem TEXT NOT NULL,
    PRIMARY KEY (resource, key)
  ) WITHOUT ROWID;`,
  // 17: when a full sync's run last recorded positions read (the computer's clock): an interrupted run is
  // resumed while its last progress is recent, however long ago it started (a first sync under a
  // marketplace's rate limit takes many attempts). A run from before has none: its start stands in.
  `ALTER TABLE sync_runs ADD COLUMN progress_ms INTEGER;`,
  // 18: when the last full sync's pass was committed (the periodic reconcile counts from there, not from
  // its start), and what a committed pass leaves its catch-up and check to judge while they have not run
  // (as JSON), so a check the marketplace stopped is finished by the next sync instead of a new pass. A
  // file from before has neither: the last full sync's start stands in, and no check is owed.
  `ALTER TABLE sync_state ADD COLUMN last_full_ended_ms INTEGER;
  ALTER TABLE sync_state ADD COLUMN check_owed TEXT;`,
  // 19: what a full sync's pass has seen so far that the check after it needs (the rows created after its
  // round's first answer, the rows it could not read; as JSON), kept with its run: a pass read over
  // several attempts is judged as one. A run from before has neither: it goes on as it did.
  `ALTER TABLE sync_runs ADD COLUMN created_rows TEXT;
  ALTER TABLE sync_runs ADD COLUMN unreadable_found TEXT;`,
  // 20: the orders a sync stored as new that the seller has not been told of yet, written with the orders
  // themselves: a sync that fails after storing them still has them announced, once.
  `CREATE TABLE orders_to_announce (id TEXT PRIMARY KEY) WITHOUT ROWID;`,
  // 21: the listings deleted through this app (deletedHere.ts), with when (the computer's clock), kept out
  // of what a sync that read them before the delete writes.
  `CREATE TABLE sell_requests_deleted_here (id TEXT PRIMARY KEY, deleted_ms INTEGER NOT NULL) WITHOUT ROWID;`,
  // 22: how many rows the marketplace counts beyond those it lists, as a full sync that read every round
  // found it (syncBookkeeping.ts ResourceSyncState.settledGap). A file from before has none: its next
  // automatic sync after an incomplete check is full, as before.
  `ALTER TABLE sync_state ADD COLUMN settled_gap INTEGER;`
]
