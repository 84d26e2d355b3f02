/**
 * The staging twins a full sync fills (see migrations.ts), for both resources: emptied before a run,
 * swapped in by renaming at its end (inside the caller's transaction).
 *
 * A twin has no indexes while pages are staged (each page then only appends). Once the pass has read
 * everything it gets the live table's indexes (indexStagedSteps), and after the swap the old rows,
 * now the twin's, are dropped (clearStagedSteps). Both are statements over every row that cannot be
 * cut into parts, so the snapshot's own thread runs them (snapshotThread.ts) while the core keeps
 * answering; the swap itself is three renames. Twin and live indexes trade names at each
 * swap (`orders_id` ↔ `orders_id__next`).
 */
import type { Db, RowWrite } from './database'
import type { ThreadStep } from './snapshotThread'
import type { Resource } from './syncBookkeeping'

const TABLES: Record<Resource, readonly string[]> = {
  orders: ['orders', 'order_docs'],
  sellRequests: ['sell_requests', 'sell_request_docs']
}

const twinOf = (table: string) => `${table}_staged`
const twinIndexName = (name: string) => (name.endsWith('__next') ? name.slice(0, -'__next'.length) : `${name}__next`)

const INDEX_SQL = /^CREATE (UNIQUE )?INDEX ("?\w+"?) ON ("?\w+"?)\s*\(/i

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
      return `CREATE ${head[1] ?? ''}INDEX IF NOT EXISTS ${twinIndexName(name)} ON ${twin}(${sql.slice(head[0].length)}`
    })
}

/**
 * A row fetched twice (pages shift while a sync runs) fails a UNIQUE index: the later copy wins. (A
 * failed statement undoes only itself.)
 */
const keepLaterCopies = (twin: string) => `DELETE FROM ${twin} WHERE rowid NOT IN (SELECT MAX(rowid) FROM ${twin} GROUP BY id)`

/** The statements that give the twins every index of the live tables they lack, one per index. */
export function indexStagedSteps(db: Db, resource: Resource): ThreadStep[] {
  return TABLES[resource].flatMap((table) => missingTwinIndexes(db, table).map((sql) => ({ exec: sql, onUnique: keepLaterCopies(twinOf(table)) })))
}

/** The statements that empty the twins and drop their indexes. */
export function clearStagedSteps(db: Db, resource: Resource): ThreadStep[] {
  return TABLES[resource].flatMap((table) => {
    const twin = twinOf(table)
    return [...indexesOf(db, twin).map(({ name }) => ({ exec: `DROP INDEX IF EXISTS ${name}` })), { exec: `DELETE FROM ${twin}` }]
  })
}

/**
 * Whether the twins hold rows: only then is emptying them long work for the snapshot's thread. They
 * are empty in a new snapshot and after every committed run (clearStagedSteps), and dropping the
 * indexes of an empty table is quick wherever it runs.
 */
export function stagedHoldsRows(db: Db, resource: Resource): boolean {
  return TABLES[resource].some(
    (table) =>
      db
        .prepare(`SELECT 1 FROM ${twinOf(table)} LIMIT 1`)
        .raw()
        .get() !== undefined
  )
}

/** Empties the twins and drops their indexes here (cheap once clearStagedSteps has run). */
export function clearStaged(db: Db, resource: Resource): void {
  for (const step of clearStagedSteps(db, resource)) if ('exec' in step) db.exec(step.exec)
}

/** The query that counts the rows a pass staged (each once, after indexStagedSteps). */
export const stagedCountSql = (resource: Resource): string => `SELECT COUNT(*) FROM ${twinOf(TABLES[resource][0]!)}`

const columnsOf = (db: Db, table: string): string =>
  (db.prepare(`SELECT name FROM pragma_table_info('${table}')`).raw().all() as [string][]).map(([name]) => name).join(', ')

/**
 * The writes that stage again the rows held that `where` picks (an SQL condition on the live rows, with
 * `params`), with their documents, none staged already: the swap then keeps them. A row read whole later
 * in the run wins over its copy (keepLaterCopies).
 */
export function heldCopyWrites(db: Db, resource: Resource, where: string, params: readonly unknown[] = []): RowWrite[] {
  const [rows, docs] = TABLES[resource] as [string, string]
  const columns = columnsOf(db, rows)
  return [
    { run: `INSERT INTO ${twinOf(rows)} (${columns}) SELECT ${columns} FROM ${rows} WHERE id NOT IN (SELECT id FROM ${twinOf(rows)}) AND (${where})`, params },
    {
      run: `INSERT INTO ${twinOf(docs)} (id, json) SELECT id, json FROM ${docs} WHERE id IN (SELECT id FROM ${twinOf(rows)}) AND id NOT IN (SELECT id FROM ${twinOf(docs)})`,
      params: []
    }
  ]
}

/** Listings held that the caller knows are gone unless read: those of `ids` changed after `updatedAfterMs`. */
export interface GoneListings {
  ids: readonly string[]
  updatedAfterMs: number
}

/**
 * Stages again the rows held that the pass did not read (orders: those placed from `fromMs` on, the
 * window it read), but for listings `gone`, so the swap keeps them; answers their ids. For a pass that
 * read fewer rows than its list holds: a row held and not read then may be a row it missed as well as one
 * deleted, and dropping it would lose what the seller had.
 */
export function carryUnread(db: Db, resource: Resource, fromMs: number | null, gone?: GoneListings): string[] {
  const inWindow = resource === 'orders' && fromMs !== null ? `order_ms >= ${Math.floor(fromMs)}` : '1'
  const [where, params] =
    resource === 'sellRequests' && gone
      ? [`${inWindow} AND NOT (id IN (SELECT value FROM json_each(?)) AND updated_ms > ?)`, [JSON.stringify(gone.ids), gone.updatedAfterMs]]
      : [inWindow, []]
  const [rows, docs] = heldCopyWrites(db, resource, where, params) as [RowWrite & { run: string; params: readonly unknown[] }, RowWrite & { run: string }]
  const kept = (
    db
      .prepare(`${rows.run} RETURNING id`)
      .raw()
      .all(...rows.params) as [string][]
  ).map(([id]) => id)
  if (kept.length > 0) db.exec(docs.run)
  return kept
}

/**
 * Swaps the staged rows in: the twins become the live tables and the live tables the twins (which
 * then hold the old rows until clearStagedSteps). Indexes the twins lack are built here first.
 */
export function promoteStaged(db: Db, resource: Resource): void {
  for (const table of TABLES[resource]) {
    const twin = twinOf(table)
    for (const sql of missingTwinIndexes(db, table)) {
      try {
        db.exec(sql)
      } catch (error) {
        if (!/UNIQUE/i.test(String(error))) throw error
        db.exec(keepLaterCopies(twin))
        db.exec(sql)
      }
    }
    db.exec(`ALTER TABLE ${table} RENAME TO ${table}_retired; ALTER TABLE ${twin} RENAME TO ${table}; ALTER TABLE ${table}_retired RENAME TO ${twin};`)
  }
}
