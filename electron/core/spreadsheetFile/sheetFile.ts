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
 * An XLSX has column widths and a frozen header row.
 */
import Papa from 'papaparse'
import type { ExportedFile } from '../../shared/contract'
import { decimalStringFromCents, dollarsFromCents } from '../../shared/money'
import { localIsoWithOffset, zoneOffsetMs } from '../localCalendar'
import { neutralizeFormula, workbookText, type FormulaGuard } from './formulaGuard'

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

export const XLSX_MIME_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'
const DATE_TIME_FORMAT = 'yyyy-mm-dd hh:mm:ss'
const MONEY_FORMAT = '0.00'

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

/** A cell as the XLSX writer takes it. */
function workbookCell(cell: Cell, guard: FormulaGuard) {
  if (cell === null) return null
  if (typeof cell === 'string') return { value: workbookText(cell, guard), type: String }
  if (typeof cell === 'number') return { value: cell, type: Number }
  if ('cents' in cell) return { value: dollarsFromCents(cell.cents), type: Number, format: MONEY_FORMAT }
  // A date cell is a wall-clock time; the writer reads a Date's UTC fields, so the zone's offset is added.
  // To the whole second, as the CSV writes it: the format shows seconds, and a spreadsheet would round
  // a fraction up into the next one.
  const ms = Math.floor(Date.parse(cell.at) / 1000) * 1000
  return { value: new Date(cell.timeZone ? ms + zoneOffsetMs(ms, cell.timeZone) : ms), type: Date, format: DATE_TIME_FORMAT }
}

/** The sheet as .xlsx bytes. */
export async function workbookBytes(sheet: Sheet): Promise<Buffer> {
  const header = sheet.header.map((title) => ({ value: title, fontWeight: 'bold' as const }))
  const data = sheet.rows.map((row) => row.map((cell) => workbookCell(cell, sheet.guard)))
  // Loaded with the first workbook written, not at every start of the core.
  const { default: writeXlsxFile } = await import('write-excel-file/node')
  return writeXlsxFile([header, ...data], { columns: sheet.widths.map((width) => ({ width })), stickyRowsCount: 1 }).toBuffer()
}

export async function writeSheet(sheet: Sheet, format: 'csv' | 'xlsx'): Promise<ExportedFile> {
  if (format === 'csv') {
    const data = sheet.rows.map((row) => row.map((cell) => csvCellText(cell, sheet.guard)))
    // With a BOM, Excel reads the file as UTF-8.
    const text = `\uFEFF${Papa.unparse({ fields: sheet.header, data })}\r\n`
    return { fileName: `${sheet.name}.csv`, mimeType: 'text/csv', base64: Buffer.from(text, 'utf8').toString('base64'), rows: sheet.rows.length }
  }
  const bytes = await workbookBytes(sheet)
  return { fileName: `${sheet.name}.xlsx`, mimeType: XLSX_MIME_TYPE, base64: bytes.toString('base64'), rows: sheet.rows.length }
}
