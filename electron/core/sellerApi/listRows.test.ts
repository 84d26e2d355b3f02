import { describe, expect, it } from 'vitest'
import { decodedText, parseListRows, parseListRowsInTurns, rowBounds } from './listRows'

const bytesOf = (text: string) => new Uint8Array(Buffer.from(text, 'utf8'))

/** What reading the answer whole gives: its text decoded as fetch does, then JSON.parse. */
const whole = (bytes: Uint8Array) => JSON.parse(decodedText(bytes)) as unknown

/** parseListRows with each row's text cut from the bytes where it says the row lies. */
function parsedRows(bytes: Uint8Array, path: string): { body: unknown; rows: string[] } | null {
  const read = parseListRows(bytes, path)
  if (!read) return null
  const rows: string[] = []
  for (let j = 0; j < read.bounds.length; j += 2) rows.push(Buffer.from(bytes.subarray(read.bounds[j], read.bounds[j + 1])).toString('utf8'))
  return { body: read.body, rows }
}

describe('parseListRows', () => {
  const rows = [
    { id: 'a', name: 'Café 😀 "quoted" \\ back', items: [{ id: 'i', tags: ['[', ']', '{', '}', ','] }] },
    { id: 'b', nested: { data: [1, 2, { data: [] }] }, n: -1.5e3, t: true, f: false, z: null },
    { id: 'c', '': 'empty key', 'we\\u0069rd': 'escaped key' }
  ]

  it('gives what JSON.parse of the whole text gives, and each row exactly as sent', () => {
    for (const [text, path] of [
      [JSON.stringify({ total: '3', data: rows }), '$.data'],
      [JSON.stringify({ status: 200, description: 'ok', data: { total: 3, data: rows } }), '$.data.data'],
      // Spaces of every kind between the parts, rows spelt as JSON.stringify would not.
      [`\r\n { "total" : 3 ,\t"data" :\n[ ${rows.map((row) => JSON.stringify(row, null, 2)).join(' ,\n ')} ] , "after": [1] } \n`, '$.data'],
      // A byte order mark, which fetch's text() drops.
      [`\uFEFF${JSON.stringify({ total: 3, data: rows })}`, '$.data']
    ] as const) {
      const bytes = bytesOf(text)
      const read = parsedRows(bytes, path)
      expect(read).not.toBeNull()
      expect(read!.body).toEqual(whole(bytes))
      const expected = (path === '$.data' ? (whole(bytes) as { data: unknown[] }).data : (whole(bytes) as { data: { data: unknown[] } }).data.data).map((row) =>
        JSON.parse(JSON.stringify(row))
      )
      expect(read!.rows.map((row) => JSON.parse(row) as unknown)).toEqual(expected)
      // Each row's text is a piece of the answer, untouched.
      for (const row of read!.rows) expect(decodedText(bytes)).toContain(row)
    }
  })

  it('a member named twice keeps its last value, as JSON.parse does', () => {
    const text = `{"data":[{"id":"first"}],"total":1,"data":[{"id":"last"}],"nested":{"data":[{"id":"x"}]}}`
    const read = parsedRows(bytesOf(text), '$.data')
    expect(read!.body).toEqual(JSON.parse(text))
    expect(read!.rows).toEqual(['{"id":"last"}'])
    // A member name spelt with escapes is the name it spells.
    const escaped = '{"total":1,"d\\u0061ta":[{"id":"a"}]}'
    expect(parsedRows(bytesOf(escaped), '$.data')).toEqual({ body: JSON.parse(escaped), rows: ['{"id":"a"}'] })
    // The last one is no array: not cut (read whole, the check then refuses or accepts it).
    expect(parseListRows(bytesOf(`{"data":[{"id":"a"}],"data":null}`), '$.data')).toBeNull()
  })

  it('an empty array is no rows; a path to nothing, or to something else, is not cut', () => {
    expect(parsedRows(bytesOf('{"total":0,"data":[ ]}'), '$.data')).toEqual({ body: { total: 0, data: [] }, rows: [] })
    expect(parseListRows(bytesOf('{"total":0,"data":null}'), '$.data')).toBeNull()
    expect(parseListRows(bytesOf('{"total":0}'), '$.data')).toBeNull()
    expect(parsedRows(bytesOf('{"data":{"total":0,"data":[]}}'), '$.data.data')).toEqual({ body: { data: { total: 0, data: [] } }, rows: [] })
    expect(parseListRows(bytesOf('[{"id":"a"}]'), '$.data')).toBeNull()
  })

  it('what is not JSON is refused, wherever the fault lies', () => {
    for (const text of [
      '{"total":1,"data":[{"id":"a",}]}', // in a row
      '{"total":1,"data":[{"id":"a"} {"id":"b"}]}', // between rows
      '{"total":1,"data":[,]}',
      '{"total":1,"data":[{"id":"a"}],}', // after the rows
      '{"total":1,"data":[{"id":"a"}]} trailing',
      '{"total":01,"data":[{"id":"a"}]}'
    ]) {
      expect(() => JSON.parse(text)).toThrow()
      let refused = false
      try {
        refused = parseListRows(bytesOf(text), '$.data') === null
      } catch (error) {
        refused = error instanceof SyntaxError
      }
      expect(refused, text).toBe(true)
    }
  })

  it('bytes that are not UTF-8 read as fetch reads them (U+FFFD)', () => {
    const bytes = new Uint8Array([...bytesOf('{"total":1,"data":[{"id":"'), 0xff, 0xc3, ...bytesOf('"}]}')])
    const read = parseListRows(bytes, '$.data')
    expect(read!.body).toEqual(JSON.parse(new TextDecoder().decode(bytes)))
  })
})

