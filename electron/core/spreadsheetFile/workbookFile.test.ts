import { expect, it } from 'vitest'
import { hasOpenpyxl, readWorkbook } from './openpyxl.fixture'
import { workbookWriter } from './workbookFile'

const columns = { header: ['Number', 'Money', 'Date', 'Text'], widths: [10, 10, 20, 10], guard: { roundTrip: false } }

it.skipIf(!hasOpenpyxl)(
  'writes a value that is no number (NaN, Infinity, a time that cannot be read) as an empty cell, never as text Excel calls damaged',
  async () => {
    const workbook = workbookWriter(columns)
    await workbook.add([
      [Number.NaN, { cents: Number.POSITIVE_INFINITY }, { at: 'not a time' }, 'kept'],
      [Number.NEGATIVE_INFINITY, { cents: 1234 }, { at: '2026-11-30T06:00:00.000Z' }, 'also kept'],
      [7, { cents: Number.NaN }, { at: '2026-11-30T06:00:00.000Z', timeZone: 'Asia/Kolkata' }, '']
    ])
    const read = readWorkbook(await workbook.done())
    const kinds = read.rows.slice(1).map((row) => row.map((cell) => cell.kind))
    expect(kinds).toEqual([
      ['empty', 'empty', 'empty', 'text'],
      ['empty', 'number', 'date', 'text'],
      ['number', 'empty', 'date', 'empty']
    ])
    expect(read.rows[2]![1]!.value).toBe(12.34)
    expect(read.rows[3]![2]!.value).toBe('2026-11-30T11:30:00')
  }
)

it('refuses more rows and the file once given up (an export that failed midway)', async () => {
  const workbook = workbookWriter(columns)
  await workbook.add([[1, { cents: 100 }, { at: '2026-11-30T06:00:00.000Z' }, 'a']])
  workbook.abort()
  await expect(workbook.add([[2, null, null, 'b']])).rejects.toThrow('already written')
  await expect(workbook.done()).rejects.toThrow('already written')
})
