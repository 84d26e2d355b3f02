/**
 * A listing as an import finds it, numbered for the import tests: id …0000n, SKU "SKU-n", $1.00 and
 * 1 unit. One place, so the tests that build files around it agree on what the file's rows change.
 */
import type { ImportListing } from './currentListings'

export const importListing = (n: number): ImportListing => ({
  id: `00000000-0000-4000-8000-00000000000${n}`,
  sku: `SKU-${n}`,
  priceCents: 100,
  quantity: 1,
  updatedAt: '2025-01-01T00:00:00.000Z'
})
