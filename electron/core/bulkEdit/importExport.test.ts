/**
 * Import and export of prices and quantities: a corpus of bad files gives clear per-file or per-row
 * errors and stages nothing invalid; good CSV (comma, semicolon + BOM) and XLSX files stage exactly what
 * they say; exports round-trip through import and neutralise formulas.
 */
import { crc32, deflateRawSync, createDeflateRaw } from 'node:zlib'
import Papa from 'papaparse'
import { readSheet } from 'read-excel-file/node'
import writeXlsxFile from 'write-excel-file/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../sandbox'
import { BULK_IMPORT_ACCEPT, BULK_IMPORT_MAX_BYTES } from '../../shared/contract'
import type { SellRequest } from '../../shared/domain'
import type { Workspace } from '../workspace'
import { listingsHeader } from './exportFile'
import { checkWorkbookArchive, WORKBOOK_MAX_ENTRIES, WORKBOOK_MAX_UNPACKED_BYTES } from './workbookArchive'
import { syncedWorkspace } from './syncedWorkspace.fixture'

const KEY = 'sk_test_bulk_import_123456'
let sandbox: Sandbox
let workspace: Workspace
let rows: SellRequest[]

beforeAll(async () => {
  sandbox = await startSandbox({ apiKey: KEY, orders: 5, sellRequests: 30, seed: 8, now: new Date() })
  workspace = await syncedWorkspace(sandbox, KEY, 'import')
  rows = workspace.snapshot.dump().sellRequests.sort((a, b) => a.id.localeCompare(b.id))
})
afterAll(async () => {
  await workspace.close()
  await sandbox.close()
})

const bytes = (text: string) => new TextEncoder().encode(text)
const importText = (text: string, name = 'prices.csv') => workspace.bulk.importFile(name, bytes(text))
/** Imports into a clean change set and leaves it clean. */
async function importClean(name: string, content: Uint8Array) {
  await workspace.bulk.discard()
  try {
    return await workspace.bulk.importFile(name, content)
  } finally {
    await workspace.bulk.discard()
  }
}
/** A zip archive of these entries (deflated unless stored); `declaredSize` overrides the size the directory claims. */
function zip(entries: { name: string; data: Buffer; stored?: boolean; compressed?: Buffer; declaredSize?: number }[]): Buffer {
  const locals: Buffer[] = []
  const directory: Buffer[] = []
  let offset = 0
  for (const entry of entries) {
    const name = Buffer.from(entry.name)
    const body = entry.compressed ?? (entry.stored ? entry.data : deflateRawSync(entry.data))
    const size = entry.declaredSize ?? entry.data.length
    const crc = crc32(entry.data)
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(20, 4)
    local.writeUInt16LE(entry.stored ? 0 : 8, 8)
    local.writeUInt32LE(crc, 14)
    local.writeUInt32LE(body.length, 18)
    local.writeUInt32LE(size >>> 0, 22)
    local.writeUInt16LE(name.length, 26)
    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE(20, 4)
    central.writeUInt16LE(20, 6)
    central.writeUInt16LE(entry.stored ? 0 : 8, 10)
    central.writeUInt32LE(crc, 16)
    central.writeUInt32LE(body.length, 20)
    central.writeUInt32LE(size >>> 0, 24)
    central.writeUInt16LE(name.length, 28)
    central.writeUInt32LE(offset, 42)
    locals.push(local, name, body)
    directory.push(central, name)
    offset += 30 + name.length + body.length
  }
  const dir = Buffer.concat(directory)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(Math.min(entries.length, 0xffff), 8)
  end.writeUInt16LE(Math.min(entries.length, 0xffff), 10)
  end.writeUInt32LE(dir.length, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...locals, dir, end])
}

/** A minimal workbook (one sheet) around this sheet XML. */
function workbook(sheetXml: string | { compressed: Buffer; declaredSize: number }, extra: { name: string; data: Buffer }[] = []): Buffer {
  const text = (name: string, data: string) => ({ name, data: Buffer.from(data) })
  return zip([
    text(
      '[Content_Types].xml',
      '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>'
    ),
    text(
      '_rels/.rels',
      '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>'
    ),
    text(
      'xl/workbook.xml',
      '<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>'
    ),
    text(
      'xl/_rels/workbook.xml.rels',
      '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>'
    ),
    typeof sheetXml === 'string'
      ? text('xl/worksheets/sheet1.xml', sheetXml)
      : { name: 'xl/worksheets/sheet1.xml', data: Buffer.alloc(0), compressed: sheetXml.compressed, declaredSize: sheetXml.declaredSize },
    ...extra
  ])
}

