/**
 * Where each row of a list response lies in its text, exactly as the marketplace sent it: the snapshot
 * stores rows as received, so it cuts the rows array of the (already parsed, so valid) response text
 * into its elements instead of serialising parsed rows again or having SQLite parse the text a second
 * time. The cut is told as positions, so the response crosses to the snapshot's thread as one text and
 * the rows are sliced where they are written.
 *
 * Strings are skipped with indexOf (they are most of the text); only the structure between them is
 * walked character by character.
 */

const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_BRACE = 0x7b
const CLOSE_BRACE = 0x7d
const OPEN_BRACKET = 0x5b
const CLOSE_BRACKET = 0x5d
const COMMA = 0x2c
const COLON = 0x3a

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09

function skipSpace(text: string, i: number): number {
  while (i < text.length && isSpace(text.charCodeAt(i))) i++
  return i
}

/** `i` at an opening quote → just after the closing one. */
function skipString(text: string, i: number): number {
  for (let from = i + 1; ;) {
    const end = text.indexOf('"', from)
    if (end < 0) throw new SyntaxError('unterminated string')
    let slashes = 0
    while (text.charCodeAt(end - 1 - slashes) === BACKSLASH) slashes++
    if (slashes % 2 === 0) return end + 1
    from = end + 1
  }
}

/** `i` at the start of a value → just after it. */
function skipValue(text: string, i: number): number {
  const first = text.charCodeAt(i)
  if (first === QUOTE) return skipString(text, i)
  if (first === OPEN_BRACE || first === OPEN_BRACKET) {
    let depth = 0
    while (i < text.length) {
      const c = text.charCodeAt(i)
      if (c === QUOTE) {
        i = skipString(text, i)
        continue
      }
      if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++
      else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        depth--
        if (depth === 0) return i + 1
      }
      i++
    }
    throw new SyntaxError('unterminated value')
  }
  // A number, true, false or null: up to the next delimiter.
  while (i < text.length) {
    const c = text.charCodeAt(i)
    if (c === COMMA || c === CLOSE_BRACE || c === CLOSE_BRACKET || isSpace(c)) break
    i++
  }
  return i
}

/**
 * `i` at an array's `[` → where each element starts and ends (start, end, start, end, …), and where the
 * array ends; null when it is not well formed.
 */
function elements(text: string, i: number): [number[], number] | null {
  const bounds: number[] = []
  i = skipSpace(text, i + 1)
  if (text.charCodeAt(i) === CLOSE_BRACKET) return [bounds, i + 1]
  for (;;) {
    bounds.push(i)
    i = skipValue(text, i)
    bounds.push(i)
    i = skipSpace(text, i)
    const c = text.charCodeAt(i)
    if (c === CLOSE_BRACKET) return [bounds, i + 1]
    if (c !== COMMA) return null
    i = skipSpace(text, i + 1)
  }
}

/**
 * `i` at the start of a value → where the elements of the array at `keys` below it lie (null when the
 * keys do not lead to one), and where the value ends. Each member is walked once: the rows are cut while the
 * array is skipped, and a member name repeated later replaces them (the last one, as JSON.parse keeps).
 */
function walk(text: string, i: number, keys: readonly string[], depth: number): [number[] | null, number] {
  const first = text.charCodeAt(i)
  if (depth === keys.length) {
    if (first !== OPEN_BRACKET) return [null, skipValue(text, i)]
    const cut = elements(text, i)
    if (!cut) throw new SyntaxError('expected a comma')
    return cut
  }
  if (first !== OPEN_BRACE) return [null, skipValue(text, i)]
  let found: number[] | null = null
  i = skipSpace(text, i + 1)
  if (text.charCodeAt(i) === CLOSE_BRACE) return [null, i + 1]
  for (;;) {
    if (text.charCodeAt(i) !== QUOTE) throw new SyntaxError('expected a member name')
    const keyEnd = skipString(text, i)
    const raw = text.slice(i + 1, keyEnd - 1)
    const name = raw.includes('\\') ? (JSON.parse(text.slice(i, keyEnd)) as string) : raw
    i = skipSpace(text, keyEnd)
    if (text.charCodeAt(i) !== COLON) throw new SyntaxError('expected a colon')
    i = skipSpace(text, i + 1)
    if (name === keys[depth]) [found, i] = walk(text, i, keys, depth + 1)
    else i = skipValue(text, i)
    i = skipSpace(text, i)
    const c = text.charCodeAt(i)
    if (c === CLOSE_BRACE) return [found, i + 1]
    if (c !== COMMA) throw new SyntaxError('expected a comma')
    i = skipSpace(text, i + 1)
  }
}

/**
 * Where each element of the array at `path` (`$`, `$.data`, `$.data.data`: member names only) lies in
 * the JSON `text`: element i is `text.slice(bounds[2 * i], bounds[2 * i + 1])`. Null when the path does
 * not lead to an array. The text must be valid JSON.
 */
export function rowBounds(text: string, path: string): number[] | null {
  if (!/^\$(\.[A-Za-z_][A-Za-z0-9_]*)*$/.test(path)) return null
  try {
    return walk(text, skipSpace(text, 0), path.split('.').slice(1), 0)[0]
  } catch {
    return null
  }
}
