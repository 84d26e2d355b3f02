import { describe, expect, it } from 'vitest'
import { rowBounds } from './rowBounds'

/** The rows' texts, sliced where rowBounds says they lie. */
function rowTexts(text: string, path: string): string[] | null {
  const bounds = rowBounds(text, path)
  return bounds && Array.from({ length: bounds.length / 2 }, (_, i) => text.slice(bounds[2 * i], bounds[2 * i + 1]))
}

describe('rowBounds', () => {
  it('cuts the rows array at a path into each row as sent', () => {
    const rows = [{ id: 'a', n: 1.5, s: 'x,]}"{\\', nested: { list: [1, [2, { q: '[' }]], e: {} } }, { id: 'b' }, [1, 2], 'text', 3, null, true]
    for (const [body, path] of [
      [rows, '$'],
      [{ total: '7', data: rows }, '$.data'],
      [{ status: 200, data: { total: 7, data: rows } }, '$.data.data']
    ] as const) {
      for (const text of [JSON.stringify(body), JSON.stringify(body, null, 2)]) {
        const cut = rowTexts(text, path)
        expect(cut).toHaveLength(rows.length)
        expect(cut!.map((row) => JSON.parse(row) as unknown)).toEqual(rows)
        for (const row of cut!) expect(text.includes(row)).toBe(true)
      }
    }
  })

  it('reads member names with escapes, skips other members, and takes the last of a repeated name as JSON.parse does', () => {
    expect(rowTexts('{"a":[1],"d\\u0061ta":[{"x":"\\"]"}],"z":{"data":[9]}}', '$.data')).toEqual(['{"x":"\\"]"}'])
    expect(rowTexts('{"data":[1],"data":[2,3]}', '$.data')).toEqual(['2', '3'])
    expect(rowTexts(' [ ] ', '$')).toEqual([])
    expect(rowTexts('{"data":[ {"id":"é😀"} , 2 ]}', '$.data')).toEqual(['{"id":"é😀"}', '2'])
  })

  it('says null when the path does not lead to an array', () => {
    expect(rowTexts('{"data":{"total":1}}', '$.data')).toBeNull()
    expect(rowTexts('{"other":[1]}', '$.data')).toBeNull()
    expect(rowTexts('[1]', '$.data')).toBeNull()
    expect(rowTexts('{"data":[1]}', '$.data[0]')).toBeNull()
    expect(rowTexts('{"data":[1,', '$.data')).toBeNull()
  })
})
