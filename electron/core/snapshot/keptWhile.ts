/**
 * A read over every row (a version, the filters' choices) kept while what it depends on stays the same:
 * `key` names that (the generations of the rows it reads, and its argument), compared part by part; a
 * read with another key works it out again.
 */
export function keptWhile<T, A = void>(key: (arg: A) => readonly unknown[], read: (arg: A) => T): (arg: A) => T {
  let kept: { key: readonly unknown[]; value: T } | null = null
  return (arg) => {
    const now = key(arg)
    if (kept === null || now.length !== kept.key.length || now.some((part, i) => part !== kept!.key[i])) kept = { key: now, value: read(arg) }
    return kept.value
  }
}
