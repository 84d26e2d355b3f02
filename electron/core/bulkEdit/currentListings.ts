/**
 * The listings' values as bulk edit stages on them: read from the snapshot (see
 * snapshot/listingValues.ts), or from what the grid last read while the listings are unchanged.
 */
import type { GridListingRow } from '../../shared/contract'
import { gridRowReader } from '../../shared/gridRow'
import { LISTING_FIELD_SET, type FieldSet } from '../../shared/listingFields'
import type { ListingBase } from '../snapshot/listingValues'

export type { CurrentListing, ImportListing, ListingBase } from '../snapshot/listingValues'

export interface ListingsMemo {
  /**
   * Keeps the values of the rows the grid was just handed, read at snapshot listings generation
   * `generation`: all of them, or one page of them (`page`: where it starts and how many listings there
   * are). Pages are kept while they follow one another at one generation; the memo answers once they
   * cover every listing.
   */
  remember(rows: readonly GridListingRow[], generation: number, page?: { offset: number; total: number }): void
  /** The listings with these ids (unknown ids are absent). */
  byId(ids: Iterable<string>): Map<string, ListingBase>
}

/**
 * The listings' values as the bulk-edit grid last read them, used while the snapshot's listings are
 * unchanged since (its listings generation): a large paste looks them up in memory instead of one
 * SQLite lookup per cell (bench/bulkGrid.bench.ts). Otherwise, and before the grid read every page,
 * they come from SQLite. Each page is added as it is read, so no one call builds all of it.
 */
/** Reads the listings with these ids from the snapshot (unknown ids are absent). */
export type ListingsReader = (ids: Iterable<string>) => Map<string, ListingBase>

export function createListingsMemo(read: ListingsReader, generation: () => number, fields: FieldSet = LISTING_FIELD_SET): ListingsMemo {
  let memo: { generation: number; byId: Map<string, ListingBase>; read: number; total: number } | null = null
  const gridRow = gridRowReader(fields.all.map((field) => field.key))
  return {
    remember(rows, at, page = { offset: 0, total: rows.length }) {
      if (page.offset === 0) memo = { generation: at, byId: new Map(), read: 0, total: page.total }
      const kept = memo
      // A page out of order, or read at another generation: the memo is not the grid's rows.
      if (!kept || kept.generation !== at || kept.read !== page.offset || kept.total !== page.total) return void (memo = null)
      for (const row of rows) {
        const listing: Record<string, string | number> = { id: gridRow.id(row), updatedAt: gridRow.updatedAt(row) }
        for (const field of fields.all) listing[field.key] = gridRow.value(row, field.key)
        kept.byId.set(listing.id as string, listing as ListingBase)
      }
      kept.read += rows.length
    },
    byId(ids) {
      if (!memo || memo.generation !== generation() || memo.read < memo.total) {
        if (memo && memo.generation !== generation()) memo = null // stale for good: the grid reads the rows again
        return read(ids)
      }
      const found = new Map<string, ListingBase>()
      for (const id of ids) {
        const listing = memo.byId.get(id)
        if (listing) found.set(id, listing)
      }
      return found
    }
  }
}