describe('parseListRowsInTurns', () => {
  const page = (rows: number, fault = '') =>
    bytesOf(
      `{"status":200,"data":{"total":${rows},"data":[${Array.from({ length: rows }, (_, i) => JSON.stringify({ id: `r${i}`, name: `Row ${i}` })).join(',')}${fault}]}}`
    )

  it('reads a page of 1,000 rows as parseListRows does, pausing before every 64th row it walks and every 64th it parses', async () => {
    const bytes = page(1_000)
    let pauses = 0
    const read = await parseListRowsInTurns(bytes, '$.data.data', async () => void pauses++)
    expect(read).toEqual(parseListRows(bytes, '$.data.data'))
    // The walk over the rows and their parses: 15 pauses each (before rows 64, 128, …, 960), and one between them.
    expect(pauses).toBe(2 * Math.floor(999 / 64) + 1)
  })

  it('refuses a broken page as parseListRows does, wherever in the rows the fault lies', async () => {
    /** A SyntaxError's name, or null when not cut (the caller reads it whole, which says what is wrong). */
    const outcome = async (read: () => Promise<unknown>) => {
      try {
        const cut = await read()
        return cut === null ? null : 'read'
      } catch (error) {
        return (error as Error).name
      }
    }
    for (const [fault, expected] of [
      [',{"id":"r1000",}', 'SyntaxError'], // in a row: its parse refuses it
      [' {"id":"r1000"}', null], // between rows: the walk does
      [',', 'SyntaxError'], // an empty row after the last comma
      ['', 'read']
    ] as const) {
      const bytes = page(1_000, fault)
      expect(await outcome(async () => parseListRows(bytes, '$.data.data')), fault).toBe(expected)
      expect(await outcome(() => parseListRowsInTurns(bytes, '$.data.data', async () => {})), fault).toBe(expected)
    }
  })
})

describe('rowBounds', () => {
  /** The rows' texts, cut from the text's bytes where rowBounds says they lie. */
  function rowTexts(text: string, path: string): string[] | null {
    const bytes = bytesOf(text)
    const bounds = rowBounds(bytes, path)
    return bounds && Array.from({ length: bounds.length / 2 }, (_, i) => Buffer.from(bytes.subarray(bounds[2 * i], bounds[2 * i + 1])).toString('utf8'))
  }

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
