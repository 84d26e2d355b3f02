/**
 * The import reader's checks that need no account: a CSV holding control characters (text from a binary
 * file) is refused past a few, and listings are found by id in any letter case and by SKU, a shared
 * SKU finding each of its listings.
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

describe('control characters in a CSV', () => {
  const csv = (rows: number, control: string, count = 3) =>
    new TextEncoder().encode(['id,price', ...Array.from({ length: rows }, (_, i) => `id-${i},1.00${i < count ? control : ''}`)].join('\n'))

  it('refuses more than one in a thousand characters (at least 2), and reads the rest', async () => {
    await expect(readImportTable('two.csv', csv(10, '\x07', 2))).resolves.toMatchObject({ format: 'csv' })
    await expect(readImportTable('three.csv', csv(10, '\x1b'))).rejects.toThrow(/does not look like a CSV file/)
    await expect(readImportTable('replaced.csv', csv(10, '\uFFFD'))).rejects.toThrow(/does not look like a CSV file/)
    // Tabs, CRs and line breaks are text.
    await expect(readImportTable('tabs.csv', csv(10, '\t\r'))).resolves.toMatchObject({ format: 'csv' })
    // Three in 30,000 characters are a few.
    await expect(readImportTable('long.csv', csv(2_000, '\x1b'))).resolves.toMatchObject({ format: 'csv' })
  })
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
