/**
 * Import and export of prices and quantities: a corpus of bad files gives clear per-file or per-row
 * errors and stages nothing invalid; good CSV (comma, semicolon + BOM) and XLSX files stage exactly what
 * they say; exports round-trip through import and neutralise formulas.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { readSheet } from 'read-excel-file/node'
import writeXlsxFile from 'write-excel-file/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../sandbox'
import type { AppSettings } from '../contract'
import { BULK_IMPORT_MAX_BYTES } from '../contract'
import type { SellRequest } from '../domain'
import { createSellerApi } from '../sellerApi'
import { openWorkspace, type Workspace } from '../workspace'
import { neutraliseFormula } from './exportFile'

const KEY = 'sk_test_bulk_import_123456'
let sandbox: Sandbox
let workspace: Workspace
let rows: SellRequest[]

beforeAll(async () => {
  sandbox = await startSandbox({ apiKey: KEY, orders: 5, sellRequests: 30, seed: 8, now: new Date() })
  workspace = openWorkspace({
    userDataDir: mkdtempSync(join(tmpdir(), 'seller-desk-import-')),
    account: { demo: false, baseUrl: sandbox.baseUrl, sellerId: 'seller-import' },
    api: createSellerApi({ baseUrl: sandbox.baseUrl, apiKey: KEY }),
    settings: () => ({ syncIntervalMinutes: 5, historyDays: 30, notifyNewOrders: false }) as AppSettings,
    emit: () => {}
  })
  await workspace.sync.sync()
  rows = workspace.snapshot.dump().sellRequests.sort((a, b) => a.id.localeCompare(b.id))
})
afterAll(async () => {
  workspace.close()
  await sandbox.close()
})

const bytes = (text: string) => new TextEncoder().encode(text)
const importText = (text: string, name = 'prices.csv') => workspace.bulk.importFile(name, bytes(text))
/** Imports into a clean change set and leaves it clean. */
async function importClean(name: string, content: Uint8Array) {
  workspace.bulk.discard()
  try {
    return await workspace.bulk.importFile(name, content)
  } finally {
    workspace.bulk.discard()
  }
}
const uniqueSku = () => rows.find((row) => rows.filter((other) => other.sku === row.sku).length === 1)!

describe('import', () => {
  it('stages a good CSV keyed by id, blank cells unchanged', async () => {
    const [a, b, c] = rows
    workspace.bulk.discard()
    const report = await importText(`id,price,quantity,name\n${a!.id},12.50,,whatever\n${b!.id},,7,\n${c!.id},${(c!.priceCents / 100).toFixed(2)},${c!.quantity},\n`)
    expect(report).toMatchObject({ format: 'csv', rows: 3, staged: 2, unchanged: 1, problems: [] })
    const staged = workspace.bulk.changes({ page: 1, take: 10, only: 'all' }).rows.map((r) => [r.sellRequestId, r.field, r.after])
    expect(staged).toEqual([[a!.id, 'priceCents', 1250], [b!.id, 'quantity', 7]])
    expect(workspace.bulk.undo().changes).toBe(0) // one import, one undoable step
  })

  it('reads a semicolon CSV with a UTF-8 BOM, headers in any case, keyed by SKU', async () => {
    const row = uniqueSku()
    const report = await importClean('export.csv', bytes(`\uFEFFSKU;Quantity;PRICE\r\n${row.sku};3;9.99\r\n`))
    expect(report).toMatchObject({ rows: 1, staged: row.priceCents === 999 || row.quantity === 3 ? 1 : 2, problems: [] })
  })

  it('reads XLSX, numbers as numbers', async () => {
    const [a] = rows
    const file = await writeXlsxFile([['id', 'price', 'quantity'], [a!.id, 15.5, 4], [a!.id.toUpperCase().replace(/-/g, '-'), null, null]]).toBuffer()
    const report = await importClean('prices.xlsx', file)
    expect(report.format).toBe('xlsx')
    // The same listing twice (any letter case): both rows refused.
    expect(report.problems.map((p) => p.row)).toEqual([2, 3])
    expect(report.staged).toBe(0)
  })

  it('reports per-row problems with row numbers and stages only the valid rows', async () => {
    const [a, b, c, d, e, f, g] = rows
    const shared = rows.find((row) => rows.filter((other) => other.sku === row.sku).length > 1)
    const lines = [
      'id,sku,price,quantity',
      `${a!.id},,12.345,`, // 2: three decimals
      `${b!.id},,,-3`, // 3: negative
      `${c!.id},,1e309,`, // 4: not a price
      `,,5.00,1`, // 5: no key
      `00000000-0000-4000-8000-000000000000,,5.00,`, // 6: unknown id
      `,no-such-sku,5.00,`, // 7: unknown SKU
      `${d!.id},,=1+1,`, // 8: a formula
      `${e!.id},,0,`, // 9: zero price
      `${f!.id},,5.00,`, // 10: fine
      `${f!.id},,6.00,`, // 11: duplicate of 10
      `${g!.id},,19.99,2`, // 12: fine
      ...(shared ? [`,${shared.sku},5.00,`] : []) // 13: a SKU shared by several listings
    ]
    const report = await importClean('prices.csv', bytes(lines.join('\n')))
    const byRow = Object.fromEntries(report.problems.map((p) => [p.row, p.message]))
    expect(byRow[2]).toMatch(/Price “12\.345”: Enter a price like 129\.99/)
    expect(byRow[3]).toMatch(/Quantity “-3”: Quantity cannot be negative/)
    expect(byRow[4]).toMatch(/Price “1e309”/)
    expect(byRow[5]).toBe('No id or SKU on this row.')
    expect(byRow[6]).toMatch(/No listing with id/)
    expect(byRow[7]).toMatch(/No listing with SKU “no-such-sku”/)
    expect(byRow[8]).toMatch(/Price “=1\+1”/)
    expect(byRow[9]).toMatch(/Price must be more than 0/)
    expect(byRow[10]).toMatch(/appears on rows 10, 11/)
    expect(byRow[11]).toMatch(/appears on rows 10, 11/)
    expect(byRow[12]).toBeUndefined()
    if (shared) expect(byRow[13]).toMatch(/belongs to \d+ listings: use the id column/)
    expect(report.staged).toBe(2) // row 12 only: price and quantity
  })

  it('refuses whole files with a clear message, staging nothing', async () => {
    const cases: [string, Uint8Array, RegExp][] = [
      ['empty.csv', bytes(''), /the file is empty/],
      ['blank.csv', bytes('\n\n  \n'), /no rows/],
      ['binary.csv', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48]), /not a text file/],
      ['latin1.csv', new Uint8Array([...bytes('id,price\n'), 0x43, 0x61, 0x66, 0xe9, 0x2c, 0x31, 0x0a]), /not UTF-8/],
      ['old.xls', new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 1, 2]), /old Excel/],
      ['fake.xlsx', bytes('id,price\n1,2\n'), /not an Excel workbook/],
      ['broken.xlsx', new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3, 4, 5]), /could not be read as an Excel workbook/],
      ['names.csv', bytes('name,colour\nA,red\n'), /needs an “id” or “sku” column .*\(columns found: “name”, “colour”\)/],
      ['keys.csv', bytes('id,name\nx,y\n'), /needs a “price” or “quantity” column/],
      ['twice.csv', bytes('id,price,Price\nx,1,2\n'), /“price” appears twice/],
      ['huge.csv', new Uint8Array(BULK_IMPORT_MAX_BYTES + 1).fill(0x31), /larger than 20 MB/]
    ]
    workspace.bulk.discard()
    for (const [name, content, message] of cases) {
      await expect(workspace.bulk.importFile(name, content), name).rejects.toMatchObject({ kind: 'invalid-input', message: expect.stringMatching(message) })
      expect(workspace.bulk.preview().changes).toBe(0)
    }
  })

  it('refuses an over-size file at the contract too', async () => {
    const { calls } = await import('../contract')
    const parsed = calls['bulk.importFile'].input.safeParse({ fileName: 'x.csv', base64: 'A'.repeat(Math.ceil(BULK_IMPORT_MAX_BYTES / 3) * 4 + 4) })
    expect(parsed.success).toBe(false)
    expect(parsed.error?.issues[0]?.message).toMatch(/larger than 20 MB/)
  })
})

