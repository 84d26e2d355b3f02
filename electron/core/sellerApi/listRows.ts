/**
 * A list answer read a row at a time, from its bytes: where each element of the rows array lies is
 * found in the bytes, each row is decoded and parsed on its own, and the rest of the answer (with an
 * empty array where the rows were) is parsed once; the rows are then put back where they were.
 *
 * A page of orders decoded as one text is a string above V8's large-object size, which V8 gives
 * memory of its own, mapped for it and unmapped once it is collected: touching
 * freshly mapped memory page by page costs far more than decoding and parsing the text. Rows of a few
 * KB each stay in the young generation's memory, already mapped, and are garbage once parsed: the
 * snapshot stores each row's bytes as received, from where this found them.
 *
 * The result is what JSON.parse of the whole decoded text gives: a body that is not valid JSON is
 * refused by the part that holds the fault (the walk below lets only commas and spaces between rows),
 * and a member named twice keeps its last value, here as in JSON.parse.
 */
import { allSteps, stepsInTurns, stepStartsAt, type Pause, type Steps } from '../eventLoopTurns'

const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_BRACE = 0x7b
const CLOSE_BRACE = 0x7d
const OPEN_BRACKET = 0x5b
const CLOSE_BRACKET = 0x5d
const COMMA = 0x2c
const COLON = 0x3a

const isSpace = (c: number | undefined) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09

function skipSpace(bytes: Uint8Array, i: number): number {
  while (i < bytes.length && isSpace(bytes[i])) i++
  return i
}

/**
 * `i` at an opening quote → just after the closing one. A byte of a character encoded in several
 * bytes is never a quote or a backslash (UTF-8), so the bytes are walked as they are.
 */
function skipString(bytes: Uint8Array, i: number): number {
  for (let j = i + 1; j < bytes.length; j++) {
    const c = bytes[j]
    if (c === QUOTE) return j + 1
    if (c === BACKSLASH) j++
  }
  throw new SyntaxError('unterminated string')
}

