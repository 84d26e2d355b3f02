/** The Orders list and its exports (CSV, Excel workbook). */
import { z } from 'zod'
import type { Order } from '../domain'
import type { ExportedFile } from './bulkEdit'
import { call, isoInstant, pageInput, statusList, timeZoneInput, type ListResult } from './common'
import { accountKeyInput } from './session'

/** The orders a seller narrowed the list to: shared by the list and its exports. */
const orderFilterInput = {
  searchTerm: pageInput.searchTerm,
  sortDir: pageInput.sortDir,
  fromDate: isoInstant.optional(),
  toDate: isoInstant.optional(),
  statuses: statusList,
  itemStatuses: statusList,
  sortBy: z.enum(['date', 'total']).default('date')
}

const datesInOrder = (q: { fromDate?: string | undefined; toDate?: string | undefined }) =>
  !q.fromDate || !q.toDate || Date.parse(q.fromDate) <= Date.parse(q.toDate)
const datesInOrderIssue = { message: 'The start date must be before the end date.', path: ['toDate'] }

export const orderListInput = z
  .object({ ...pageInput, ...orderFilterInput })
  .strict()
  .refine(datesInOrder, datesInOrderIssue)

export const orderExportInput = z
  .object({ ...orderFilterInput, timeZone: timeZoneInput })
  .strict()
  .refine(datesInOrder, datesInOrderIssue)

/**
 * The orders a list matches (all pages) and the units of their items in each item status the list is
 * filtered by, counted as the dashboard counts them, so the two agree.
 */
export interface OrderItemUnits {
  orders: number
  units: { status: string; units: number }[]
}

/** A page of orders, with the item units of the whole list when it is filtered by item status (else null). */
export interface OrderListResult extends ListResult<Order> {
  itemUnits: OrderItemUnits | null
  /**
   * Where the orders kept on this computer start (an ISO instant). A note that names that start names it
   * by this very text, for the window to say it as it says every time: in the seller's zone, named.
   */
  windowFrom: string
}

/** A CSV file the renderer offers as a download. */
export interface CsvFile {
  fileName: string
  /**
   * The file's text in parts, in order (the file is their concatenation): a large export crosses to the
   * window as it was written, and no thread joins tens of megabytes into one string in a single step.
   */
  parts: string[]
  orders: number
  rows: number
  /** Why orders the seller asked for are not in the file (older dates while offline), or null. */
  missing: string | null
}

/** An Excel workbook (.xlsx) of the same orders, rows and columns as the CSV, offered as a download. */
export interface OrdersWorkbookFile extends ExportedFile {
  orders: number
  /** Why orders the seller asked for are not in the file (older dates while offline), or null. */
  missing: string | null
}

/** The zone order times are read in, and what new orders told of the marketplace's clock. */
export interface OrderTimeZone {
  /** The time zone the marketplace writes order times in, as the seller named it (null: UTC). */
  zone: string | null
  /**
   * Only while new orders show the times are read in the wrong zone, and pinned the marketplace's clock:
   * how far it is ahead of UTC (ms, a whole number of quarter hours; negative behind).
   */
  clockOffsetMs?: number
}

export const orderCalls = {
  'orders.list': call<OrderListResult>()(orderListInput),
  'orders.exportCsv': call<CsvFile>()(orderExportInput),
  'orders.exportXlsx': call<OrdersWorkbookFile>()(orderExportInput),
  /** The time zone the named account's marketplace writes order times in (null: UTC); refused when another account is open. */
  'orders.timeZone': call<OrderTimeZone>()(z.object({ account: accountKeyInput }).strict()),
  /** Reads the named account's order times in `zone` (null: UTC) from now on; refused when another account is open. */
  'orders.setTimeZone': call<OrderTimeZone>()(z.object({ account: accountKeyInput, zone: timeZoneInput.nullable() }).strict())
} as const
