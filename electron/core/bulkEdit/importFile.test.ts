/**
 * The import reader's checks that need no account: listings are found by id in any letter case and by
 * SKU, a shared SKU finding each of its listings.
 */
import { describe, expect, it } from 'vitest'
import type { ImportListing } from './currentListings'
import { importChanges, listingFinder, listingsNamed, readImportTable } from './importFile'

const listing = (n: number, sku = `SKU-${n}`): ImportListing => ({
  id: `00000000-0000-4000-8000-00000000000${n}`,
  sku,
  priceCents: 100,
  quantity: 1,
  updatedAt: '2025-01-01T00:00:00.000Z'
})

describe('finding listings', () => {
  it('by id in any letter case, and by SKU, a shared SKU giving each of its listings', () => {
    const shared = [listing(1, 'SHARED'), listing(2, 'SHARED')]
    const finder = listingFinder([...shared, listing(3)])
    expect(finder.byId(listing(3).id.toUpperCase())).toMatchObject({ sku: 'SKU-3' })
    expect(finder.bySku('SHARED')).toEqual(shared)
    expect(finder.bySku('SKU-3')).toEqual([listing(3)])
    expect(finder.bySku('SKU-9')).toEqual([])
  })

  it('names the listings of a file by id (any letter case) and by SKU, and refuses a row on a shared SKU', async () => {
    const file = ['id,sku,price', `${listing(3).id.toUpperCase()},,2.00`, ',SHARED,3.00', ',SKU-4,4.00'].join('\n')
    const table = await readImportTable('named.csv', new TextEncoder().encode(file))
    const named = await listingsNamed('named.csv', table)
    expect([1, 2, 3, 4, 5].map((n) => named(listing(n, n < 3 ? 'SHARED' : `SKU-${n}`).id, n < 3 ? 'SHARED' : `SKU-${n}`))).toEqual([
      true,
      true,
      true,
      true,
      false
    ])
    const result = await importChanges('named.csv', table, listingFinder([listing(1, 'SHARED'), listing(2, 'SHARED'), listing(3), listing(4)]))
    expect(result.proposed.map((change) => [change.sellRequestId, change.after])).toEqual([
      [listing(3).id, 200],
      [listing(4).id, 400]
    ])
    expect(result.problems).toEqual([{ row: 3, message: 'SKU “SHARED” belongs to 2 listings: use the id column for these.' }])
  })
})
