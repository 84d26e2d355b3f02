/**
 * Search across the two ways Unicode writes an accented letter: composed ("é", one character, as most
 * keyboards type it) and decomposed ("e" and a combining accent, as macOS and some PDFs give it). Each
 * finds the other, in a real snapshot.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { orderFromWire, sellRequestFromWire } from '../sellerApi/wire'
import { openSnapshot, type Snapshot } from './snapshot'

const COMPOSED = 'Caf\u00e9'
const DECOMPOSED = 'Cafe\u0301'

const wireSellRequest = (id: string, name: string) => ({
  id,
  name,
  category: 'Phones',
  brand: 'Acme',
  price: 100,
  msrp: 200,
  sku: `SKU-${id}`,
  status: 'open',
  quantity: 3,
  minQuantity: 1,
  properties: {},
  seller: 's-1',
  imgUrl: null,
  createdAt: '2026-10-01T10:00:00.000Z',
  updatedAt: '2026-11-19T14:03:22.123Z'
})

const wireOrder = (id: string, itemName: string) => ({
  id,
  orderDate: '2026-11-19T14:03:22.123456',
  orderNo: `NO-${id}`,
  status: 'payment-confirmed',
  quantity: '1',
  products: '1',
  totalPrice: '100.00',
  amountPaid: '100.00',
  items: [{ id: `${id}-item`, name: itemName, quantity: 1, price: 100, total: 100, status: 'awaiting-shipment' }]
})

let snapshot: Snapshot

beforeEach(async () => {
  snapshot = openSnapshot(join(mkdtempSync(join(tmpdir(), 'seller-desk-search-')), 'snapshot.sqlite'))
  // One row of each list written each way, as received.
  const listings = [wireSellRequest('composed', `${COMPOSED} Phone`), wireSellRequest('decomposed', `${DECOMPOSED} Phone`)]
  for (const listing of listings) await snapshot.putSellRequest({ rows: [sellRequestFromWire(listing)], wire: { json: JSON.stringify([listing]), path: '$' } })
  const orders = [wireOrder('composed', `${COMPOSED} Phone`), wireOrder('decomposed', `${DECOMPOSED} Phone`)]
  await snapshot.applyChanges(
    'orders',
    [{ rows: orders.map((order) => orderFromWire(order, null)), wire: { json: JSON.stringify(orders), path: '$' } }],
    Date.now()
  )
})
afterEach(() => snapshot.close())

it('finds a name in either form by a search typed in either form, in any case', () => {
  for (const term of [COMPOSED, DECOMPOSED, COMPOSED.toUpperCase(), DECOMPOSED.toUpperCase()]) {
    const listings = snapshot.querySellRequests({ page: 1, take: 10, sortBy: 'name', sortDir: 'ASC', searchTerm: term })
    expect(listings.rows.map((row) => row.id).sort(), JSON.stringify(term)).toEqual(['composed', 'decomposed'])
    const orders = snapshot.queryOrders({ page: 1, take: 10, sortBy: 'date', sortDir: 'DESC', searchTerm: term })
    expect(orders.rows.map((row) => row.id).sort(), JSON.stringify(term)).toEqual(['composed', 'decomposed'])
  }
})

it('keeps names as the marketplace sent them: only what a search reads is composed', () => {
  const names = snapshot.dump().sellRequests.map((row) => row.name)
  expect(names.sort()).toEqual([`${COMPOSED} Phone`, `${DECOMPOSED} Phone`].sort())
})
