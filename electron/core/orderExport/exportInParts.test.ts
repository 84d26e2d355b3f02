/**
 * An export of many orders is written a part at a time with turns of the core between: the core
 * answers other calls meanwhile, and the file is the one written at once from the list's every page,
 * in the list's order; the workbook export reads the same orders, its sheet made and deflated as the
 * parts come rather than at the end.
 */
import Papa from 'papaparse'
import { readSheet } from 'read-excel-file/node'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../sandbox'
import { everyListedOrder, syncedWorkspace } from '../bulkEdit/syncedWorkspace.fixture'
import { hasOpenpyxl, readWorkbook } from '../spreadsheetFile/openpyxl.fixture'
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

/**
 * Turns of a ticker in this thread (the core's, in the app) while `work` runs, and the longest gap between
 * two of them: a step the work held the thread, which a call arriving meanwhile waits out.
 */
async function turnsDuring<T>(work: () => Promise<T>): Promise<{ result: T; turns: number; longestMs: number; tookMs: number }> {
  let turns = 0
  let longestMs = 0
  let ticking = true
  let last = performance.now()
  const tick = () => {
    const now = performance.now()
    longestMs = Math.max(longestMs, now - last)
    last = now
    turns++
    if (ticking) setImmediate(tick)
  }
  setImmediate(tick)
  const started = performance.now()
  const result = await work()
  const tookMs = performance.now() - started
  ticking = false
  longestMs = Math.max(longestMs, performance.now() - last)
  return { result, turns, longestMs, tookMs }
}

it.skipIf(!hasOpenpyxl)(
  'writes the workbook as its parts come, with turns between (no step holds the core for much of it), read right by openpyxl',
  async () => {
    const query = { sortBy: 'total', sortDir: 'DESC' } as const
    const listed = await everyListedOrder(workspace, query)
    const parts = Math.ceil(listed.length / 100)
    expect(parts).toBeGreaterThan(5)
    const runs = []
    for (let run = 0; run < 3; run++) runs.push(await turnsDuring(() => workspace.exportOrdersXlsx({ ...query, timeZone: ZONE })))
    for (const { turns } of runs) expect(turns).toBeGreaterThan(parts)
    // The longest step against the export's own time, so a loaded machine stretches both, and the least of
    // three exports, so a run the scheduler set aside for a while does not count: a file made at the end in
    // one step holds the core for most of the export every time.
    expect(Math.min(...runs.map(({ longestMs, tookMs }) => longestMs / tookMs))).toBeLessThan(1 / 3)

    const file = runs[0]!.result
    const csv = Papa.parse<string[]>(ordersCsv(listed, ZONE).text.replace(/^\uFEFF/, ''), { skipEmptyLines: true }).data
    const book = readWorkbook(file.base64)
    expect(book.freeze).toBe('A2')
    expect(book.rows).toHaveLength(csv.length)
    expect(book.rows[0]!.map((cell) => cell.value)).toEqual(csv[0])
    expect(book.rows.slice(1).map((row) => [row[0]!.value, row[0]!.type, row[1]!.kind, String(row[1]!.value).replace('T', ' ')])).toEqual(
      csv.slice(1).map((row) => [row[0], 's', 'date', row[1]])
    )
  },
  60_000
)

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