const sheetXml = (rows: string) =>
  `<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows}</sheetData></worksheet>`
const inlineCell = (ref: string, text: string) => `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`

/** `megabytes` of spaces, deflated as a stream (never held whole): a few hundred KB. */
async function deflatedSpaces(megabytes: number): Promise<Buffer> {
  const deflate = createDeflateRaw({ level: 9 })
  const chunks: Buffer[] = []
  deflate.on('data', (chunk: Buffer) => chunks.push(chunk))
  const done = new Promise((resolve) => deflate.on('end', resolve))
  const mb = Buffer.alloc(1024 * 1024, 0x20)
  for (let i = 0; i < megabytes; i++) if (!deflate.write(mb)) await new Promise((resolve) => deflate.once('drain', resolve))
  deflate.end()
  await done
  return Buffer.concat(chunks)
}

const uniqueSku = () => rows.find((row) => rows.filter((other) => other.sku === row.sku).length === 1)!

describe('import', () => {
  it('stages a good CSV keyed by id, blank cells unchanged', async () => {
    const [a, b, c] = rows
    await workspace.bulk.discard()
    const report = await importText(
      `id,price,quantity,name\n${a!.id},12.50,,whatever\n${b!.id},,7,\n${c!.id},${(c!.priceCents / 100).toFixed(2)},${c!.quantity},\n`
    )
    expect(report).toMatchObject({ format: 'csv', rows: 3, staged: 2, unchanged: 1, problems: [] })
    const staged = workspace.bulk.changes({ page: 1, take: 10, only: 'all' }).rows.map((r) => [r.sellRequestId, r.field, r.after])
    expect(staged).toEqual([
      [a!.id, 'priceCents', 1250],
      [b!.id, 'quantity', 7]
    ])
    expect((await workspace.bulk.undo()).changes).toBe(0) // one import, one undoable step
  })

  it('with changes pending: keeps those the file leaves at the current value, replaces (and counts) those it sets otherwise, leaves those it repeats', async () => {
    const [a, b, c, d, e, f] = rows
    await workspace.bulk.discard()
    workspace.bulk.stage([
      { sellRequestId: a!.id, priceCents: a!.priceCents + 100 },
      { sellRequestId: b!.id, quantity: b!.quantity + 1 },
      { sellRequestId: c!.id, priceCents: c!.priceCents + 200 },
      { sellRequestId: d!.id, quantity: d!.quantity + 5 }
    ])
    const price = (cents: number) => (cents / 100).toFixed(2)
    const report = await importText(
      [
        'id,price,quantity',
        `${a!.id},${price(a!.priceCents)},`, // the current price: a's pending price is kept
        `${b!.id},,${b!.quantity}`, // the current quantity: b's pending quantity is kept
        `${c!.id},${price(c!.priceCents + 200)},${c!.quantity}`, // the pending price and the current quantity: nothing to do
        `${d!.id},,${d!.quantity + 9}`, // another quantity: replaces d's pending one
        `${e!.id},${price(e!.priceCents + 1)},`, // a new change
        `${f!.id},${price(f!.priceCents)},${f!.quantity}` // as it is
      ].join('\n')
    )
    // a and b change nothing (each keeps its pending change, the listing having the file's value): up to date, with c and f.
    expect(report).toMatchObject({ rows: 6, staged: 2, stagedRows: 2, replaced: 1, kept: 2, unchanged: 4, blankValues: 0, problems: [] })
    const staged = () =>
      workspace.bulk
        .changes({ page: 1, take: 10, only: 'all' })
        .rows.map((r) => [r.sellRequestId, r.field, r.after])
        .sort()
    expect(staged()).toEqual(
      [
        [a!.id, 'priceCents', a!.priceCents + 100],
        [b!.id, 'quantity', b!.quantity + 1],
        [c!.id, 'priceCents', c!.priceCents + 200],
        [d!.id, 'quantity', d!.quantity + 9],
        [e!.id, 'priceCents', e!.priceCents + 1]
      ].sort()
    )
    // One undo step takes the import back, the replaced change included.
    expect((await workspace.bulk.undo()).changes).toBe(4)
    expect(staged()).toContainEqual([d!.id, 'quantity', d!.quantity + 5])
    await workspace.bulk.discard()
  })

  it('an export made before changes were staged, imported back, keeps every pending change and says so (CSV and XLSX)', async () => {
    const [a, b, c] = rows
    await workspace.bulk.discard()
    const ids = rows.map((row) => row.id)
    const files = await Promise.all(
      (['csv', 'xlsx'] as const).map(
        async (format) => [format, Buffer.from((await workspace.bulk.exportFile(format, { kind: 'listings', selection: { ids } })).base64, 'base64')] as const
      )
    )
    workspace.bulk.stage([
      { sellRequestId: a!.id, priceCents: a!.priceCents + 100 },
      { sellRequestId: b!.id, quantity: b!.quantity + 1 },
      { sellRequestId: c!.id, priceCents: c!.priceCents + 1, quantity: c!.quantity + 2 }
    ])
    for (const [format, file] of files) {
      const report = await workspace.bulk.importFile(`export.${format}`, file)
      // Every row changes nothing, the three keeping pending changes included.
      expect(report, format).toMatchObject({ rows: rows.length, staged: 0, stagedRows: 0, replaced: 0, kept: 4, unchanged: rows.length, problems: [] })
      expect(report.changeSet.changes, format).toBe(4)
    }
    await workspace.bulk.discard()
  })

  it('reads a semicolon CSV with a UTF-8 BOM, headers in any case, keyed by SKU', async () => {
    const row = uniqueSku()
    const report = await importClean('export.csv', bytes(`\uFEFFSKU;Quantity;PRICE\r\n${row.sku};3;9.99\r\n`))
    expect(report).toMatchObject({ rows: 1, staged: row.priceCents === 999 || row.quantity === 3 ? 1 : 2, problems: [] })
  })

  it('finds a listing by its SKU in another letter case and with spaces around it', async () => {
    const row = uniqueSku()
    const written = ` ${row.sku.toLowerCase()} `
    expect(written.trim()).not.toBe(row.sku)
    await workspace.bulk.discard()
    try {
      const report = await importText(`sku,quantity\n"${written}",${row.quantity + 1}\n`)
      expect(report).toMatchObject({ rows: 1, staged: 1, problems: [] })
      const staged = workspace.bulk.changes({ page: 1, take: 10, only: 'all' }).rows.map((r) => [r.sellRequestId, r.field, r.after])
      expect(staged).toEqual([[row.id, 'quantity', row.quantity + 1]])
    } finally {
      await workspace.bulk.discard()
    }
  })

  it('reads XLSX, numbers as numbers', async () => {
    const [a] = rows
    const file = await writeXlsxFile([
      ['id', 'price', 'quantity'],
      [a!.id, 15.5, 4],
      [a!.id.toUpperCase().replace(/-/g, '-'), null, null]
    ]).toBuffer()
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
    expect(byRow[2]).toBe('Price “12.345” has more than two decimals.')
    expect(byRow[3]).toMatch(/^Quantity “-3” cannot be negative\./)
    expect(byRow[4]).toBe('Price “1e309” is not a number.')
    expect(byRow[5]).toBe('No id or SKU on this row.')
    expect(byRow[6]).toMatch(/No listing with id/)
    expect(byRow[7]).toMatch(/No listing with SKU “no-such-sku”/)
    expect(byRow[8]).toBe('Price “=1+1” is not a number.')
    expect(byRow[9]).toBe('Price “0” must be more than 0.')
    expect(byRow[10]).toMatch(/appears on rows 10, 11/)
    expect(byRow[11]).toMatch(/appears on rows 10, 11/)
    expect(byRow[12]).toBeUndefined()
    if (shared) expect(byRow[13]).toMatch(/belongs to \d+ listings: use the id column/)
    expect(report.staged).toBe(2) // row 12 only: price and quantity
    // Every row counted once: the one that staged two changes, and the rest not used.
    expect(report).toMatchObject({ rows: lines.length - 1, stagedRows: 1, unchanged: 0, blankValues: 0 })
    expect(report.stagedRows + report.unchanged + report.blankValues + report.problems.length + report.moreProblems).toBe(report.rows)
  })

  it('counts the staged changes with warnings, as the change set marks them', async () => {
    const deep = rows.find((row) => row.quantity >= 20 && row.priceCents >= 100)!
    const [other] = rows.filter((row) => row.id !== deep.id)
    const price = (cents: number) => (cents / 100).toFixed(2)
    // A price rise of 308% and a quantity cut of 95% (past the default rules' 50% and 90%), and a move of 1 cent.
    const rise = Math.round(deep.priceCents * 4.08)
    const cut = Math.ceil(deep.quantity * 0.05)
    const report = await importClean(
      'warned.csv',
      bytes(['id,price,quantity', `${deep.id},${price(rise)},${cut}`, `${other!.id},${price(other!.priceCents + 1)},`].join('\n'))
    )
    expect(report).toMatchObject({ rows: 2, staged: 3, stagedRows: 2, warnings: 2, problems: [] })
    expect(report.changeSet.warnings).toBe(2)
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
    await workspace.bulk.discard()
    for (const [name, content, message] of cases) {
      await expect(workspace.bulk.importFile(name, content), name).rejects.toMatchObject({ kind: 'invalid-input', message: expect.stringMatching(message) })
      expect(workspace.bulk.preview().changes).toBe(0)
    }
  })

  it('reads a hand-built workbook, so the zip checks below refuse only what they should', async () => {
    const [a] = rows
    const file = workbook(
      sheetXml(
        `<row r="1">${inlineCell('A1', 'id')}${inlineCell('B1', 'quantity')}</row><row r="2">${inlineCell('A2', a!.id)}<c r="B2"><v>${a!.quantity + 5}</v></c></row>`
      )
    )
    const report = await importClean('hand.xlsx', file)
    expect(report).toMatchObject({ format: 'xlsx', rows: 1, staged: 1, problems: [] })
  })

  it('refuses an .xlsx that unpacks to more than the limit (a zip bomb), whether its directory tells the size or hides it', async () => {
    expect(WORKBOOK_MAX_UNPACKED_BYTES).toBe(200 * 1024 * 1024)
    const megabytes = WORKBOOK_MAX_UNPACKED_BYTES / 1024 / 1024 + 10
    const compressed = await deflatedSpaces(megabytes)
    expect(compressed.length).toBeLessThan(1024 * 1024) // a small file…
    const honest = workbook({ compressed, declaredSize: megabytes * 1024 * 1024 }) // …that says how large it unpacks
    const lying = workbook({ compressed, declaredSize: 1234 }) // …and one whose directory claims 1,234 bytes
    await workspace.bulk.discard()
    for (const [name, file] of [
      ['honest-bomb.xlsx', honest],
      ['lying-bomb.xlsx', lying]
    ] as const) {
      expect(file.length, name).toBeLessThan(BULK_IMPORT_MAX_BYTES)
      await expect(workspace.bulk.importFile(name, file), name).rejects.toMatchObject({
        kind: 'invalid-input',
        message: expect.stringMatching(
          new RegExp(
            `^${name.replace('.', '\\.')}: the workbook unpacks to more than 200 MB, more than Seller Desk reads at once\\. Split it into smaller files, or export it as CSV\\.$`
          )
        )
      })
      expect(workspace.bulk.preview().changes).toBe(0)
    }
  })

  it('refuses an .xlsx with too many entries, or entries that overlap or hide data', async () => {
    const many = workbook(
      sheetXml(''),
      Array.from({ length: WORKBOOK_MAX_ENTRIES }, (_, i) => ({ name: `xl/media/x${i}.bin`, data: Buffer.from('x') }))
    )
    await expect(workspace.bulk.importFile('many.xlsx', many)).rejects.toMatchObject({
      message: expect.stringMatching(/^many\.xlsx: the workbook holds 2,005 files inside; Seller Desk reads at most 2,000/)
    })

    // An entry the directory does not list, hidden between two listed ones (a stream reader would unpack it).
    const good = workbook(sheetXml(''))
    const hidden = Buffer.concat([
      zip([{ name: 'hidden.xml', data: Buffer.alloc(1000, 0x20) }]).subarray(0, 30 + 10 + deflateRawSync(Buffer.alloc(1000, 0x20)).length)
    ])
    const directoryStart = good.readUInt32LE(good.length - 22 + 16)
    const smuggled = Buffer.concat([good.subarray(0, directoryStart), hidden, good.subarray(directoryStart)])
    smuggled.writeUInt32LE(directoryStart + hidden.length, smuggled.length - 22 + 16)
    await expect(workspace.bulk.importFile('smuggled.xlsx', smuggled)).rejects.toMatchObject({
      message: expect.stringMatching(/could not be read as an Excel workbook \(\.xlsx\) \(its entries overlap or hide data between them\)/)
    })
    expect(workspace.bulk.preview().changes).toBe(0)
  })

  it('refuses a formula in a price or quantity cell of an .xlsx (never takes its value), row by row', async () => {
    const [a, b, c] = rows
    const file = workbook(
      sheetXml(
        [
          `<row r="1">${inlineCell('A1', 'id')}${inlineCell('B1', 'price')}${inlineCell('C1', 'quantity')}</row>`,
          `<row r="2">${inlineCell('A2', a!.id)}<c r="B2"><f>10*2</f><v>20</v></c><c r="C2"><v>3</v></c></row>`, // cached value 20
          `<row r="3">${inlineCell('A3', b!.id)}<c r="B3"><v>19.99</v></c><c r="C3"><f t="shared" ref="C3:C3" si="0">1+1</f></c></row>`, // no cached value
          `<row r="4">${inlineCell('A4', c!.id)}<c r="B4"><v>${((c!.priceCents + 1) / 100).toFixed(2)}</v></c><c r="C4"><v>${c!.quantity}</v></c></row>`
        ].join('')
      )
    )
    expect(checkWorkbookArchive(file)).toMatchObject({ ok: true, formulaCells: new Set(['2:1', '3:2']) })
    const report = await importClean('formulas.xlsx', file)
    expect(report.problems).toEqual([
      {
        row: 2,
        message:
          'Price (cell B2) is a formula, and the value a formula last computed is not taken (it may be out of date): paste the column as values (Paste Special, Values) or type the price itself.'
      },
      {
        row: 3,
        message:
          'Quantity (cell C3) is a formula, and the value a formula last computed is not taken (it may be out of date): paste the column as values (Paste Special, Values) or type the quantity itself.'
      }
    ])
    expect(report.staged).toBe(1) // row 4 only
  })

  it('names UTF-16 text without a byte-order mark, and reads UTF-16 with one', async () => {
    const [a] = rows
    const text = `id,quantity\n${a!.id},${a!.quantity + 2}\n`
    const utf16 = Buffer.from(text, 'utf16le')
    await expect(importClean('utf16.csv', utf16)).rejects.toMatchObject({
      kind: 'invalid-input',
      message: expect.stringMatching(/^utf16\.csv: the text is UTF-16 without a byte-order mark/)
    })
    const withBom = Buffer.concat([Buffer.from([0xff, 0xfe]), utf16])
    expect(await importClean('utf16-bom.csv', withBom)).toMatchObject({ rows: 1, staged: 1, problems: [] })
  })

  it('offers in the picker the .txt files Excel saves as Unicode Text (UTF-16 with a byte-order mark, tabs, CRLF) and as Text (Tab delimited), which the importer reads', async () => {
    const [a, b] = rows
    const text = `id\tprice\tquantity\r\n${a!.id}\t${((a!.priceCents + 5) / 100).toFixed(2)}\t${a!.quantity}\r\n${b!.id}\t${(b!.priceCents / 100).toFixed(2)}\t${b!.quantity + 1}\r\n`
    const unicodeText = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')])
    expect(await importClean('Unicode Text.txt', unicodeText)).toMatchObject({ rows: 2, staged: 2, problems: [] })
    expect(await importClean('Tab delimited.txt', Buffer.from(text))).toMatchObject({ rows: 2, staged: 2, problems: [] })
    for (const type of ['.txt', '.tsv', '.csv', '.xlsx']) expect(BULK_IMPORT_ACCEPT.split(',')).toContain(type)
  })

  it('refuses an over-size file at the contract too, and a file that is not bytes', async () => {
    const { calls } = await import('../../shared/contract')
    const input = calls['bulk.importFile'].input
    const parsed = input.safeParse({ account: 'demo', fileName: 'x.csv', bytes: new Uint8Array(BULK_IMPORT_MAX_BYTES + 1) })
    expect(parsed.success).toBe(false)
    expect(parsed.error?.issues[0]?.message).toMatch(/larger than 20 MB/)
    expect(input.safeParse({ account: 'demo', fileName: 'x.csv', bytes: new Uint8Array(BULK_IMPORT_MAX_BYTES) }).success).toBe(true)
    for (const bytes of ['aWQscHJpY2U=', [105, 100], { 0: 105 }, null])
      expect(input.safeParse({ account: 'demo', fileName: 'x.csv', bytes }).success, String(bytes)).toBe(false)
  })
})

