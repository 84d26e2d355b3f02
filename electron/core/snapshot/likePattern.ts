/** A seller's search text → a SQL LIKE pattern matching it anywhere (`%`, `_` and `\` taken literally). */
export function containsPattern(term: string): string {
  return `%${term.trim().toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

/** The text a row is searched by: lowercased, parts joined with a separator no search spans. */
export function searchText(parts: (string | null | undefined)[]): string {
  return parts.filter((p): p is string => Boolean(p)).join('\u0001').toLowerCase()
}
