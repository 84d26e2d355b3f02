import { expect, it } from 'vitest'
import { hasOpenpyxl, readWorkbook } from './openpyxl.fixture'
import { writeSheet, type Cell, type Sheet } from './sheetFile'
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

it('refuses a sheet with more rows than a spreadsheet holds, naming how many and what to do, and writes one that fits exactly', async () => {
  const sheet = (rows: number): Sheet => ({ name: 'big', header: ['n'], widths: [4], rows: Array<Cell[]>(rows).fill([]), guard: { roundTrip: false } })
  await expect(writeSheet(sheet(1_048_576), 'xlsx')).rejects.toMatchObject({
    kind: 'invalid-input',
    message: expect.stringMatching(/1,048,576 rows.*1,048,575 below its header.*CSV/)
  })
  const csv = await writeSheet(sheet(1_048_576), 'csv')
  expect(csv.rows).toBe(1_048_576)
  const fits = await writeSheet(sheet(1_048_575), 'xlsx')
  expect(fits.rows).toBe(1_048_575)
}, 120_000)