describe('export', () => {
  it('exports then imports the same listings (CSV and XLSX) staging nothing and reporting no problems, with formula-like SKUs and names', async () => {
    const [, , , , , p, q, r] = rows
    const texts: [SellRequest, Partial<Record<'sku' | 'name' | 'brand', string>>][] = [
      [p!, { sku: '-ABC', name: '=SUM(A1:A2)', brand: '@brand' }],
      [q!, { sku: "'+44-odd", name: "'-quoted already" }],
      [r!, { sku: '+XYZ-1' }]
    ]
    for (const [row, fields] of texts) {
      Object.assign(sandbox.state.sellRequest(row.id)!, fields)
      sandbox.state.editSellRequest(row.id, {}, Date.now())
    }
    await workspace.sync.sync()
    const ids = texts.map(([row]) => row.id)
    await workspace.bulk.discard()
    const csv = Buffer.from((await workspace.bulk.exportFile('csv', { kind: 'listings', selection: { ids } })).base64, 'base64')
    const xlsx = Buffer.from((await workspace.bulk.exportFile('xlsx', { kind: 'listings', selection: { ids } })).base64, 'base64')
    expect(csv.toString('utf8')).toContain(",'-ABC,'=SUM(A1:A2),'@brand,")
    const sheet = await readSheet(xlsx)
    // Written as text cells, as they are; only text that already begins with ' before a formula character gets one more.
    expect(sheet.slice(1).map((cells) => cells[1])).toEqual(expect.arrayContaining(['-ABC', "''+44-odd", '+XYZ-1']))

    for (const [name, file] of [
      ['same.csv', csv],
      ['same.xlsx', xlsx]
    ] as const) {
      expect(await importClean(name, file), name).toMatchObject({ rows: 3, staged: 0, unchanged: 3, problems: [], moreProblems: 0 })
    }
    // Keyed by SKU alone (the id column renamed away): "'-ABC" in the file is the listing with SKU "-ABC".
    const bySku = Papa.parse<string[]>(csv.toString('utf8').replace(/^\uFEFF/, '')).data.filter((cells) => cells.length > 1)
    bySku[0]![0] = 'listing id'
    const bySkuCsv = Buffer.from(
      Papa.unparse(bySku.map((cells, i) => (i === 0 ? cells : [...cells.slice(0, 6), String(Number(cells[6]) + 1), ...cells.slice(7)])))
    )
    const report = await importClean('by-sku.csv', bySkuCsv)
    expect(report).toMatchObject({ rows: 3, staged: 3, problems: [] })
    // A workbook holding the escaped text (an old export, or the CSV saved as .xlsx) matches too.
    const old = await writeXlsxFile([
      ['sku', 'quantity'],
      ["'-ABC", p!.quantity]
    ]).toBuffer()
    expect(await importClean('old.xlsx', old)).toMatchObject({ rows: 1, staged: 0, unchanged: 1, problems: [] })
  })

  it('exports listings with pending values (CSV and XLSX) that import back to the same change set', async () => {
    const [a, b] = rows
    await workspace.bulk.discard()
    workspace.bulk.stage([
      { sellRequestId: a!.id, priceCents: a!.priceCents + 100 },
      { sellRequestId: b!.id, quantity: b!.quantity + 1 }
    ])
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
    expect(sheet[0]).toEqual(listingsHeader())
    // XLSX: the name is a string cell (a spreadsheet never runs it), so it is written as it is, with no formula in the file.
    expect(sheet[1]![2]).toBe(`=cmd|"/c calc"!A1`)
    expect(checkWorkbookArchive(Buffer.from(xlsx.base64, 'base64'))).toMatchObject({ ok: true, formulaCells: new Set() })

    // Round trip: a fresh change set, importing either file stages the same two changes (a's base moved: staged anew).
    for (const [name, file] of [
      ['back.csv', csv],
      ['back.xlsx', xlsx]
    ] as const) {
      const report = await importClean(name, Buffer.from(file.base64, 'base64'))
      expect(report, name).toMatchObject({ rows: 2, staged: 2, problems: [] })
    }
  })
})
