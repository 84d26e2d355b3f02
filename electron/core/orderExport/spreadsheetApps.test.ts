/**
 * The exports as a spreadsheet app opens them: LibreOffice (Debian's libreoffice-calc-nogui, headless)
 * reads the orders CSV with dates as date-times and money as numbers, and the grid's XLSX with its
 * dates and prices as it shows them. Skipped where LibreOffice or python3-openpyxl is not installed.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Papa from 'papaparse'
import { afterAll, expect, it } from 'vitest'
import { listingsSheet } from '../bulkEdit/exportFile'
import { writeSheet } from '../spreadsheetFile/sheetFile'
import type { Order } from '../../shared/domain'
import { ordersCsv } from './orderCsv'

const LIBREOFFICE = '/usr/bin/libreoffice'
const PYTHON = '/usr/bin/python3'
const has = (run: () => unknown) => {
  try {
    run()
    return true
  } catch {
    return false
  }
}
const ready = existsSync(LIBREOFFICE) && has(() => execFileSync(PYTHON, ['-c', 'import openpyxl'], { stdio: 'ignore' }))

const dir = mkdtempSync(join(tmpdir(), 'sd-spreadsheet-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Converts a file with LibreOffice; `filter` is its import filter (CSV: comma, quote, UTF-8, en-US, detect special numbers). */
function convert(file: string, to: 'xlsx' | 'csv', filter?: string): string {
  // CSV out: cells as shown (formats applied), UTF-8.
  const target = to === 'csv' ? 'csv:Text - txt - csv (StarCalc):44,34,76,1,,1033,false,true,true' : to
  execFileSync(
    LIBREOFFICE,
    [
      `-env:UserInstallation=file://${join(dir, 'profile')}`,
      '--headless',
      ...(filter ? [`--infilter=${filter}`] : []),
      '--convert-to',
      target,
      '--outdir',
      join(dir, 'out'),
      file
    ],
    { stdio: 'ignore', timeout: 60_000 }
  )
  return join(
    dir,
    'out',
    file
      .split('/')
      .pop()!
      .replace(/\.\w+$/, `.${to}`)
  )
}

const order: Order = {
  id: 'o1',
  orderDate: '2026-11-19T23:30:05.000Z',
  orderNo: '1001',
  status: 'payment-confirmed',
  quantity: 2,
  products: 1,
  totalCents: 129_999,
  amountPaidCents: 129_999,
  extra: {},
  items: [
    {
      id: 'i1',
      name: 'iPhone 15',
      quantity: 2,
      priceCents: 65_000,
      totalCents: 129_999,
      marginCents: 1_250,
      properties: {},
      status: 'awaiting-shipment',
      imageUrl: null,
      warrantyTime: null,
      shippingTime: null,
      shippingMethod: 'PLATFORM_SHIPPING',
      shipment: 'shp_1',
      possibleStatuses: [],
      sellRequestId: null,
      tracking: null,
      extra: {}
    }
  ]
}

it.skipIf(!ready)('LibreOffice reads the orders CSV with the order date as a date-time and money as numbers', () => {
  const csv = join(dir, 'orders.csv')
  writeFileSync(csv, ordersCsv([order], 'Europe/Berlin').text)
  const xlsx = convert(csv, 'xlsx', 'CSV:44,34,76,1,,1033,false,true')
  const cells = JSON.parse(
    execFileSync(
      PYTHON,
      [
        '-c',
        `
import json, sys, datetime, warnings, openpyxl
warnings.simplefilter('ignore')
ws = openpyxl.load_workbook(sys.argv[1]).worksheets[0]
header = [c.value for c in ws[1]]
row = ws[2]
show = lambda v: v.isoformat() if isinstance(v, datetime.datetime) else v
print(json.dumps({h: [type(c.value).__name__, show(c.value)] for h, c in zip(header, row)}))
`,
        xlsx
      ],
      { encoding: 'utf8' }
    )
  ) as Record<string, [string, unknown]>
  expect(cells['Order date (Europe/Berlin)']).toEqual(['datetime', '2026-11-20T00:30:05'])
  expect(cells['Order total']).toEqual(['float', 1299.99])
  expect(cells['Unit price']).toEqual(['int', 650])
  expect(cells['Order status']).toEqual(['str', 'Payment confirmed'])
  expect(cells['Item status']).toEqual(['str', 'Awaiting shipment'])
  expect(cells['Shipping method']).toEqual(['str', 'Platform shipping'])
})

it.skipIf(!ready)('LibreOffice shows the grid workbook’s dates and prices as written', async () => {
  const sheet = listingsSheet(
    [{ id: 'a1', sku: 'SKU-1', name: 'Pixel 8', brand: 'Google', status: 'open', priceCents: 39_990, quantity: 3, updatedAt: '2026-11-24T05:31:15.000Z' }],
    () => ({}),
    () => ({ grade: 'A', color: 'Obsidian', storage: '128GB', carrier: 'Unlocked' }),
    '2026-11-24'
  )
  const xlsx = join(dir, 'grid.xlsx')
  writeFileSync(xlsx, Buffer.from((await writeSheet(sheet, 'xlsx')).base64, 'base64'))
  const [header, row] = Papa.parse<string[]>(readFileSync(convert(xlsx, 'csv'), 'utf8'), { skipEmptyLines: true }).data
  const cell = (name: string) => row![header!.indexOf(name)]
  expect([cell('Status'), cell('Price'), cell('Current price'), cell('Last updated (UTC)'), cell('Color')]).toEqual([
    'Open',
    '399.90',
    '399.90',
    '2026-11-24 05:31:15',
    'Obsidian'
  ])
})
