/**
 * Orders as an Excel workbook (.xlsx), the same rows and columns as the CSV (orderRows.ts), written by
 * the exports' one writer (sheetFile.ts). Unlike a CSV it says what each cell is: an order number, a
 * 22-digit tracking number or "012345" is a string cell, shown and kept exactly as written (Excel drops
 * leading zeros and shows long digits as 9.27E+21 when it reads them as numbers); money a number with
 * two decimals; counts numbers; the order date a date cell on the wall clock of the zone the header
 * names. A string cell never runs as a formula.
 */
import type { ExportedFile } from '../../shared/contract'
import type { Order } from '../../shared/domain'
import { writeSheet, type Cell } from '../spreadsheetFile/sheetFile'
import { orderRows, ordersHeader, ORDERS_GUARD, ORDERS_WIDTHS } from './orderRows'

/**
 * The workbook gathered a part of the orders at a time (as the CSV is written: see the workspace's
 * export), `add` each part in order, then `done` writes the file once.
 */
export function ordersWorkbookWriter(timeZone: string) {
  const rows: Cell[][] = []
  return {
    add(orders: readonly Order[]): void {
      for (const row of orderRows(orders, timeZone)) rows.push(row)
    },
    /** The file, named `name`.xlsx. */
    done(name: string): Promise<ExportedFile> {
      return writeSheet({ name, header: ordersHeader(timeZone), widths: [...ORDERS_WIDTHS], rows, guard: ORDERS_GUARD }, 'xlsx')
    }
  }
}

/** The orders as one workbook. */
export function ordersWorkbook(orders: readonly Order[], timeZone: string, name: string): Promise<ExportedFile> {
  const writer = ordersWorkbookWriter(timeZone)
  writer.add(orders)
  return writer.done(name)
}
