/**
 * An export of many orders is written a part at a time with turns of the core between: the core
 * answers other calls meanwhile, and the file is the one written at once from the list's every page,
 * in the list's order; the workbook export reads the same orders.
 */
import Papa from 'papaparse'
import { readSheet } from 'read-excel-file/node'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../sandbox'
import { everyListedOrder, syncedWorkspace } from '../bulkEdit/syncedWorkspace.fixture'
import type { Workspace } from '../workspace'
import { ordersCsv, ordersCsvWriter } from './orderCsv'

const KEY = 'sk_test_export_parts_123456'
const ZONE = 'Europe/Berlin'
let sandbox: Sandbox
let workspace: Workspace

beforeAll(async () => {
  sandbox = await startSandbox({ apiKey: KEY, orders: 1_500, sellRequests: 10, seed: 31, now: new Date() })
  workspace = await syncedWorkspace(sandbox, KEY, 'export-parts')
})
afterAll(async () => {
  await workspace.close()
  await sandbox.close()
})

it('takes turns, answers a call meanwhile, and writes the list’s orders in its order', async () => {
  const query = { sortBy: 'total', sortDir: 'ASC' } as const
  const listed = await everyListedOrder(workspace, query)
  expect(listed.length).toBeGreaterThan(500) // several parts
  let done = false
  const exporting = workspace.exportOrdersCsv({ ...query, timeZone: ZONE }).then((file) => ((done = true), file))
  await new Promise((resolve) => setImmediate(resolve))
  expect(done).toBe(false)
  expect((await workspace.listOrders({ ...query, page: 1, take: 5 })).rows.map((order) => order.id)).toEqual(listed.slice(0, 5).map((order) => order.id))
  const file = await exporting
  expect(file.orders).toBe(listed.length)
  expect(file.parts.join('')).toBe(ordersCsv(listed, ZONE).text)
  expect(file.rows).toBe(listed.reduce((sum, order) => sum + Math.max(1, order.items.length), 0))
})

it('exports what a filtered list shows, in its order', async () => {
  const query = { sortBy: 'date' as const, sortDir: 'DESC' as const, itemStatuses: ['awaiting-shipment'] }
  const listed = await everyListedOrder(workspace, query)
  expect(listed.length).toBeGreaterThan(0)
  const file = await workspace.exportOrdersCsv({ ...query, timeZone: ZONE })
  expect(file.orders).toBe(listed.length)
  expect(file.parts.join('')).toBe(ordersCsv(listed, ZONE).text)
})

it('exports the same orders as a workbook: the CSV’s rows, in its order, named alike', async () => {
  const query = {
    sortBy: 'date' as const,
    sortDir: 'DESC' as const,
    itemStatuses: ['awaiting-shipment'],
    fromDate: new Date(Date.now() - 20 * 86_400_000).toISOString()
  }
  const csv = await workspace.exportOrdersCsv({ ...query, timeZone: ZONE })
  const xlsx = await workspace.exportOrdersXlsx({ ...query, timeZone: ZONE })
  expect(csv.orders).toBeGreaterThan(0)
  expect(xlsx).toMatchObject({ fileName: csv.fileName.replace(/\.csv$/, '.xlsx'), orders: csv.orders, rows: csv.rows, missing: null })
  const csvRows = Papa.parse<string[]>(csv.parts.join('').replace(/^\uFEFF/, ''), { skipEmptyLines: true }).data
  const sheet = await readSheet(Buffer.from(xlsx.base64, 'base64'))
  expect(sheet[0]).toEqual(csvRows[0])
  expect(sheet.slice(1).map((row) => [row[0], row[6]])).toEqual(csvRows.slice(1).map((row) => [row[0], row[6] || null]))
})

it('writes the same file in parts of any size as at once, and a header alone for no orders', async () => {
  const listed = (await everyListedOrder(workspace, { sortBy: 'date', sortDir: 'DESC' })).slice(0, 40)
  const whole = ordersCsv(listed, ZONE)
  for (const size of [1, 7, 40]) {
    const writer = ordersCsvWriter(ZONE)
    for (let from = 0; from < listed.length; from += size) writer.add(listed.slice(from, from + size))
    writer.add([])
    const { parts, rows } = writer.done()
    expect({ text: parts.join(''), rows }).toEqual(whole)
  }
  const empty = ordersCsv([], ZONE)
  expect(empty.rows).toBe(0)
  expect(empty.text.split('\r\n')).toHaveLength(1)
  expect(empty.text).toMatch(/^\uFEFFOrder no\.,/)
})
