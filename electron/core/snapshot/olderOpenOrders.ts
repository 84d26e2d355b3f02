/**
 * Unshipped orders placed before the synced window. A full sync keeps the orders placed or updated in
 * the last N days (the marketplace's `fromDate` filter); an order placed before them and not touched
 * since, with items still to ship, would be missing from the seller's work. After each full sync a
 * sweep reads the marketplace's older orders (sync/olderOpenSweep.ts) and keeps those with an item
 * awaiting shipment or ready to ship here: in the live orders table, so the Orders list, its filters,
 * the export and the dashboard all count them, and named in `older_open_orders`, which sets them apart
 * from the rows the marketplace's count of the window covers (the completeness check counts only those).
 *
 * - A later sync that reads one of them (it was updated: shipped, canceled) keeps it as any order
 *   updated in the window, and it is no longer set apart (forgetOlderOpen).
 * - A full sync's swap carries them into the new tables (carryOlderOpen), so they never go missing
 *   between a full sync and the sweep that follows it; the sweep then replaces them all.
 * - The first sweep reads every order before the window; later ones only what was created or updated
 *   between the last one's end of range and the window's start now (orders dropping out of the window
 *   as it moves on). The sweeps' outcome (up to which time, how much the whole one read, whether it
 *   read everything, what stopped the last one) is kept in `older_open_check`, and said where the
 *   figures are shown.
 */
import { scalar, type Db } from './database'
import { wireRowsAt } from './docRows'
import { OLDER_OPEN_IDS, ORDER_COLUMNS, writeOrders, type OrderBatch } from './orderTable'

/** Item statuses of work still to do: an order holding one is kept from before the window. */
export const OPEN_ITEM_STATUSES = ['awaiting-shipment', 'ready-to-ship'] as const

/** The sweeps of the orders placed before the window, as the last ones left them. */
export interface OlderOpenCheck {
  /** Every order placed before this instant was looked at, by the last sweep that ended; null before one did. */
  beforeMs: number | null
  /** The last sweep, ended or not. */
  checkedMs: number
  /** The last whole sweep (from the first order): orders the marketplace counted, and distinct orders it answered. */
  listed: number
  answered: number
  /** Every order it counted was read. */
  complete: boolean
  /** Unshipped orders kept. */
  kept: number
  /** What stopped the last sweep (what earlier ones kept stays); null when it ended. */
  error: string | null
}

/** What a sweep that ended read: the whole range before the window, or what changed in it since the last. */
export interface SweepOutcome {
  beforeMs: number
  checkedMs: number
  /** A whole sweep's figures; none for a sweep of what changed since the last (which keeps the last whole one's). */
  whole?: { listed: number; answered: number; complete: boolean }
}

/**
 * The orders a sweep found, kept: a whole sweep's replace the last ones; a sweep of what changed adds to
 * them. Those the live table holds otherwise (read in the window) stay as read there; the others are
 * written and set apart. One transaction.
 */
export function keepOlderOpen(db: Db, batches: readonly OrderBatch[], outcome: SweepOutcome): void {
  if (outcome.whole)
    db.exec(`DELETE FROM order_docs WHERE id IN (${OLDER_OPEN_IDS}); DELETE FROM orders WHERE id IN (${OLDER_OPEN_IDS}); DELETE FROM older_open_orders;`)
  const held = db.prepare('SELECT 1 FROM orders WHERE id = ?').raw()
  const setApart = db.prepare('INSERT OR IGNORE INTO older_open_orders (id) VALUES (?)')
  for (const batch of batches) {
    const places = batch.rows.flatMap((order, place) => (held.get(order.id) === undefined ? [place] : []))
    if (places.length === 0) continue
    writeOrders(db, places.length === batch.rows.length ? batch : batchAt(batch, places), '')
    for (const place of places) setApart.run(batch.rows[place]!.id)
  }
  const last = readOlderOpenCheck(db)
  const whole = outcome.whole ?? { listed: last?.listed ?? 0, answered: last?.answered ?? 0, complete: last?.complete ?? false }
  const kept = scalar<number>(db, 'SELECT COUNT(*) FROM older_open_orders') ?? 0
  writeCheck(db, { beforeMs: outcome.beforeMs, checkedMs: outcome.checkedMs, ...whole, kept, error: null })
}

/** A sweep that did not end: its words are kept with what the last ones found; the rows they kept stay. */
export function olderOpenFailed(db: Db, checkedMs: number, error: string): void {
  const last = readOlderOpenCheck(db)
  writeCheck(db, {
    beforeMs: last?.beforeMs ?? null,
    checkedMs,
    listed: last?.listed ?? 0,
    answered: last?.answered ?? 0,
    complete: last?.complete ?? false,
    kept: last?.kept ?? 0,
    error
  })
}

/** Orders read by a sync (updated in the window): kept as such from now on. */
export function forgetOlderOpen(db: Db, ids: readonly string[]): void {
  if (ids.length) db.prepare('DELETE FROM older_open_orders WHERE id IN (SELECT value FROM json_each(?))').run(JSON.stringify(ids))
}

/** Before a full sync's staged orders are swapped in: the rows set apart go with them (unless staged anew). */
export function carryOlderOpen(db: Db): void {
  const columns = ORDER_COLUMNS.join(', ')
  db.exec(`
    DELETE FROM older_open_orders WHERE id IN (SELECT id FROM orders_staged);
    INSERT INTO orders_staged (${columns}) SELECT ${columns} FROM orders WHERE id IN (${OLDER_OPEN_IDS});
    INSERT INTO order_docs_staged (id, json) SELECT id, json FROM order_docs WHERE id IN (${OLDER_OPEN_IDS});`)
}

export function readOlderOpenCheck(db: Db): OlderOpenCheck | null {
  const row = db.prepare('SELECT before_ms, checked_ms, listed, answered, kept, complete, error FROM older_open_check WHERE id = 1').raw().get() as
    [number, number, number, number, number, number, string | null] | undefined
  if (!row) return null
  const [beforeMs, checkedMs, listed, answered, kept, complete, error] = row
  return { beforeMs, checkedMs, listed, answered, kept, complete: complete === 1, error }
}

function writeCheck(db: Db, check: OlderOpenCheck): void {
  db.prepare(
    `INSERT OR REPLACE INTO older_open_check (id, before_ms, checked_ms, listed, answered, kept, complete, error) VALUES (1, ?, ?, ?, ?, ?, ?, ?)`
  ).run(check.beforeMs, check.checkedMs, check.listed, check.answered, check.kept, check.complete ? 1 : 0, check.error)
}

/** The same page with only the orders at `places` (ascending), their documents cut from the page's as received. */
function batchAt(batch: OrderBatch, places: readonly number[]): OrderBatch {
  return { rows: places.map((place) => batch.rows[place]!), wire: wireRowsAt(batch.wire, places, batch.rows.length) }
}
