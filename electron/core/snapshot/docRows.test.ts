import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openDatabase, writeRows, type DocBytesWrite } from './database'
import { docBytesAt, docWrite } from './docRows'

/** Each row of the write as [key, text], in order. */
const rowsOf = (write: DocBytesWrite): [string, string][] =>
  write.keys.map((key, j) => [key, Buffer.from(write.bytes.subarray(write.bounds[2 * j], write.bounds[2 * j + 1])).toString('utf8')])

describe('docWrite of a response text', () => {
  // 60 rows of about 1,500 characters (some two-byte), 7,000 for one: a page of 90,000 characters.
  const rows = Array.from({ length: 60 }, (_, i) => ({ id: `r${i}`, name: `${i % 7 === 0 ? 'Café 😀 ' : ''}${'x'.repeat(i === 30 ? 7_000 : 1_500)}` }))
  const json = JSON.stringify({ total: '60', data: rows })

  it('holds a large page as its bytes (which cross to the thread transferred, not as one large text), each row as sent', () => {
    const write = docWrite('order_docs', rows, { json, path: '$.data' }) as DocBytesWrite
    expect(write.bytes).toBeInstanceOf(Uint8Array)
    expect(rowsOf(write)).toEqual(rows.map((row) => [row.id, JSON.stringify(row)]))
  })

  it('keeps the rows at given places', () => {
    const write = docWrite('order_docs', rows, { json, path: '$.data' }) as DocBytesWrite
    const places = [0, 21, 22, 30, 59]
    expect(rowsOf(docBytesAt(write, places))).toEqual(places.map((i) => [rows[i]!.id, JSON.stringify(rows[i])]))
    expect(rowsOf(docBytesAt(write, []))).toEqual([])
  })

  it('a small page at the path $', () => {
    const small = rows.slice(0, 3)
    const write = docWrite('order_docs', small, { json: JSON.stringify(small), path: '$' }) as DocBytesWrite
    expect(rowsOf(write)).toEqual(small.map((row) => [row.id, JSON.stringify(row)]))
  })

  it('rows that do not match the page are unpacked by SQLite from the text, at its path', () => {
    expect(docWrite('order_docs', rows.slice(0, 2), { json, path: '$.data' })).toMatchObject({ params: [json, '$.data'] })
  })
})

describe('documents from the bytes of an answer read a row at a time', () => {
  const rows = [
    { id: 'a', name: 'Café 😀 "quoted"' },
    { id: 'b', name: 'x'.repeat(3_000) },
    { id: 'c', n: 1.5 }
  ]
  const text = `{"total":3,"data":[${rows.map((row) => JSON.stringify(row)).join(' , ')}]}`
  const bytes = new Uint8Array(Buffer.from(text, 'utf8'))
  const bounds = rows.flatMap((row) => {
    const start = Buffer.byteLength(text.slice(0, text.indexOf(JSON.stringify(row))), 'utf8')
    return [start, start + Buffer.byteLength(JSON.stringify(row), 'utf8')]
  })

  it('stores each row as text, exactly as sent, and keeps the rows at given places', () => {
    const db = openDatabase(join(mkdtempSync(join(tmpdir(), 'seller-desk-doc-bytes-')), 'snapshot.sqlite')).db
    try {
      const write = docWrite('order_docs', rows, { bytes, bounds }) as DocBytesWrite
      writeRows(db, [write])
      const stored = () => db.prepare('SELECT id, typeof(json), json FROM order_docs ORDER BY id').raw().all() as [string, string, string][]
      expect(stored()).toEqual(rows.map((row) => [row.id, 'text', JSON.stringify(row)]))
      db.exec('DELETE FROM order_docs')
      writeRows(db, [docBytesAt(write, [0, 2])])
      expect(stored()).toEqual([rows[0]!, rows[2]!].map((row) => [row.id, 'text', JSON.stringify(row)]))
    } finally {
      db.close()
    }
  })

  it('rows that do not match the page are unpacked by SQLite, each as sent', () => {
    const write = docWrite('order_docs', rows.slice(0, 2), { bytes, bounds })
    expect(write).toMatchObject({ params: [`[${rows.map((row) => JSON.stringify(row)).join(',')}]`] })
  })
})
