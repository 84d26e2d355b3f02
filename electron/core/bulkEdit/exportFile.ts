/**
 * Listings (with their pending values) and a batch's failed changes as sheets, written to CSV or XLSX
 * by the exports' one writer (spreadsheetFile/sheetFile.ts).
 * The files are shaped so they can be edited and imported again: `id`, `sku` and each editable field's
 * column (`price`, `quantity`: the values the seller wants; listingFields.ts), the current values beside them.
 * Text a spreadsheet would run as a formula is guarded for the import's round trip (formulaGuard.ts):
 * in CSV prefixed with ', in XLSX a string cell; import removes the prefix again (an SKU “-ABC” exported
 * as “'-ABC” matches “-ABC”), so the round trip is exact in both formats.
 *
 * Headers are words a seller reads (“Current price”); import matches them in any case, so “ID”, “SKU”,
 * “Price” and “Quantity” read back. Times are written so a spreadsheet takes them as date-times: in
 * CSV as `2026-11-24 05:31:15` in UTC (the header names the zone; Excel and LibreOffice parse that form
 * in any locale), in XLSX as date cells. An XLSX has column widths and a frozen header row.
 */
import type { BatchRow } from '../../shared/contract'
import { LISTING_FIELD_SET, listingValue, type FieldSet, type ListingField } from '../../shared/listingFields'
import { batchResultLabel, statusLabel } from '../../shared/plainWords'
import type { CurrentListing } from './currentListings'
import type { ListingProperties } from '../snapshot/listingGrid'
import type { FormulaGuard } from '../spreadsheetFile/formulaGuard'
import type { Cell, Sheet } from '../spreadsheetFile/sheetFile'

/** A field's value as a cell: money as an amount, a count as a number. */
const valueCell = (field: ListingField, value: number): Cell => (field.unit === 'cents' ? { cents: value } : value)

const NO_PROPERTIES: ListingProperties = { grade: '', color: '', storage: '', carrier: '' }

/** The import reads these files back: every formula escape comes off exactly. */
const GUARD: FormulaGuard = { roundTrip: true }

/** The listings export's column titles, in the order listingsSheet writes each row's cells. */
export function listingsHeader(fields: FieldSet = LISTING_FIELD_SET): string[] {
  const all = fields.all
  return [
    'ID',
    'SKU',
    'Name',
    'Brand',
    'Status',
    ...all.map((field) => field.label),
    ...all.map((field) => `Current ${field.label.toLowerCase()}`),
    'Pending change',
    'Grade',
    'Color',
    'Storage',
    'Carrier',
    'Last updated (UTC)'
  ]
}

/**
 * Listings with the values the seller wants: the importable columns (ID, SKU, then each field's, headed
 * by its label) with the current values and whether a change is pending right after them, then the
 * properties that tell listings apart and the last update.
 */
export function listingsSheet(
  listings: CurrentListing[],
  pending: (id: string) => { readonly [field: string]: number | undefined },
  properties: (id: string) => ListingProperties | undefined,
  day: string,
  fields: FieldSet = LISTING_FIELD_SET
): Sheet {
  const all = fields.all
  return {
    name: `sell-requests-${day}`,
    header: listingsHeader(fields),
    guard: GUARD,
    widths: [38, 16, 40, 14, 10, ...all.map((field) => field.fileWidth), ...all.map((field) => field.label.length + 9), 15, 8, 12, 10, 12, 20],
    rows: listings.map((listing) => {
      const wanted = pending(listing.id)
      const changed = all.some((field) => wanted[field.key] !== undefined)
      const p = properties(listing.id) ?? NO_PROPERTIES
      return [
        listing.id,
        listing.sku,
        listing.name,
        listing.brand,
        statusLabel(listing.status),
        ...all.map((field) => valueCell(field, wanted[field.key] ?? listingValue(listing, field.key))),
        ...all.map((field) => valueCell(field, listingValue(listing, field.key))),
        changed ? 'Yes' : '',
        p.grade,
        p.color,
        p.storage,
        p.carrier,
        { at: listing.updatedAt }
      ]
    })
  }
}

/** A batch's failed changes, one row per listing, importable again once fixed. */
export function failedSheet(rows: BatchRow[], day: string, fields: FieldSet = LISTING_FIELD_SET): Sheet {
  const byListing = new Map<string, { row: BatchRow; values: Map<string, number>; messages: Set<string> }>()
  for (const row of rows) {
    let entry = byListing.get(row.sellRequestId)
    if (!entry) byListing.set(row.sellRequestId, (entry = { row, values: new Map(), messages: new Set() }))
    entry.values.set(row.field, row.after)
    if (row.message) entry.messages.add(`${batchResultLabel(row.status)}: ${row.message}`)
  }
  return {
    name: `failed-changes-${day}`,
    header: ['ID', 'SKU', 'Name', ...fields.all.map((field) => field.label), 'Problem'],
    guard: GUARD,
    widths: [38, 16, 40, ...fields.all.map((field) => field.fileWidth), 60],
    rows: [...byListing.values()].map(({ row, values, messages }) => [
      row.sellRequestId,
      row.sku,
      row.name,
      ...fields.all.map((field) => (values.has(field.key) ? valueCell(field, values.get(field.key)!) : null)),
      [...messages].join(' ')
    ])
  }
}
