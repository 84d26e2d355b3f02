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
 * - A full sync's swap carries them into the new tables (carryOlderOpen), and with them the orders
 *   leaving the window with items to ship (placed before its new start, not staged: not updated since,
 *   so exactly as held). Nothing left to ship goes missing between a full sync and the next sweep.
 * - The first sweep reads every order before the window; later ones only what was created or updated
 *   between the last one's end of range and the window's start now, every such order (one set apart
 *   may have been shipped while the app was closed longer than the window). A sweep that read short of
 *   the marketplace's count keeps what it found and leaves its range to be read again. The sweeps'
 *   outcome (up to which time, how much the whole one read, whether it read everything, what stopped
 *   the last one) is kept in `older_open_check`, and said where the figures are shown.
 */
import type { Order } from '../../shared/domain'
import { scalar, type Db } from './database'
import { wireRowsAt } from './docRows'
import { holdsItemStatus, OLDER_OPEN_IDS, ORDER_COLUMNS, writeOrders, type OrderBatch } from './orderTable'

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

/** What a sweep read (all it asked for, or less: then `error` says so and what it found is kept all the same). */
export interface SweepOutcome {
  /** Every order placed before this was looked at: the window's start for a sweep that read all it asked, else the last one's. */
  beforeMs: number | null
  checkedMs: number
  /** A whole sweep's figures; none for a sweep of what changed since the last (which keeps the last whole one's). */
  whole?: { listed: number; answered: number; complete: boolean }
  /** Why the sweep read less than it asked for; null when it read it all. */
  error: string | null
}

/** hasOpenItem over the orders table's item statuses column ("|awaiting-shipment|ready-to-ship|"). */
const OPEN_IN_COLUMN = OPEN_ITEM_STATUSES.map((status) => holdsItemStatus(status)).join(' OR ')

/** Whether an order has work still to do: an item awaiting shipment or ready to ship. */
export const hasOpenItem = (order: Order): boolean => order.items.some((item) => (OPEN_ITEM_STATUSES as readonly string[]).includes(item.status))

/**
 * The orders a sweep read, placed before the window, kept as they are now: one with items to ship is
 * written (again) and set apart; one set apart before that has none any more goes; one the live table
 * holds as read in the window stays as read there. A whole sweep that read everything before the
 * window first drops the ones set apart before it (what it did not find has nothing to ship any more).
 * One transaction.
 */
export function keepOlderOpen(db: Db, batches: readonly OrderBatch[], outcome: SweepOutcome): void {
  if (outcome.whole && outcome.error === null && outcome.beforeMs !== null) {
    const before = `SELECT id FROM orders WHERE order_ms < ${Math.floor(outcome.beforeMs)} AND id IN (${OLDER_OPEN_IDS})`
    db.exec(
      `DELETE FROM order_docs WHERE id IN (${before}); DELETE FROM orders WHERE id IN (${before});
       DELETE FROM older_open_orders WHERE id NOT IN (SELECT id FROM orders);`
    )
  }
  const held = db.prepare('SELECT id IN (SELECT id FROM older_open_orders) FROM orders WHERE id = ?').raw()
  const setApart = db.prepare('INSERT OR IGNORE INTO older_open_orders (id) VALUES (?)')
  const drops = ['order_docs', 'orders', 'older_open_orders'].map((table) => db.prepare(`DELETE FROM ${table} WHERE id = ?`))
  for (const batch of batches) {
    const places: number[] = []
    batch.rows.forEach((order, place) => {
      const row = held.get(order.id) as [number] | undefined // [1]: set apart, [0]: read in the window
      if (row && row[0] === 0) return
      if (hasOpenItem(order)) places.push(place)
      else if (row) for (const drop of drops) drop.run(order.id)
    })
    if (places.length === 0) continue
    writeOrders(db, places.length === batch.rows.length ? batch : batchAt(batch, places), '')
    for (const place of places) setApart.run(batch.rows[place]!.id)
  }
  const whole = outcome.whole ?? lastWhole(readOlderOpenCheck(db))
  const kept = scalar<number>(db, 'SELECT COUNT(*) FROM older_open_orders') ?? 0
  writeCheck(db, { beforeMs: outcome.beforeMs, checkedMs: outcome.checkedMs, ...whole, kept, error: outcome.error })
}

/** A sweep that did not end: its words are kept with what the last ones found; the rows they kept stay. */
export function olderOpenFailed(db: Db, checkedMs: number, error: string): void {
  const last = readOlderOpenCheck(db)
  writeCheck(db, { beforeMs: last?.beforeMs ?? null, checkedMs, ...lastWhole(last), kept: last?.kept ?? 0, error })
}

/** The last whole sweep's figures, kept by a sweep that is not one (or did not end); none before one. */
function lastWhole(last: OlderOpenCheck | null): Pick<OlderOpenCheck, 'listed' | 'answered' | 'complete'> {
  return { listed: last?.listed ?? 0, answered: last?.answered ?? 0, complete: last?.complete ?? false }
}

/** Orders read by a sync (updated in the window): kept as such from now on. */
export function forgetOlderOpen(db: Db, ids: readonly string[]): void {
  if (ids.length) db.prepare('DELETE FROM older_open_orders WHERE id IN (SELECT value FROM json_each(?))').run(JSON.stringify(ids))
}

/**
 * Before a full sync's staged orders are swapped in (its window starting at `windowFromMs`): the rows set
 * apart go with them, unless staged anew; so do the rows leaving the window with items to ship (placed
 * before its new start and not staged: not updated since it, so as they are here). What was looked at
 * before the window reaches no later than its start now (a window moved back holds what it reads).
 */
export function carryOlderOpen(db: Db, windowFromMs: number | null): void {
  const columns = ORDER_COLUMNS.join(', ')
  db.exec(`DELETE FROM older_open_orders WHERE id IN (SELECT id FROM orders_staged);`)
  if (windowFromMs !== null) {
    const from = Math.floor(windowFromMs)
    db.exec(`
      INSERT OR IGNORE INTO older_open_orders (id)
        SELECT id FROM orders
        WHERE order_ms < ${from} AND (${OPEN_IN_COLUMN})
          AND id NOT IN (SELECT id FROM orders_staged);
      UPDATE older_open_check SET before_ms = ${from} WHERE before_ms > ${from};`)
  }
  db.exec(`
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
