import { describe, expect, it } from 'vitest'
import type { DocRowsWrite } from './database'
import { docRowsAt, docWrite } from './docRows'

/** Each row of the write as [key, text], in order. */
const rowsOf = (write: DocRowsWrite): [string, string][] => {
  const rows: [string, string][] = []
  for (const { text, bounds } of write.parts)
    for (let j = 0; j < bounds.length; j += 2) rows.push([write.keys[rows.length]!, text.slice(bounds[j], bounds[j + 1])])
  return rows
}

describe('docWrite', () => {
  // 60 rows of about 1,500 characters (some two-byte), 7,000 for one: a page of 90,000 characters.
  const rows = Array.from({ length: 60 }, (_, i) => ({ id: `r${i}`, name: `${i % 7 === 0 ? 'Café 😀 ' : ''}${'x'.repeat(i === 30 ? 7_000 : 1_500)}` }))
  const json = JSON.stringify({ total: '60', data: rows })

  it('cuts a large page into parts of at most 32,768 characters (one row alone may be longer), each row as sent', () => {
    const write = docWrite('order_docs', rows, { json, path: '$.data' }) as DocRowsWrite
    expect(write.parts.length).toBeGreaterThan(2)
    for (const part of write.parts) expect(part.text.length <= 32_768 || part.bounds.length === 2).toBe(true)
    expect(rowsOf(write)).toEqual(rows.map((row) => [row.id, JSON.stringify(row)]))
  })

  it('keeps the rows at given places across its parts', () => {
    const write = docWrite('order_docs', rows, { json, path: '$.data' }) as DocRowsWrite
    const places = [0, 21, 22, 30, 59]
    expect(rowsOf(docRowsAt(write, places))).toEqual(places.map((i) => [rows[i]!.id, JSON.stringify(rows[i])]))
    expect(rowsOf(docRowsAt(write, []))).toEqual([])
  })

  it('a small page is one part', () => {
    const small = rows.slice(0, 3)
    const write = docWrite('order_docs', small, { json: JSON.stringify(small), path: '$' }) as DocRowsWrite
    expect(write.parts).toHaveLength(1)
    expect(rowsOf(write)).toEqual(small.map((row) => [row.id, JSON.stringify(row)]))
  })
})
