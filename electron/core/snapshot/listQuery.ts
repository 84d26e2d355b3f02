/** Shared pieces of the list queries: search patterns and text, and how a page and its total are read. */
import { scalar, type Db } from './database'

/**
 * A seller's search text → a SQL LIKE pattern matching it anywhere (`%`, `_` and `\` taken literally).
 * In composed form (NFC), as searchText stores: "é" typed as one character or as "e" and an accent matches either.
 */
export function containsPattern(term: string): string {
  return `%${searchNeedle(term).replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

/** A seller's search text as a search text (searchText) holds it: trimmed, in lower case, composed. */
export const searchNeedle = (term: string) => term.trim().toLowerCase().normalize('NFC')

/**
 * The text a row is searched by: lowercased, parts joined with a separator no search spans, and in
 * composed form (NFC), so text the marketplace sent decomposed ("Cafe" and a combining accent) is found
 * by the composed "café" a seller types (containsPattern composes it too). Rows stored before rows
 * were composed keep their old text until they are written again (a full sync writes every row).
 */
export function searchText(parts: readonly (string | null | undefined)[]): string {
  let text = ''
  for (const part of parts) if (part) text = text === '' ? part : `${text}\u0001${part}`
  return text.toLowerCase().normalize('NFC')
}

/**
 * The number of matching rows, counted only when the page cannot tell: a page that is not full ends
 * the list, so its offset plus its length is the total (a narrow search then costs one scan, not two).
 */
function pageTotal(query: { page: number; take: number }, rowsOnPage: number, count: () => number): number {
  const offset = (query.page - 1) * query.take
  if (rowsOnPage > 0 && rowsOnPage < query.take) return offset + rowsOnPage
  if (rowsOnPage === 0 && offset === 0) return 0
  return count()
}

/**
 * Where a page of a list is read from, when the list's total is known (counted first): past the middle,
 * from the other end, so a late page skips the rows after it rather than every row before it (a
 * filtered list skips by walking its sort index and reading each row skipped). The rows are then read
 * in `dir`, the list's direction reversed, and come in that order: `reversed` says to turn them back.
 */
function pageWindow(
  query: { page: number; take: number; sortDir: 'ASC' | 'DESC' },
  total: number | null
): { dir: 'ASC' | 'DESC'; reversed: boolean; limit: number; offset: number } {
  const offset = (query.page - 1) * query.take
  const dir = query.sortDir === 'ASC' ? 'ASC' : 'DESC'
  if (total === null || offset <= total / 2) return { dir, reversed: false, limit: query.take, offset }
  return {
    dir: dir === 'ASC' ? 'DESC' : 'ASC',
    reversed: true,
    limit: Math.max(0, Math.min(query.take, total - offset)),
    offset: Math.max(0, total - offset - query.take)
  }
}

/**
 * Above this many matches a filtered list walks the sort index (the page fills early); at or below it,
 * it reads the narrow table once and sorts the matches.
 */
const WALK_THRESHOLD = 2_000

/** A list's page to read: its narrow table and its documents, filter and sort. */
export interface ListRead {
  /** The narrow table, the alias its filter uses, and the table of its documents (`id`, `json`). */
  table: string
  as: string
  docs: string
  /** `WHERE …` over the alias (or empty) and its parameters. */
  whereSql: string
  params: readonly unknown[]
  sortColumn: string
  /** ` COLLATE NOCASE` or empty: the sort column's collation, as its index has it. */
  collate: string
  /**
   * The filter narrows rows the sort index cannot skip (a search, statuses; not a range of the sorted
   * column): the rows it matches are counted first and the plan chosen by their number.
   */
  filtered: boolean
  /**
   * The filter matches text (a search): matching is most of a pass's cost, so the page comes first,
   * from one pass over the table (its sort keeps only the rows up to the page), and a count only when
   * the page cannot tell the total: a search that fits on its first page costs one pass.
   */
  searched: boolean
  /** How many rows the filter matches, when the caller has counted them already: not counted again. */
  total?: number
}

/** A page of a list: its documents in the list's order, and how many rows the list holds. */
export function readPage(db: Db, list: ListRead, query: { page: number; take: number; sortDir: 'ASC' | 'DESC' }): { total: number; docs: string[] } {
  const { table, as: t, docs, whereSql, params, sortColumn, collate } = list
  const count = () => scalar<number>(db, `SELECT COUNT(*) FROM ${table} ${t} ${whereSql}`, ...params) ?? 0
  /** The page's ids and sort keys, read in `dir`, joined to their documents. */
  const pageSql = (inner: string, dir: 'ASC' | 'DESC') =>
    `SELECT d.json FROM (${inner} ORDER BY ${t}.${sortColumn}${collate} ${dir}, ${t}.id ${dir} LIMIT ? OFFSET ?) AS p
     JOIN ${docs} d ON d.id = p.id ORDER BY p.k${collate} ${dir}, p.id ${dir}`
  // A search reads its page in one pass over the narrow table first (matching is the pass's cost).
  // Other filters count first (one pass). Few matches: one more pass over the narrow table and a sort
  // beats walking the sort index and fetching rows one by one; many: the walk stops early. A list that is
  // not `filtered` (a range of dates) is read as SQLite plans it, counted or not.
  const search = list.filtered && list.searched
  const known = list.total ?? (list.filtered && !search ? count() : null)
  const scan = search || (list.filtered && known !== null && known <= WALK_THRESHOLD) ? 'NOT INDEXED' : ''
  // The direction the page is read in (the list's, or past the middle the other).
  const window = pageWindow(query, known)
  const rows = db
    .prepare(pageSql(`SELECT ${t}.id, ${t}.${sortColumn} AS k FROM ${table} ${t} ${scan} ${whereSql}`, window.dir))
    .raw()
    .all(...params, window.limit, window.offset) as [string][]
  if (window.reversed) rows.reverse()
  return { total: known ?? pageTotal(query, rows.length, count), docs: rows.map(([json]) => json) }
}
