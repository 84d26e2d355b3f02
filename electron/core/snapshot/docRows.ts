/**
 * A page's documents as a write: each row's text as received. A list answer read a row at a time
 * (sellerApi/listRows.ts) brings its bytes and where each row lies in them (database.ts's
 * DocBytesWrite); a response text is cut (rowBounds) into parts of at most PART_CHARS (DocRowsWrite).
 *
 * The parts keep every string that crosses to the snapshot's thread below V8's large-object size
 * (128 KiB): a larger one is given memory of its own, mapped when it arrives and unmapped once it is
 * collected, and touching freshly mapped memory page by page costs far more than copying the text. A
 * page of 100 orders is larger than that as one text.
 */
import type { WireBytes, WireRows } from '../sellerApi'
import type { DocBytesWrite, DocRowsWrite, RowWrite } from './database'
import { rowBounds } from './rowBounds'

/** The most characters a part holds (two bytes each at worst), unless one row alone is longer. */
const PART_CHARS = 32_768

const DOC_COLUMNS: readonly [string, string] = ['id', 'json']

/** `bounds` (rowBounds: start, end, start, end, …) in `text` → the parts of `text` that hold them, bounds rebased. */
function partsOf(text: string, bounds: readonly number[]): DocRowsWrite['parts'] {
  const parts: { text: string; bounds: number[] }[] = []
  for (let first = 0; first < bounds.length;) {
    const start = bounds[first]!
    let end = first + 2
    while (end < bounds.length && bounds[end + 1]! - start <= PART_CHARS) end += 2
    parts.push({ text: text.slice(start, bounds[end - 1]), bounds: bounds.slice(first, end).map((at) => at - start) })
    first = end
  }
  return parts
}

/**
 * The documents of a page: each row's text as received, where the client found it reading a row at a
 * time, or cut from the response (rowBounds); SQLite unpacks the rows itself only if they cannot be
 * cut as expected.
 */
export function docWrite(table: string, rows: readonly { id: string }[], wire: WireRows): RowWrite {
  if ('bytes' in wire)
    return wire.bounds.length === 2 * rows.length
      ? { insert: table, columns: DOC_COLUMNS, keys: rows.map((row) => row.id), bytes: wire.bytes, bounds: wire.bounds }
      : { run: `INSERT OR REPLACE INTO ${table} (id, json) SELECT value->>'$.id', value FROM json_each(?)`, params: [rowsText(wire)] }
  const bounds = rowBounds(wire.json, wire.path)
  return bounds && bounds.length === 2 * rows.length
    ? { insert: table, columns: DOC_COLUMNS, keys: rows.map((row) => row.id), parts: partsOf(wire.json, bounds) }
    : { run: `INSERT OR REPLACE INTO ${table} (id, json) SELECT value->>'$.id', value FROM json_each(?, ?)`, params: [wire.json, wire.path] }
}

/** The rows of an answer read a row at a time, as one JSON array of their texts as received. */
export function rowsText({ bytes, bounds }: WireBytes): string {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const rows: string[] = []
  for (let j = 0; j < bounds.length; j += 2) rows.push(buffer.toString('utf8', bounds[j], bounds[j + 1]))
  return `[${rows.join(',')}]`
}

/** The same documents, of only the rows at these places in the page (ascending). */
export function docBytesAt(write: DocBytesWrite, places: readonly number[]): DocBytesWrite {
  return { ...write, keys: places.map((place) => write.keys[place]!), bounds: places.flatMap((place) => write.bounds.slice(2 * place, 2 * place + 2)) }
}

/** The same documents, of only the rows at these places in the page (ascending). */
export function docRowsAt(write: DocRowsWrite, places: readonly number[]): DocRowsWrite {
  const parts: { text: string; bounds: number[] }[] = []
  let first = 0
  for (const part of write.parts) {
    const rows = part.bounds.length / 2
    const bounds = places
      .filter((place) => place >= first && place < first + rows)
      .flatMap((place) => part.bounds.slice(2 * (place - first), 2 * (place - first) + 2))
    if (bounds.length > 0) parts.push({ text: part.text, bounds })
    first += rows
  }
  return { ...write, keys: places.map((place) => write.keys[place]!), parts }
}
