/**
 * The staging twins a full sync fills (see migrations.ts), for both resources: cleared at the start of
 * a run, swapped in by renaming at its end (inside the caller's transaction).
 *
 * A twin carries the live table's indexes from the start of a run, so each staged page keeps them up
 * to date and the swap itself is a rename: building them at the swap would be one long statement over
 * every row, and nothing else the core answers could run meanwhile. The unique index on the id also
 * makes a row fetched twice (pages shift while a sync runs) replace its earlier copy as it is staged.
 * Twin and live indexes trade names at each swap (`orders_id` ↔ `orders_id__next`).
 */
import { scalar, type Db } from './database'
import type { Resource } from './syncBookkeeping'

const TABLES: Record<Resource, readonly string[]> = {
  orders: ['orders', 'order_docs'],
  sellRequests: ['sell_requests', 'sell_request_docs']
}

const twinOf = (table: string) => `${table}_staged`
const twinIndexName = (name: string) => (name.endsWith('__next') ? name.slice(0, -'__next'.length) : `${name}__next`)

const INDEX_SQL = /^CREATE (UNIQUE )?INDEX ("?\w+"?) ON ("?\w+"?)\s*\(/i
const TABLE_SQL = /^CREATE TABLE ("?\w+"?)/i

function indexesOf(db: Db, table: string): { name: string; sql: string }[] {
  const rows = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL ORDER BY name").raw().all(table) as [string, string][]
  return rows.map(([name, sql]) => ({ name, sql }))
}

/** Gives `table`'s twin each index of `table` it lacks. */
function indexTwin(db: Db, table: string): void {
  const twin = twinOf(table)
  const has = new Set(indexesOf(db, twin).map((index) => index.name))
  const missing = indexesOf(db, table).filter((index) => !has.has(twinIndexName(index.name)))
  const statements = missing.map(({ name, sql }) => {
    const head = INDEX_SQL.exec(sql)
    if (!head) throw new Error(`cannot read the index ${name}`)
    return `CREATE ${head[1] ?? ''}INDEX ${twinIndexName(name)} ON ${twin}(${sql.slice(head[0].length)}`
  })
  try {
    for (const sql of statements) db.exec(sql)
  } catch (error) {
    if (!/UNIQUE/i.test(String(error))) throw error
    // A twin staged without indexes (a run cut off under an older Seller Desk) may hold a row twice:
    // the later copy wins. (A failed statement undoes only itself; the transaction goes on.)
    db.exec(`DELETE FROM ${twin} WHERE rowid NOT IN (SELECT MAX(rowid) FROM ${twin} GROUP BY id)`)
    for (const sql of statements) db.exec(sql.replace(/^CREATE (UNIQUE )?INDEX /i, 'CREATE $1INDEX IF NOT EXISTS '))
  }
}

/** Empties the twins and makes sure they carry the live tables' indexes. */
export function clearStaged(db: Db, resource: Resource): void {
  for (const table of TABLES[resource]) {
    db.exec(`DELETE FROM ${twinOf(table)}`)
    indexTwin(db, table)
  }
}

/** Replaces the live tables with the staged ones, and starts new, empty twins. */
export function promoteStaged(db: Db, resource: Resource): void {
  for (const table of TABLES[resource]) {
    indexTwin(db, table)
    const twin = twinOf(table)
    db.exec(`DROP TABLE ${table}; ALTER TABLE ${twin} RENAME TO ${table};`)
    const created = scalar<string>(db, "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", table)
    const head = created ? TABLE_SQL.exec(created) : null
    if (!created || !head) throw new Error(`cannot read the table ${table}`)
    db.exec(`CREATE TABLE ${twin}${created.slice(head[0].length)}`)
    indexTwin(db, table)
  }
}
