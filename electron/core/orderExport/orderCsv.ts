/**
 * Orders as a CSV file for a spreadsheet, the rows of orderRows.ts. Money as plain decimals with two
 * places ("1299.99"), so Excel and LibreOffice read numbers; dates as "2026-11-20 00:30:00" in the
 * seller's zone, named in the header, a form both read as a date-time in any locale (with an offset or
 * a "T" they keep it as text). Text that a spreadsheet would run as a formula (= + - @ tab CR first)
 * gets a leading apostrophe (formulaGuard.ts), so opening the file never executes anything a buyer or
 * the marketplace typed. A CSV cannot say a cell is text, so a spreadsheet still reads digits as a
 * number (a tracking number loses its leading zeros): the XLSX export (orderWorkbook.ts) keeps them.
 */
import Papa from 'papaparse'
import type { Order } from '../../shared/domain'
import { csvCellText } from '../spreadsheetFile/sheetFile'
import { orderRows, ordersHeader, ORDERS_GUARD } from './orderRows'

/** CRLF: what spreadsheet apps expect (with the byte-order mark, to read UTF-8 text correctly). */
const UNPARSE = { newline: '\r\n', quotes: false } as const

/**
 * The CSV file written a part of the orders at a time (an export of many orders takes several turns of
 * the core: see the workspace's export): `add` each part in order, then `done`.
 */
export function ordersCsvWriter(timeZone: string) {
  const parts = ['\uFEFF' + Papa.unparse([ordersHeader(timeZone)], UNPARSE)]
  let rows = 0
  return {
    add(orders: readonly Order[]): void {
      const data = orderRows(orders, timeZone).map((row) => row.map((cell) => csvCellText(cell, ORDERS_GUARD)))
      if (data.length === 0) return
      parts.push(UNPARSE.newline + Papa.unparse(data, UNPARSE))
      rows += data.length
    },
    /** The file's text in parts (joined, the file) and its rows below the header. */
    done(): { parts: string[]; rows: number } {
      return { parts, rows }
    }
  }
}

/** The orders as one CSV text. */
export function ordersCsv(orders: readonly Order[], timeZone: string): { text: string; rows: number } {
  const writer = ordersCsvWriter(timeZone)
  writer.add(orders)
  const { parts, rows } = writer.done()
  return { text: parts.join(''), rows }
}
