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
import { XLSX_MIME_TYPE } from '../spreadsheetFile/sheetFile'
import { workbookWriter } from '../spreadsheetFile/workbookFile'
import { orderRows, ordersHeader, ORDERS_GUARD, ORDERS_WIDTHS } from './orderRows'

/**
 * The workbook written a part of the orders at a time (as the CSV is: see the workspace's export): each
 * part's cells are made and deflated as it is added, so no step of the core holds the whole sheet. `add`
 * each part in order (waiting for each), then `done` once.
 */
export function ordersWorkbookWriter(timeZone: string) {
  const workbook = workbookWriter({ header: ordersHeader(timeZone), widths: [...ORDERS_WIDTHS], guard: ORDERS_GUARD })
  let rows = 0
  return {
    async add(orders: readonly Order[]): Promise<void> {
      const part = orderRows(orders, timeZone)
      rows += part.length
      await workbook.add(part)
    },
    /** Gives the workbook up: its export failed or was stopped. */
    abort: () => workbook.abort(),
    /** The file, named `name`.xlsx. */
    async done(name: string): Promise<ExportedFile> {
      const bytes = await workbook.done()
      return { fileName: `${name}.xlsx`, mimeType: XLSX_MIME_TYPE, base64: bytes.toString('base64'), rows }
    }
  }
}

/** The orders as one workbook. */
export async function ordersWorkbook(orders: readonly Order[], timeZone: string, name: string): Promise<ExportedFile> {
  const writer = ordersWorkbookWriter(timeZone)
  await writer.add(orders)
  return writer.done(name)
}
