/** Shared pieces of the list queries: search patterns and text, and page totals. */
/** A seller's search text → a SQL LIKE pattern matching it anywhere (`%`, `_` and `\` taken literally). */
export function containsPattern(term: string): string {
  return `%${term
    .trim()
    .toLowerCase()
    .replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

/** The text a row is searched by: lowercased, parts joined with a separator no search spans. */
export function searchText(parts: (string | null | undefined)[]): string {
  return parts
    .filter((p): p is string => Boolean(p))
    .join('\u0001')
    .toLowerCase()
}

/**
 * The number of matching rows, counted only when the page cannot tell: a page that is not full ends
 * the list, so its offset plus its length is the total (a narrow search then costs one scan, not two).
 */
export function pageTotal(query: { page: number; take: number }, rowsOnPage: number, count: () => number): number {
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
export function pageWindow(
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
export const WALK_THRESHOLD = 2_000
