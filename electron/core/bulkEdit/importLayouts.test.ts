/**
 * Files as sellers lay them out: headers as they write them (“Qty”, “Price ($)”, the grid's “New price”),
 * a title above the header row, the data on another sheet than the first, and a header with nothing
 * below it. Workbooks are written with openpyxl (Debian's python3-openpyxl), a writer that shares no
 * code with the app's; those tests are skipped where it is not installed.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { importChanges, listingFinder, readImportTable } from './importFile'
import { importListing } from './importListing.fixture'
import { checkWorkbookArchive } from './workbookArchive'
import { hasOpenpyxl, PYTHON } from '../spreadsheetFile/openpyxl.fixture'

/**
 * Writes a workbook: sheets in order, each a title and rows of cells (None for an empty cell, text
 * starting with = for a formula, "date:2026-01-05" for a date), hidden or not; the sheet it opens on is `active` (the first by default).
 */
const WRITE_WORKBOOK = `
import datetime, json, sys, openpyxl
sheets = json.loads(sys.argv[2])
wb = openpyxl.Workbook()
wb.remove(wb.active)
for sheet in sheets:
    ws = wb.create_sheet(sheet['title'])
    if sheet.get('hidden'):
        ws.sheet_state = 'hidden'
    for r, row in enumerate(sheet['rows'], start=1):
        for c, value in enumerate(row, start=1):
            if isinstance(value, str) and value.startswith('date:'):
                ws.cell(row=r, column=c, value=datetime.datetime.fromisoformat(value[5:]))
            elif value is not None:
                ws.cell(row=r, column=c, value=value)
active = next((i for i, sheet in enumerate(sheets) if sheet.get('active')), next(i for i, sheet in enumerate(sheets) if not sheet.get('hidden')))
wb.active = active
wb.save(sys.argv[1])
`

type Cell = string | number | null