describe('export', () => {
  it('neutralises text a spreadsheet would run as a formula', () => {
    for (const text of ['=HYPERLINK("x")', '+1', '-2', '@SUM(A1)', '\tx', '\rx']) expect(neutraliseFormula(text)).toBe(`'${text}`)
    expect(neutraliseFormula('iPhone 13')).toBe('iPhone 13')
  })

  it('exports listings with pending values (CSV and XLSX) that import back to the same change set', async () => {
    const [a, b] = rows
    workspace.bulk.discard()
    workspace.bulk.stage([{ sellRequestId: a!.id, priceCents: a!.priceCents + 100 }, { sellRequestId: b!.id, quantity: b!.quantity + 1 }])
    // A listing whose name would run as a formula in a spreadsheet.
    sandbox.state.sellRequest(a!.id)!.name = '=cmd|"/c calc"!A1'
    sandbox.state.editSellRequest(a!.id, {}, Date.now())
    await workspace.sync.sync()

    const csv = await workspace.bulk.exportFile('csv', { kind: 'listings', selection: { ids: [a!.id, b!.id] } })
    expect(csv.fileName).toMatch(/^sell-requests-\d{4}-\d{2}-\d{2}\.csv$/)
    const text = Buffer.from(csv.base64, 'base64').toString('utf8')
    expect(text).toContain(`"'=cmd|""/c calc""!A1"`)
    expect(text.split('\r\n')[1]).toContain(`${((a!.priceCents + 100) / 100).toFixed(2)},${a!.quantity},${(a!.priceCents / 100).toFixed(2)}`)

    const xlsx = await workspace.bulk.exportFile('xlsx', { kind: 'listings', selection: { ids: [a!.id, b!.id] } })
    const sheet = await readSheet(Buffer.from(xlsx.base64, 'base64'))
    expect(sheet[0]).toEqual(['id', 'sku', 'name', 'brand', 'status', 'price', 'quantity', 'current price', 'current quantity', 'pending'])
    expect(sheet[1]![2]).toBe(`'=cmd|"/c calc"!A1`)

    // Round trip: a fresh change set, importing either file stages the same two changes (a's base moved: staged anew).
    for (const [name, file] of [['back.csv', csv], ['back.xlsx', xlsx]] as const) {
      const report = await importClean(name, Buffer.from(file.base64, 'base64'))
      expect(report, name).toMatchObject({ rows: 2, staged: 2, problems: [] })
    }
  })
})
