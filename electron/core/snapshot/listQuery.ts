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
 * Above this many matches a filtered list walks the sort index (the page fills early); at or below it,
 * it reads the narrow table once and sorts the matches.
 */
export const WALK_THRESHOLD = 2_000