const dir = mkdtempSync(join(tmpdir(), 'sd-import-layouts-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function workbook(sheets: { title: string; rows: Cell[][]; hidden?: boolean; active?: boolean }[]): Buffer {
  const file = join(dir, `book-${Math.random().toString(36).slice(2)}.xlsx`)
  execFileSync(PYTHON, ['-c', WRITE_WORKBOOK, file, JSON.stringify(sheets)])
  return readFileSync(file)
}

const listing = importListing
const finder = listingFinder([1, 2, 3, 4].map(listing))

/** What a file stages, as `listing:field` → value, and its problems by row. */
async function importOf(name: string, content: string | Uint8Array) {
  const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : content
  const result = await importChanges(name, await readImportTable(name, bytes), finder)
  const values = Object.fromEntries(result.proposed.map((change) => [`${change.sellRequestId.slice(-1)}:${change.field}`, change.after]))
  const problems = Object.fromEntries(result.problems.map((problem) => [problem.row, problem.message]))
  return { rows: result.rows, values, problems, ...(result.sheet !== null ? { sheet: result.sheet } : {}) }
}

const refusal = (message: string) => ({ kind: 'invalid-input', message })

describe('column headers as sellers write them', () => {
  it('reads “Qty”, “Price ($)”, “Price (USD)”, “Quantity (units)” and “SKU code”, in any case and spacing', async () => {
    expect(await importOf('a.csv', 'SKU,Qty,Price ($)\nSKU-1,5,2.50\n')).toMatchObject({ values: { '1:quantity': 5, '1:priceCents': 250 }, problems: {} })
    expect(await importOf('b.csv', 'sku code;PRICE (USD);Quantity (units)\nSKU-2;3.00;7\n')).toMatchObject({
      values: { '2:priceCents': 300, '2:quantity': 7 },
      problems: {}
    })
    expect(await importOf('c.csv', ' Sku ,  price( $ ) , QTY   (pcs)\nSKU-3,4,8\n')).toMatchObject({ values: { '3:priceCents': 400, '3:quantity': 8 } })
  })

  it('reads files other selling tools export: Amazon’s listings report, Shopify’s products export, eBay’s File Exchange', async () => {
    const amazon = ['item-name\titem-description\tlisting-id\tseller-sku\tprice\tquantity\topen-date', 'Phone A\t\t1127AB\tSKU-1\t12.50\t4\t2026-01-02']
    expect(await importOf('Active+Listings+Report.txt', amazon.join('\r\n'))).toMatchObject({ values: { '1:priceCents': 1250, '1:quantity': 4 }, problems: {} })
    const shopify = ['Handle,Title,Variant SKU,Variant Price,Variant Compare At Price,Variant Inventory Qty', 'phone-b,Phone B,SKU-2,20.00,25.00,9']
    expect(await importOf('products_export.csv', shopify.join('\n'))).toMatchObject({ values: { '2:priceCents': 2000, '2:quantity': 9 }, problems: {} })
    const ebay = ['Action,Item number,Title,Custom label (SKU),Start price,Available quantity', 'Revise,2951,Phone C,SKU-3,30.00,6']
    expect(await importOf('ebay.csv', ebay.join('\n'))).toMatchObject({ values: { '3:priceCents': 3000, '3:quantity': 6 }, problems: {} })
  })

  it('reads the grid’s own column titles, “New price” and “New qty”', async () => {
    const { values } = await importOf('grid.csv', `ID,New price,New qty\n${listing(4).id},9.99,12\n`)
    expect(values).toEqual({ '4:priceCents': 999, '4:quantity': 12 })
  })

  it('does not read a price in another currency, or a current value, as the price: only the names it knows', async () => {
    const { values } = await importOf('other.csv', 'sku,Price (EUR),Current price,qty\nSKU-1,8.00,1.00,4\n')
    expect(values).toEqual({ '1:quantity': 4 })
    await expect(importOf('euros.csv', 'sku,Price (EUR),Unit cost\nSKU-1,8.00,1\n')).rejects.toMatchObject(
      refusal('euros.csv: the file needs a “price” or “quantity” column (columns found: “sku”, “Price (EUR)”, “Unit cost”).')
    )
    // “Listing id” is not the id: a file keyed by SKU may carry it beside.
    await expect(importOf('listing-id.csv', 'Listing id,qty\nx,1\n')).rejects.toMatchObject(
      refusal('listing-id.csv: the file needs an “id” or “sku” column to know which listing each row changes (columns found: “Listing id”, “qty”).')
    )
  })

  it('names the columns found as the file writes them, a German semicolon file’s too', async () => {
    await expect(importOf('preise.csv', '\uFEFFSKU;Preis;Menge\r\nSKU-1;12,50;3\r\n')).rejects.toMatchObject(
      refusal('preise.csv: the file needs a “price” or “quantity” column (columns found: “SKU”, “Preis”, “Menge”).')
    )
  })

  it('refuses a column there twice under two of its names, naming both', async () => {
    await expect(importOf('twice.csv', 'sku,qty,Quantity\nSKU-1,1,2\n')).rejects.toMatchObject(
      refusal('twice.csv: the column “quantity” appears twice (as “qty” and “Quantity”). Keep one.')
    )
    await expect(importOf('prices.csv', 'sku,Price ($),New price\nSKU-1,1,2\n')).rejects.toMatchObject(
      refusal('prices.csv: the column “price” appears twice (as “Price ($)” and “New price”). Keep one.')
    )
    await expect(importOf('keys.csv', 'SKU,SKU code,price\nSKU-1,SKU-1,2\n')).rejects.toMatchObject(
      refusal('keys.csv: the column “sku” appears twice (as “SKU” and “SKU code”). Keep one.')
    )
  })
})

describe('a title above the header row', () => {
  it('takes the first row naming an id or SKU column as the header; rows keep their numbers in the file', async () => {
    const file = ['Price update, November', '', 'sku,price', 'SKU-1,5.00', 'SKU-2,abc', 'SKU-3,6.00'].join('\n')
    expect(await importOf('titled.csv', file)).toEqual({
      rows: 3,
      values: { '1:priceCents': 500, '3:priceCents': 600 },
      problems: { 5: 'Price “abc” is not a number.' }
    })
  })

  it('with no such row among the first ten holding something, names the columns of the first', async () => {
    const notes = Array.from({ length: 10 }, (_, i) => `note ${i + 1},x`)
    await expect(importOf('late.csv', [...notes, 'sku,price', 'SKU-1,5.00'].join('\n'))).rejects.toMatchObject(
      refusal('late.csv: the file needs an “id” or “sku” column to know which listing each row changes (columns found: “note 1”, “x”).')
    )
    // Nine notes, then the header: read.
    expect(await importOf('nine.csv', [...notes.slice(0, 9), '', 'sku,price', 'SKU-1,5.00'].join('\n'))).toMatchObject({
      values: { '1:priceCents': 500 },
      problems: {}
    })
  })

  it.skipIf(!hasOpenpyxl)('in a workbook, a formula cell is still found by its row in the file', async () => {
    const file = workbook([
      {
        title: 'Prices',
        rows: [['Price update, November'], [], ['id', 'price', 'quantity'], [listing(1).id, '=2*5', 3], [listing(2).id, 12.5, null]]
      }
    ])
    expect(await importOf('titled.xlsx', file)).toEqual({
      rows: 2,
      values: { '2:priceCents': 1250 },
      problems: {
        4: 'Price (cell B4) is a formula, and the value a formula last computed is not taken (it may be out of date): paste the column as values (Paste Special, Values) or type the price itself.'
      }
    })
  })
})

describe.skipIf(!hasOpenpyxl)('a workbook with several sheets', () => {
  it('reads the first sheet with a header naming an id or SKU column, rows numbered as on that sheet', async () => {
    const file = workbook([
      { title: 'Read me', rows: [['Fill in the new prices on the next sheet.'], ['Leave a cell blank to keep the value.']] },
      { title: 'Notes', rows: [] },
      {
        title: 'Prices',
        rows: [['Price update, November'], ['SKU', 'Price (USD)', 'Qty'], ['SKU-1', 15.5, null], ['SKU-2', 'abc', 4], ['SKU-3', null, 9]]
      },
      {
        title: 'Later',
        rows: [
          ['sku', 'price'],
          ['SKU-4', 1]
        ]
      }
    ])
    expect(await importOf('book.xlsx', file)).toEqual({
      rows: 3,
      values: { '1:priceCents': 1550, '3:quantity': 9 },
      problems: { 4: 'Price “abc” is not a number.' },
      sheet: 'Prices'
    })
  })

  it('reads a number as the spreadsheet shows it (a computed value pasted as a value), and names a date cell by its day', async () => {
    const file = workbook([
      {
        title: 'Prices',
        rows: [
          ['SKU', 'Price', 'Qty'],
          ['SKU-1', 330.00000000000006, 2.9999999999999996],
          ['SKU-2', 1.1 * 3, null],
          ['SKU-3', 'date:2026-01-05', null],
          ['SKU-4', 'date:2026-01-05T14:30:00', 12.345]
        ]
      }
    ])
    // Stored as computed: neither is the round number, which only 15 significant digits show.
    expect([330.00000000000006, 2.9999999999999996, 1.1 * 3]).not.toContain(330)
    expect([2.9999999999999996, 1.1 * 3]).toEqual([3 - 2 ** -51, 3.3000000000000003])
    expect(await importOf('book.xlsx', file)).toEqual({
      rows: 4,
      values: { '1:priceCents': 33000, '1:quantity': 3, '2:priceCents': 330 },
      problems: {
        4: 'Price “2026-01-05” is not a number.',
        5: 'Price “2026-01-05 14:30” is not a number. Quantity “12.345” must be a whole number.'
      }
    })
  })

  it('refuses a formula on the sheet it reads, as on a first sheet; a formula on a sheet it does not read is no concern', async () => {
    const file = workbook([
      { title: 'Read me', rows: [['Totals'], ['=1+1']] },
      {
        title: 'Prices & stock',
        rows: [
          ['sku', 'price', 'quantity'],
          ['SKU-1', '=2*5', 3],
          ['SKU-2', 12.5, '=A1']
        ]
      }
    ])
    // (A row with a problem stages nothing of it.)
    expect(await importOf('book.xlsx', file)).toEqual({
      rows: 2,
      values: {},
      problems: {
        2: 'Price (cell B2) is a formula, and the value a formula last computed is not taken (it may be out of date): paste the column as values (Paste Special, Values) or type the price itself.',
        3: 'Quantity (cell C3) is a formula, and the value a formula last computed is not taken (it may be out of date): paste the column as values (Paste Special, Values) or type the quantity itself.'
      },
      sheet: 'Prices & stock'
    })
    const check = checkWorkbookArchive(file)
    expect(check).toMatchObject({ ok: true, formulaCells: new Set(['2:0']) })
    expect(check.ok && check.formulaCellsBySheet).toEqual(
      new Map([
        ['Read me', new Set(['2:0'])],
        ['Prices & stock', new Set(['2:1', '3:2'])]
      ])
    )
  })

  it('never reads a hidden sheet: the old values kept out of sight stay there, the visible sheet is read and named', async () => {
    const file = workbook([
      {
        title: 'Old',
        hidden: true,
        rows: [
          ['SKU', 'Price', 'Quantity'],
          ['SKU-1', 1, 0],
          ['SKU-2', 1, 0]
        ]
      },
      {
        title: 'Update',
        rows: [
          ['SKU', 'Price'],
          ['SKU-1', 25],
          ['SKU-2', 30]
        ]
      }
    ])
    expect(checkWorkbookArchive(file)).toMatchObject({
      ok: true,
      sheets: [
        { name: 'Old', hidden: true },
        { name: 'Update', hidden: false }
      ],
      activeSheet: 'Update'
    })
    expect(await importOf('book.xlsx', file)).toEqual({ rows: 2, values: { '1:priceCents': 2500, '2:priceCents': 3000 }, problems: {}, sheet: 'Update' })
  })

  it('reads the sheet the workbook opens on before the others; with only a hidden sheet holding a header, says so and reads none', async () => {
    const sheets = [
      {
        title: 'Last week',
        rows: [
          ['SKU', 'Price'],
          ['SKU-1', 10]
        ]
      },
      {
        title: 'This week',
        active: true,
        rows: [
          ['SKU', 'Price'],
          ['SKU-1', 12]
        ]
      }
    ]
    expect(await importOf('book.xlsx', workbook(sheets))).toEqual({ rows: 1, values: { '1:priceCents': 1200 }, problems: {}, sheet: 'This week' })

    const hiddenOnly = workbook([
      { title: 'Read me', rows: [['Prices are on the other sheet.']] },
      {
        title: 'Data',
        hidden: true,
        rows: [
          ['SKU', 'Price'],
          ['SKU-1', 1]
        ]
      }
    ])
    await expect(importOf('book.xlsx', hiddenOnly)).rejects.toMatchObject(
      refusal(
        'book.xlsx: the file needs an “id” or “sku” column to know which listing each row changes (columns found on sheet “Read me”: “Prices are on the other sheet.”; sheets read: “Read me”; hidden sheets, not read: “Data”).'
      )
    )
  })

  it('when no sheet has one, names the columns of the first holding something and every sheet read', async () => {
    const file = workbook([
      { title: 'Empty', rows: [] },
      { title: 'Read me', rows: [['How to fill this in', 'Who to ask']] },
      {
        title: 'Prices',
        rows: [
          ['Listing', 'Price'],
          ['A', 1]
        ]
      }
    ])
    await expect(importOf('book.xlsx', file)).rejects.toMatchObject(
      refusal(
        'book.xlsx: the file needs an “id” or “sku” column to know which listing each row changes (columns found on sheet “Read me”: “How to fill this in”, “Who to ask”; sheets read: “Empty”, “Read me”, “Prices”).'
      )
    )
  })
})

describe('a header row with no rows below it', () => {
  it('is refused, naming the file (CSV)', async () => {
    for (const [name, text] of [
      ['header.csv', 'sku,price\n'],
      ['bom.csv', '\uFEFFid;quantity\r\n\r\n;\r\n'],
      ['titled.csv', 'Prices for November\nsku,price']
    ]) {
      await expect(readImportTable(name!, new TextEncoder().encode(text)), name).rejects.toMatchObject(
        refusal(`${name!}: the file has a header row but no rows of changes below it.`)
      )
    }
  })

  it.skipIf(!hasOpenpyxl)('is refused, naming the file (XLSX), and the sheet when the workbook’s data is not on its first', async () => {
    await expect(readImportTable('header.xlsx', workbook([{ title: 'Sheet1', rows: [['id', 'price', 'quantity']] }]))).rejects.toMatchObject(
      refusal('header.xlsx: the file has a header row but no rows of changes below it.')
    )
    const later = workbook([
      { title: 'Read me', rows: [['Notes']] },
      {
        title: 'Prices',
        rows: [
          ['sku', 'price'],
          [null, null]
        ]
      }
    ])
    await expect(readImportTable('later.xlsx', later)).rejects.toMatchObject(
      refusal('later.xlsx: the file has a header row but no rows of changes below it (sheet “Prices”).')
    )
  })
})
