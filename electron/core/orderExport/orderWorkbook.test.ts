/**
 * Orders as an Excel workbook, read back with openpyxl (Debian's python3-openpyxl), a reader that shares
 * no code with the writer: identifiers are text exactly as written (a 22-digit tracking number, leading
 * zeros), money and counts are numbers, the order date a date-time in the zone the header names, a
 * formula-like text no formula; and the rows and columns are the CSV's.
 */
import Papa from 'papaparse'
import { expect, it } from 'vitest'
import type { Order, OrderItem } from '../../shared/domain'
import { hasOpenpyxl, readWorkbook, type ReadCell } from '../spreadsheetFile/openpyxl.fixture'
import { ordersCsv } from './orderCsv'
import { ordersWorkbook, ordersWorkbookWriter } from './orderWorkbook'

const TRACKING = '9274899992136003456789'
const ZONE = 'America/New_York'

const item = (over: Partial<OrderItem>): OrderItem => ({
  id: 'i1',
  name: 'iPhone 15 128GB',
  quantity: 2,
  priceCents: 45_000,
  totalCents: 90_000,
  marginCents: -1_250,
  properties: { color: 'Black', grade: 'A', storage: '128GB', carrier: 'Unlocked', imei: '0351234567890123' },
  status: 'shipped',
  imageUrl: null,
  warrantyTime: null,
  shippingTime: null,
  shippingMethod: 'Ground',
  shipment: '000123',
  possibleStatuses: [],
  sellRequestId: null,
  tracking: {
    slugId: 'usps',
    carrier: 'USPS',
    trackerId: 't',
    trackingUrl: `https://tools.usps.com/go/TrackConfirmAction?tLabels=${TRACKING}`,
    trackingNumber: TRACKING
  },
  extra: {},
  ...over
})

const orders: Order[] = [
  {
    id: 'o1',
    // Taken as UTC at the edge (time.ts): 23:30:05 UTC is 18:30:05 in New York; to the second, as the CSV writes it.
    orderDate: '2026-11-19T23:30:05.777Z',
    orderNo: '012345',
    status: 'shipped',
    quantity: 3,
    products: 2,
    totalCents: 129_999,
    amountPaidCents: 129_999,
    items: [item({}), item({ id: 'i2', name: '=1+1', quantity: 1, priceCents: 39_999, totalCents: 39_999, marginCents: null, tracking: null, shipment: null })],
    extra: {}
  },
  {
    id: 'o2',
    orderDate: '2026-07-01T12:00:00.000Z',
    orderNo: '1002',
    status: 'payment-confirmed',
    quantity: 0,
    products: 0,
    totalCents: 0,
    amountPaidCents: 0,
    items: [],
    extra: {}
  }
]

it.skipIf(!hasOpenpyxl)('keeps identifiers as text, exactly: a 22-digit tracking number, leading zeros', async () => {
  const file = await ordersWorkbook(orders, ZONE, 'orders-2026-11-01-to-2026-11-30')
  expect(file).toMatchObject({
    fileName: 'orders-2026-11-01-to-2026-11-30.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    rows: 3
  })
  const { rows } = readWorkbook(file.base64)
  const header = rows[0]!.map((cell) => cell.value)
  const col = (name: string) => header.indexOf(name)
  const [first, second] = rows.slice(1)
  expect(first![col('Tracking number')]).toMatchObject({ kind: 'text', value: TRACKING, type: 's' })
  expect(first![col('Order no.')]).toMatchObject({ kind: 'text', value: '012345', type: 's' })
  expect(second![col('Order no.')]).toMatchObject({ kind: 'text', value: '012345' })
  expect(first![col('Shipment')]).toMatchObject({ kind: 'text', value: '000123' })
  expect(first![col('Other properties')]).toMatchObject({ kind: 'text', value: 'imei: 0351234567890123' })
  expect(rows[3]![col('Order no.')]).toMatchObject({ kind: 'text', value: '1002' })
})

it.skipIf(!hasOpenpyxl)('writes money and counts as numbers, the order date as a date-time in the zone the header names', async () => {
  const { rows, freeze } = readWorkbook((await ordersWorkbook(orders, ZONE, 'orders')).base64)
  expect(freeze).toBe('A2')
  const header = rows[0]!.map((cell) => cell.value)
  const col = (name: string) => header.indexOf(name)
  const [first, second, empty] = rows.slice(1)
  expect(header[1]).toBe(`Order date (${ZONE})`)
  expect(first![1]).toMatchObject({ kind: 'date', value: '2026-11-19T18:30:05', format: 'yyyy-mm-dd hh:mm:ss' })
  // Summer time: four hours behind UTC.
  expect(empty![1]).toMatchObject({ kind: 'date', value: '2026-07-01T08:00:00' })
  expect(first![col('Order total')]).toMatchObject({ kind: 'number', value: 1299.99, format: '0.00' })
  expect(first![col('Amount paid')]).toMatchObject({ kind: 'number', value: 1299.99, format: '0.00' })
  expect(first![col('Unit price')]).toMatchObject({ kind: 'number', value: 450, format: '0.00' })
  expect(first![col('Margin')]).toMatchObject({ kind: 'number', value: -12.5, format: '0.00' })
  expect(second![col('Margin')]).toMatchObject({ kind: 'empty' })
  expect(empty![col('Order total')]).toMatchObject({ kind: 'number', value: 0, format: '0.00' })
  expect(first![col('Order units')]).toMatchObject({ kind: 'number', value: 3 })
  expect(first![col('Quantity')]).toMatchObject({ kind: 'number', value: 2 })
  expect(first![col('Order status')]).toMatchObject({ kind: 'text', value: 'Shipped' })
  expect(empty![col('Item')]).toMatchObject({ kind: 'empty' })
})

it.skipIf(!hasOpenpyxl)('writes a formula-like text as text, never a formula', async () => {
  const { rows, formulas } = readWorkbook((await ordersWorkbook(orders, ZONE, 'orders')).base64)
  const item = rows[0]!.findIndex((cell) => cell.value === 'Item')
  expect(rows[2]![item]).toMatchObject({ kind: 'text', value: '=1+1', type: 's' })
  expect(formulas).toBe(0)
})

it.skipIf(!hasOpenpyxl)('has the CSV’s rows and columns, cell for cell, and is the same written in parts', async () => {
  const file = await ordersWorkbook(orders, ZONE, 'orders')
  const csv = Papa.parse<string[]>(ordersCsv(orders, ZONE).text.replace(/^\uFEFF/, ''), { skipEmptyLines: true }).data
  const book = readWorkbook(file.base64).rows
  expect(book).toHaveLength(csv.length)
  const shown = (cell: ReadCell) => {
    if (cell.kind === 'empty') return ''
    if (cell.kind === 'date') return String(cell.value).replace('T', ' ')
    if (cell.kind === 'number') return cell.format === '0.00' ? (cell.value as number).toFixed(2) : String(cell.value)
    return String(cell.value)
  }
  // The CSV's formula guard is the one difference: a text cell needs none.
  expect(book.map((row) => row.map(shown))).toEqual(csv.map((row) => row.map((text) => text.replace(/^'(?==)/, ''))))

  const writer = ordersWorkbookWriter(ZONE)
  for (const order of orders) await writer.add([order])
  await writer.add([])
  expect(readWorkbook((await writer.done('orders')).base64)).toEqual(readWorkbook(file.base64))
})
