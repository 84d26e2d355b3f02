/**
 * A page's documents as a write: each row's text as received, as UTF-8 bytes and where each row lies in
 * them (database.ts's DocBytesWrite). A list answer read a row at a time (sellerApi/listRows.ts) brings
 * its bytes and bounds; a response text is encoded once and cut by the same walk (listRows.ts rowBounds).
 *
 * Bytes cross to the snapshot's thread transferred, and the thread makes a text per row of them
 * (snapshotThread.ts), so no string that crosses is above V8's large-object size (128 KiB): a larger one
 * is given memory of its own, mapped when it arrives and unmapped once it is collected, and touching
 * freshly mapped memory page by page costs far more than copying the text. A page of 100 orders is
 * larger than that as one text.
 */
import type { WireBytes, WireRows } from '../sellerApi'
import { rowBounds } from '../sellerApi/listRows'
import type { DocBytesWrite, RowWrite } from './database'

const DOC_COLUMNS: readonly [string, string] = ['id', 'json']

/**
 * The documents of a page: each row's text as received, where the client found it reading a row at a
 * time, or cut from the response's text encoded as UTF-8; SQLite unpacks the rows itself only if they
 * cannot be cut as expected.
 */
export function docWrite(table: string, rows: readonly { id: string }[], wire: WireRows): RowWrite {
  if ('bytes' in wire)
    return wire.bounds.length === 2 * rows.length
      ? { insert: table, columns: DOC_COLUMNS, keys: rows.map((row) => row.id), bytes: wire.bytes, bounds: wire.bounds }
      : { run: `INSERT OR REPLACE INTO ${table} (id, json) SELECT value->>'$.id', value FROM json_each(?)`, params: [rowsText(wire)] }
  const bytes = Buffer.from(wire.json, 'utf8')
  const bounds = rowBounds(bytes, wire.path)
  return bounds && bounds.length === 2 * rows.length
    ? { insert: table, columns: DOC_COLUMNS, keys: rows.map((row) => row.id), bytes, bounds }
    : { run: `INSERT OR REPLACE INTO ${table} (id, json) SELECT value->>'$.id', value FROM json_each(?, ?)`, params: [wire.json, wire.path] }
}

/** The rows of an answer read a row at a time, as one JSON array of their texts as received. */
export function rowsText({ bytes, bounds }: WireBytes): string {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const rows: string[] = []
  for (let j = 0; j < bounds.length; j += 2) rows.push(buffer.toString('utf8', bounds[j], bounds[j + 1]))
  return `[${rows.join(',')}]`
}

/**
 * A page's rows as received, of only the rows at `places` (ascending) of its `rows`: cut as docWrite cuts
 * them. A page that cannot be cut so (it never happens with an answer that was read) is an error.
 */
export function wireRowsAt(wire: WireRows, places: readonly number[], rows: number): WireBytes {
  const bytes = 'bytes' in wire ? wire.bytes : Buffer.from(wire.json, 'utf8')
  const bounds = 'bytes' in wire ? wire.bounds : rowBounds(bytes, wire.path)
  if (!bounds || bounds.length !== 2 * rows) throw new Error('The rows of a page could not be told apart in its answer.')
  return { bytes, bounds: places.flatMap((place) => [bounds[2 * place]!, bounds[2 * place + 1]!]) }
}

/** The same documents, of only the rows at these places in the page (ascending). */
export function docBytesAt(write: DocBytesWrite, places: readonly number[]): DocBytesWrite {
  return { ...write, keys: places.map((place) => write.keys[place]!), bounds: places.flatMap((place) => write.bounds.slice(2 * place, 2 * place + 2)) }
}

/** The text of the document at `place` in a page's documents as written; null when the page could not be cut into rows. */
export function docText(write: RowWrite, place: number): string | null {
  if (!('bytes' in write)) return null
  const { bytes, bounds } = write
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8', bounds[2 * place], bounds[2 * place + 1])
}
