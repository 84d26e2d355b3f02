/**
 * The staging twins a full sync fills (see migrations.ts), for both resources: cleared at the start of
 * a run, swapped in by renaming at its end (inside the caller's transaction).
 *
 * A twin has no indexes while pages are staged (each page then only appends), and gets the live
 * table's indexes one at a time once the pass has read everything (indexStagedStep), each a step of
 * its own so the core answers other calls between them; the swap itself is then a rename. Twin and
 * live indexes trade names at each swap (`orders_id` ↔ `orders_id__next`).
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
  const rows = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL ORDER BY name").raw().all(table) as [
    string,
    string
  ][]
  return rows.map(([name, sql]) => ({ name, sql }))
}

/** The statements that give `table`'s twin the indexes of `table` it lacks. */
function missingTwinIndexes(db: Db, table: string): string[] {
  const twin = twinOf(table)
  const has = new Set(indexesOf(db, twin).map((index) => index.name))
  return indexesOf(db, table)
    .filter((index) => !has.has(twinIndexName(index.name)))
    .map(({ name, sql }) => {
      const head = INDEX_SQL.exec(sql)
      if (!head) throw new Error(`cannot read the index ${name}`)
      return `CREATE ${head[1] ?? ''}INDEX ${twinIndexName(name)} ON ${twin}(${sql.slice(head[0].length)}`
    })
}

function createTwinIndex(db: Db, table: string, sql: string): void {
  try {
    db.exec(sql)
  } catch (error) {
    if (!/UNIQUE/i.test(String(error))) throw error
    // A row fetched twice (pages shift while a sync runs): the later copy wins. (A failed statement
    // undoes only itself; the transaction goes on.)
    const twin = twinOf(table)
    db.exec(`DELETE FROM ${twin} WHERE rowid NOT IN (SELECT MAX(rowid) FROM ${twin} GROUP BY id)`)
    db.exec(sql)
  }
}

/** Empties the twins, without indexes, for a new run to append to. */
export function clearStaged(db: Db, resource: Resource): void {
  for (const table of TABLES[resource]) {
    const twin = twinOf(table)
    for (const { name } of indexesOf(db, twin)) db.exec(`DROP INDEX ${name}`)
    db.exec(`DELETE FROM ${twin}`)
  }
}

/** Gives the twins one more of the live tables' indexes; true once they carry them all. */
export function indexStagedStep(db: Db, resource: Resource): boolean {
  for (const table of TABLES[resource]) {
    const [next] = missingTwinIndexes(db, table)
    if (next) {
      createTwinIndex(db, table, next)
      return false
    }
  }
  return true
}

/** Replaces the live tables with the staged ones (indexing what indexStagedStep has not), and starts new, empty twins. */
export function promoteStaged(db: Db, resource: Resource): void {
  while (!indexStagedStep(db, resource));
  for (const table of TABLES[resource]) {
    const twin = twinOf(table)
    db.exec(`DROP TABLE ${table}; ALTER TABLE ${twin} RENAME TO ${table};`)
    const created = scalar<string>(db, "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", table)
    const head = created ? TABLE_SQL.exec(created) : null
    if (!created || !head) throw new Error(`cannot read the table ${table}`)
    db.exec(`CREATE TABLE ${twin}${created.slice(head[0].length)}`)
  }
}
