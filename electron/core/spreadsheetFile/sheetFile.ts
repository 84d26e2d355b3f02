/**
 * The one writer of export files, CSV and XLSX, for every export (orders, listings, failed changes).
 * A sheet is typed cell by cell, so each format writes what a spreadsheet should read:
 *
 * - text: in XLSX a string cell, which a spreadsheet never takes for a number or a formula (a 22-digit
 *   tracking number and "012345" stay exactly as written); in CSV guarded against formulas
 *   (formulaGuard.ts);
 * - a number (a count);
 * - money, kept as cents: in XLSX a number shown with two decimals, in CSV "1299.99";
 * - an instant: the wall clock in a zone (UTC unless the cell names one; the column's header names it
 *   too, as an XLSX date cell has no zone): in XLSX a date cell with a date-time format, in CSV
 *   "2026-11-24 05:31:15", a form Excel and LibreOffice parse as a date-time in any locale.
 *
 * An XLSX has column widths and a frozen header row, and is made a part of its rows at a time
 * (workbookFile.ts).
 */
import Papa from 'papaparse'
import type { ExportedFile } from '../../shared/contract'
import { SellerDeskError } from '../../shared/errors'
import { formatCount, formatNumber } from '../../shared/formatCount'
import { decimalStringFromCents } from '../../shared/money'
import { createPause } from '../eventLoopTurns'
import { localIsoWithOffset } from '../localCalendar'
import { neutralizeFormula, type FormulaGuard } from './formulaGuard'
import { workbookWriter } from './workbookFile'

/** A cell: text, a number, an amount of money (kept as cents, written in dollars), or an instant (ISO) on the wall clock of `timeZone` (UTC when absent). */
export type Cell = string | number | { cents: number } | { at: string; timeZone?: string } | null

export interface Sheet {
  /** The file name without extension. */
  name: string
  header: string[]
  /** Column widths in characters (XLSX), one per header. */
  widths: number[]
  rows: Cell[][]
  /** How its text is kept from running as a formula: whether the import reads the file back. */
  guard: FormulaGuard
}

/** Rows an XLSX sheet holds, its header's included: Excel opens none with more. */
const XLSX_MAX_ROWS = 1_048_576

export const XLSX_MIME_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'

/** An instant as a spreadsheet reads a date-time in CSV: "2026-11-24 05:31:15" (UTC). */
export function csvDateTime(iso: string): string {
  return new Date(iso).toISOString().slice(0, 19).replace('T', ' ')
}

/** An instant as a spreadsheet reads a local date-time in CSV: "2026-11-20 00:30:00". */
export function csvLocalDateTime(ms: number, timeZone: string): string {
  return localIsoWithOffset(ms, timeZone).slice(0, 19).replace('T', ' ')
}

/** A cell as CSV text. */
export function csvCellText(cell: Cell, guard: FormulaGuard): string {
  if (cell === null) return ''
  if (typeof cell === 'string') return neutralizeFormula(cell, guard)
  if (typeof cell === 'number') return String(cell)
  if ('cents' in cell) return decimalStringFromCents(cell.cents)
  return cell.timeZone ? csvLocalDateTime(Date.parse(cell.at), cell.timeZone) : csvDateTime(cell.at)
}

/** Rows of a sheet the XLSX writer takes at a time: a turn of the core holds a few of them at most. */
const WORKBOOK_PART = 200

/** The sheet as .xlsx bytes, a part of its rows at a time with turns of the core between (workbookFile.ts). */
export async function workbookBytes(sheet: Sheet): Promise<Buffer> {
  const workbook = workbookWriter(sheet)
  try {
    const pause = createPause()
    for (let from = 0; from < sheet.rows.length; from += WORKBOOK_PART) {
      await pause()
      await workbook.add(sheet.rows.slice(from, from + WORKBOOK_PART))
    }
    return await workbook.done()
  } catch (error) {
    workbook.abort()
    throw error
  }
}

export async function writeSheet(sheet: Sheet, format: 'csv' | 'xlsx'): Promise<ExportedFile> {
  if (format === 'csv') {
    const data = sheet.rows.map((row) => row.map((cell) => csvCellText(cell, sheet.guard)))
    // With a BOM, Excel reads the file as UTF-8.
    const text = `\uFEFF${Papa.unparse({ fields: sheet.header, data })}\r\n`
    return { fileName: `${sheet.name}.csv`, mimeType: 'text/csv', base64: Buffer.from(text, 'utf8').toString('base64'), rows: sheet.rows.length }
  }
  if (sheet.rows.length > XLSX_MAX_ROWS - 1)
    throw new SellerDeskError(
      'invalid-input',
      `This export has ${formatCount(sheet.rows.length, 'row', 'rows')}, more than a spreadsheet holds (${formatNumber(XLSX_MAX_ROWS - 1)} below its header). Export it as CSV, or narrow it first.`
    )
  const bytes = await workbookBytes(sheet)
  return { fileName: `${sheet.name}.xlsx`, mimeType: XLSX_MIME_TYPE, base64: bytes.toString('base64'), rows: sheet.rows.length }
}
