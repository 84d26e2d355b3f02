/**
 * Exporting listings (with their pending values) and a batch's failed changes to CSV or XLSX, in main.
 * The files are shaped so they can be edited and imported again: `id`, `sku`, `price` and `quantity`
 * columns (price and quantity are the values the seller wants), the current values beside them.
 * In CSV, text cells that a spreadsheet would run as a formula (starting with =, +, -, @, tab or CR)
 * are prefixed with ' so they stay text. In XLSX every text cell is written as a string, which a
 * spreadsheet never runs, so it needs no prefix. Import removes the prefix again (an SKU “-ABC” exported
 * as “'-ABC” matches “-ABC”); text that itself begins with ' before such a character gets one more, so
 * the round trip is exact in both formats.
 */
import Papa from 'papaparse'
import writeXlsxFile from 'write-excel-file/node'
import type { BatchRow, ExportedFile } from '../contract'
import { decimalStringFromCents, dollarsFromCents } from '../money'
import type { CurrentListing } from './currentListings'

/** A cell: text, or a number (an amount of money is kept as cents and written in dollars). */
type Cell = string | number | { cents: number } | null

export interface Sheet {
  /** The file name without extension. */
  name: string
  header: string[]
  rows: Cell[][]
}

/** CSV: a text cell a spreadsheet could run as a formula, made plain text. */
export function neutraliseFormula(text: string): string {
  return /^'*[=+\-@\t\r]/.test(text) ? `'${text}` : text
}

/** XLSX: string cells never run, so only text that import would take for an escaped formula gets the prefix. */
function escapeForWorkbook(text: string): string {
  return /^'+[=+\-@\t\r]/.test(text) ? `'${text}` : text
}

/** Import: undoes `neutraliseFormula` / `escapeForWorkbook` (one leading ' before a formula character). */
export function withoutFormulaEscape(text: string): string {
  return text.charCodeAt(0) === 0x27 && /^'+[=+\-@\t\r]/.test(text) ? text.slice(1) : text
}

export function listingsSheet(listings: CurrentListing[], pending: (id: string) => { priceCents?: number | undefined; quantity?: number | undefined }, day: string): Sheet {
  return {
    name: `sell-requests-${day}`,
    header: ['id', 'sku', 'name', 'brand', 'status', 'price', 'quantity', 'current price', 'current quantity', 'pending'],
    rows: listings.map((listing) => {
      const wanted = pending(listing.id)
      const changed = wanted.priceCents !== undefined || wanted.quantity !== undefined
      return [
        listing.id, listing.sku, listing.name, listing.brand, listing.status,
        { cents: wanted.priceCents ?? listing.priceCents }, wanted.quantity ?? listing.quantity,
        { cents: listing.priceCents }, listing.quantity, changed ? 'yes' : ''
      ]
    })
  }
}

/** A batch's failed changes, one row per listing, importable again once fixed. */
export function failedSheet(rows: BatchRow[], day: string): Sheet {
  const byListing = new Map<string, { row: BatchRow; priceCents?: number; quantity?: number; messages: Set<string> }>()
  for (const row of rows) {
    let entry = byListing.get(row.sellRequestId)
    if (!entry) byListing.set(row.sellRequestId, (entry = { row, messages: new Set() }))
    if (row.field === 'priceCents') entry.priceCents = row.after
    else entry.quantity = row.after
    if (row.message) entry.messages.add(`${row.status}: ${row.message}`)
  }
  return {
    name: `failed-changes-${day}`,
    header: ['id', 'sku', 'name', 'price', 'quantity', 'problem'],
    rows: [...byListing.values()].map(({ row, priceCents, quantity, messages }) => [
      row.sellRequestId, row.sku, row.name, priceCents === undefined ? null : { cents: priceCents }, quantity ?? null, [...messages].join(' ')
    ])
  }
}

export async function writeSheet(sheet: Sheet, format: 'csv' | 'xlsx'): Promise<ExportedFile> {
  if (format === 'csv') {
    const data = sheet.rows.map((row) =>
      row.map((cell) => (cell === null ? '' : typeof cell === 'string' ? neutraliseFormula(cell) : typeof cell === 'number' ? String(cell) : decimalStringFromCents(cell.cents)))
    )
    // With a BOM, Excel reads the file as UTF-8.
    const text = `\uFEFF${Papa.unparse({ fields: sheet.header, data })}\r\n`
    return { fileName: `${sheet.name}.csv`, mimeType: 'text/csv', base64: Buffer.from(text, 'utf8').toString('base64') }
  }
  const header = sheet.header.map((title) => ({ value: title, fontWeight: 'bold' as const }))
  const data = sheet.rows.map((row) =>
    row.map((cell) => {
      if (cell === null) return null
      if (typeof cell === 'string') return { value: escapeForWorkbook(cell), type: String }
      if (typeof cell === 'number') return { value: cell, type: Number }
      return { value: dollarsFromCents(cell.cents), type: Number, format: '0.00' }
    })
  )
  const bytes = await writeXlsxFile([header, ...data]).toBuffer()
  return {
    fileName: `${sheet.name}.xlsx`,
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    base64: bytes.toString('base64')
  }
}
