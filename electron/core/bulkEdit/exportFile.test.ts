/**
 * Export files as a spreadsheet opens them: headers in words, statuses in words, money as numbers with
 * two decimals, times as date-times, and (XLSX) column widths and a frozen header row. The workbook is
 * read back with openpyxl (Debian's python3-openpyxl), a reader that shares no code with the writer.
 */
import Papa from 'papaparse'
import { describe, expect, it } from 'vitest'
import type { BatchRow } from '../../shared/contract'
import type { CurrentListing } from './currentListings'
import { csvDateTime, writeSheet } from '../spreadsheetFile/sheetFile'
import { failedSheet, listingsSheet } from './exportFile'
import { hasOpenpyxl, readWorkbook } from '../spreadsheetFile/openpyxl.fixture'

const listing = (over: Partial<CurrentListing>): CurrentListing => ({
  id: '8f14e45f-ceea-467f-a0e6-0b5b8c8e7a11',
  sku: 'IP15-128-BLK',
  name: 'iPhone 15 128GB',
  brand: 'Apple',
  status: 'open',
  priceCents: 45_000,
  quantity: 12,
  updatedAt: '2026-11-24T05:31:15.250Z',
  ...over
})

const listings = [
  listing({}),
  listing({
    id: 'b2',
    sku: 'PX8',
    name: 'Pixel 8',
    brand: 'Google',
    status: 'on-hold-by-marketplace',
    priceCents: 39_990,
    quantity: 0,
    updatedAt: '2026-07-01T23:59:59.000Z'
  })
]
const pending = (id: string) => (id === 'b2' ? { priceCents: 38_000 } : {})
const properties = (id: string) => (id === 'b2' ? undefined : { grade: 'A', color: 'Black', storage: '128GB', carrier: 'Unlocked' })
const sheet = listingsSheet(listings, pending, properties, '2026-11-24')

describe('grid export', () => {
  it('names its columns in words, with Grade, Color, Storage and Carrier, and a width for each', () => {
    expect(sheet.header).toEqual([
      'ID',
      'SKU',
      'Name',
      'Brand',
      'Status',
      'Price',
      'Quantity',
      'Current price',
      'Current quantity',
      'Pending change',
      'Grade',
      'Color',
      'Storage',
      'Carrier',
      'Last updated (UTC)'
    ])
    expect(sheet.widths).toHaveLength(sheet.header.length)
  })

  it('CSV: statuses in words, money with two decimals, times as a date-time a spreadsheet parses', async () => {
    const file = await writeSheet(sheet, 'csv')
    const [header, ...rows] = Papa.parse<string[]>(
      Buffer.from(file.base64, 'base64')
        .toString('utf8')
        .replace(/^\uFEFF/, ''),
      { skipEmptyLines: true }
    ).data
    const col = (name: string) => header!.indexOf(name)
    expect(rows.map((row) => row[col('Status')])).toEqual(['Open', 'On hold by marketplace'])
    expect(rows.map((row) => [row[col('Price')], row[col('Current price')], row[col('Pending change')]])).toEqual([
      ['450.00', '450.00', ''],
      ['380.00', '399.90', 'Yes']
    ])
    expect(rows.map((row) => [row[col('Grade')], row[col('Color')], row[col('Storage')], row[col('Carrier')]])).toEqual([
      ['A', 'Black', '128GB', 'Unlocked'],
      ['', '', '', '']
    ])
    expect(rows.map((row) => row[col('Last updated (UTC)')])).toEqual(['2026-11-24 05:31:15', '2026-07-01 23:59:59'])
    expect(csvDateTime('2026-01-02T03:04:05.999Z')).toBe('2026-01-02 03:04:05')
  })

  it.skipIf(!hasOpenpyxl)(
    'XLSX: date cells, money as numbers shown with two decimals, column widths and a frozen header row (read with openpyxl)',
    async () => {
      const book = readWorkbook((await writeSheet(sheet, 'xlsx')).base64)
      expect(book.freeze).toBe('A2')
      expect(book.widths).toEqual(sheet.widths)
      const [header, first, second] = book.rows
      expect(header!.map((cell) => cell.value)).toEqual(sheet.header)
      const col = (name: string) => sheet.header.indexOf(name)
      // To the second, as the CSV writes it (above): shown as hh:mm:ss, a fraction would round into the next second.
      expect(first![col('Last updated (UTC)')]).toMatchObject({ kind: 'date', value: '2026-11-24T05:31:15', format: 'yyyy-mm-dd hh:mm:ss' })
      expect(second![col('Last updated (UTC)')]).toMatchObject({ kind: 'date', value: '2026-07-01T23:59:59' })
      for (const name of ['Price', 'Current price']) {
        expect(first![col(name)]).toMatchObject({ kind: 'number', value: 450, format: '0.00' })
      }
      expect(second![col('Price')]).toMatchObject({ kind: 'number', value: 380 })
      expect(second![col('Current price')]).toMatchObject({ kind: 'number', value: 399.9, format: '0.00' })
      expect(first![col('Quantity')]).toMatchObject({ kind: 'number', value: 12 })
      expect(first![col('Status')]).toMatchObject({ kind: 'text', value: 'Open' })
      expect(first![col('Carrier')]).toMatchObject({ kind: 'text', value: 'Unlocked' })
    }
  )
})

describe('failed changes export', () => {
  const row = (over: Partial<BatchRow>): BatchRow => ({
    sellRequestId: 'a1',
    sku: 'SKU-1',
    name: 'Phone',
    field: 'priceCents',
    before: 100,
    after: 250,
    status: 'failed',
    message: 'The marketplace refused the price.',
    changedAt: '2026-11-24T05:31:15.000Z',
    ...over
  })

  it('says what went wrong in words, and the XLSX has widths and a frozen header too', async () => {
    const failed = failedSheet([row({}), row({ sellRequestId: 'a2', status: 'cancelled', message: 'Stopped before it was sent.' })], '2026-11-24')
    expect(failed.header).toEqual(['ID', 'SKU', 'Name', 'Price', 'Quantity', 'Problem'])
    expect(failed.rows.map((cells) => cells[5])).toEqual(['Failed: The marketplace refused the price.', 'Canceled: Stopped before it was sent.'])
    if (!hasOpenpyxl) return
    const book = readWorkbook((await writeSheet(failed, 'xlsx')).base64)
    expect(book.freeze).toBe('A2')
    expect(book.widths).toEqual(failed.widths)
    expect(book.rows[1]![3]).toMatchObject({ kind: 'number', value: 2.5, format: '0.00' })
  })
})