/** `i` at the start of a value → just after it. */
function skipValue(bytes: Uint8Array, i: number): number {
  const first = bytes[i]
  if (first === QUOTE) return skipString(bytes, i)
  if (first === OPEN_BRACE || first === OPEN_BRACKET) {
    let depth = 0
    while (i < bytes.length) {
      const c = bytes[i]
      if (c === QUOTE) {
        i = skipString(bytes, i)
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
  while (i < bytes.length) {
    const c = bytes[i]!
    if (c === COMMA || c === CLOSE_BRACE || c === CLOSE_BRACKET || isSpace(c)) break
    i++
  }
  return i
}

/** Where the rows array lies (its `[` and just after its `]`), and where each of its elements starts and ends. */
interface Cut {
  open: number
  close: number
  bounds: number[]
}

/**
 * `i` at an array's `[` → its elements; null when what lies between them is not commas and spaces.
 * Steps (see readRows): it yields before every ROWS_PER_STEP-th element.
 */
function* elements(bytes: Uint8Array, open: number): Steps<Cut | null> {
  const bounds: number[] = []
  let i = skipSpace(bytes, open + 1)
  if (bytes[i] === CLOSE_BRACKET) return { open, close: i + 1, bounds }
  for (;;) {
    if (bounds.length > 0 && stepStartsAt(bounds.length / 2)) yield
    bounds.push(i)
    i = skipValue(bytes, i)
    bounds.push(i)
    i = skipSpace(bytes, i)
    const c = bytes[i]
    if (c === CLOSE_BRACKET) return { open, close: i + 1, bounds }
    if (c !== COMMA) return null
    i = skipSpace(bytes, i + 1)
  }
}

/**
 * `i` at the start of a value → the rows array at `keys` below it (null when the keys do not lead to
 * one), and where the value ends. A member named again later replaces what an earlier one led to.
 */
function* walk(bytes: Uint8Array, i: number, keys: readonly string[], depth: number): Steps<[Cut | null, number]> {
  const first = bytes[i]
  if (depth === keys.length) {
    if (first !== OPEN_BRACKET) return [null, skipValue(bytes, i)]
    const cut = yield* elements(bytes, i)
    if (!cut) throw new SyntaxError('expected a comma')
    return [cut, cut.close]
  }
  if (first !== OPEN_BRACE) return [null, skipValue(bytes, i)]
  let found: Cut | null = null
  i = skipSpace(bytes, i + 1)
  if (bytes[i] === CLOSE_BRACE) return [null, i + 1]
  for (;;) {
    if (bytes[i] !== QUOTE) throw new SyntaxError('expected a member name')
    const keyEnd = skipString(bytes, i)
    const name = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset + i, keyEnd - i).toString('utf8')) as string
    i = skipSpace(bytes, keyEnd)
    if (bytes[i] !== COLON) throw new SyntaxError('expected a colon')
    i = skipSpace(bytes, i + 1)
    if (name === keys[depth]) [found, i] = yield* walk(bytes, i, keys, depth + 1)
    else i = skipValue(bytes, i)
    i = skipSpace(bytes, i)
    const c = bytes[i]
    if (c === CLOSE_BRACE) return [found, i + 1]
    if (c !== COMMA) throw new SyntaxError('expected a comma')
    i = skipSpace(bytes, i + 1)
  }
}

/** The UTF-8 byte order mark, which a decoder drops (as fetch's text() does) before the JSON is read. */
const hasBom = (bytes: Uint8Array) => bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf

/**
 * The whole answer decoded, as fetch's `text()` gives it: UTF-8, a leading byte order mark dropped,
 * malformed bytes as U+FFFD.
 */
export function decodedText(bytes: Uint8Array): string {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  return buffer.toString('utf8', hasBom(bytes) ? 3 : 0)
}

/** A parsed answer and where each row lies in its bytes (start, end, start, end, …). */
export type ListRows = { body: unknown; bounds: number[] } | null

/**
 * The parsed answer and where each row lies in its bytes, read a row at a time (see the file comment):
 * `path` is where the rows array is (`$.data`, `$.data.data`: member names only). Null when the bytes
 * cannot be cut so (the path leads to no array, or they are not JSON): the caller then reads them whole.
 * Throws a SyntaxError when a part that was cut is not valid JSON.
 */
export const parseListRows = (bytes: Uint8Array, path: string): ListRows => allSteps(readRows(bytes, path))

/**
 * The same, read in steps with `pause` between them (a page's walk and its rows' parses grow with the
 * page: read at once, they are one long turn, which every call arriving meanwhile would wait for).
 */
export const parseListRowsInTurns = (bytes: Uint8Array, path: string, pause: Pause): Promise<ListRows> => stepsInTurns(readRows(bytes, path), pause)

/** parseListRows's steps: the walk to the rows, a step per ROWS_PER_STEP of them, then their parses likewise. */
function* readRows(bytes: Uint8Array, path: string): Steps<ListRows> {
  if (path === '$') return null // rows at the root: nothing else to parse, and no member to put them back in
  const cut = yield* cutAt(bytes, path)
  if (!cut) return null
  const keys = path.split('.').slice(1)
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const start = hasBom(bytes) ? 3 : 0
  const parsed: unknown[] = []
  yield
  for (let j = 0; j < cut.bounds.length; j += 2) {
    if (j > 0 && stepStartsAt(j / 2)) yield
    parsed.push(JSON.parse(buffer.toString('utf8', cut.bounds[j], cut.bounds[j + 1])))
  }
  const body = JSON.parse(`${buffer.toString('utf8', start, cut.open)}[]${buffer.toString('utf8', cut.close)}`) as Record<string, unknown>
  // The array the keys lead to in the parsed rest is the emptied one (the last member of each name): the rows go there.
  let holder = body
  for (const key of keys.slice(0, -1)) holder = holder[key] as Record<string, unknown>
  holder[keys[keys.length - 1]!] = parsed
  return { body, bounds: cut.bounds }
}

/**
 * Where each element of the array at `path` (`$`, `$.data`, `$.data.data`: member names only) lies in
 * JSON `bytes` (UTF-8): element i is `bytes` from `bounds[2i]` to `bounds[2i + 1]`. The same walk as
 * parseListRows's, for rows that came as a text (encoded once by the caller) rather than read a row at a
 * time. Null when the path does not lead to an array or the bytes are not well formed there.
 */
export function rowBounds(bytes: Uint8Array, path: string): number[] | null {
  return allSteps(cutAt(bytes, path))?.bounds ?? null
}

/** The rows array at `path` (`$` or member names only) and its elements; null when the bytes cannot be cut so there. */
function* cutAt(bytes: Uint8Array, path: string): Steps<Cut | null> {
  if (!/^\$(\.[A-Za-z_][A-Za-z0-9_]*)*$/.test(path)) return null
  try {
    return (yield* walk(bytes, skipSpace(bytes, hasBom(bytes) ? 3 : 0), path.split('.').slice(1), 0))[0]
  } catch {
    return null
  }
}
