/**
 * The columns a page of orders is written with, from its items: statuses once each as first met, the
 * units the dashboard sums, the units by status, and the text a search reads (parts without a value
 * left out).
 */
import { expect, it } from 'vitest'
import { orderFromWire } from '../sellerApi/wire'
import { orderWrites } from './orderTable'

const item = (id: string, status: string, quantity: number, extra: Record<string, unknown> = {}) => ({
  id,
  name: `Phone ${id.toUpperCase()}`,
  quantity,
  price: 10,
  total: 10 * quantity,
  status,
  ...extra
})

const wire = {
  id: 'o-1',
  orderDate: '2026-11-19T14:03:22.123456',
  orderNo: 'NO-1',
  status: 'payment-confirmed',
  quantity: '6',
  products: '4',
  totalPrice: '60.00',
  amountPaid: '60.00',
  items: [
    item('a', 'ready-to-ship', 2, { shipment: 'SHP-1', trackingInformation: { trackingNumber: 'TRK-1' } }),
    item('b', 'awaiting-shipment', 1),
    item('c', 'ready-to-ship', 1, { shipment: 'SHP-1', trackingInformation: { trackingNumber: null } }),
    item('d', 'delivered', 2, { shipment: '' })
  ]
}

it('writes what the items say: statuses once each in the order met, units summed by status, the searched texts that have a value', () => {
  const [columns] = orderWrites({ rows: [orderFromWire(wire, null)], wire: { json: JSON.stringify([wire]), path: '$' } }, '_staged')
  if (!columns || !('rows' in columns)) throw new Error('expected the columns write first')
  expect(columns.insert).toBe('orders_staged')
  const row = Object.fromEntries(columns.columns.map((name, i) => [name, columns.rows[0]![i]]))
  expect(row).toMatchObject({
    id: 'o-1',
    item_statuses: '|ready-to-ship|awaiting-shipment|delivered|',
    awaiting_shipment_units: 1,
    ready_to_ship_units: 3,
    search_text: 'no-1\u0001phone a\u0001shp-1\u0001trk-1\u0001phone b\u0001phone c\u0001shp-1\u0001phone d',
    item_units: '{"ready-to-ship":3,"awaiting-shipment":1,"delivered":2}'
  })
})

it('an order without items: no statuses, no units, its number alone searched', () => {
  const bare = { ...wire, items: [] }
  const [columns] = orderWrites({ rows: [orderFromWire(bare, null)], wire: { json: JSON.stringify([bare]), path: '$' } }, '')
  if (!columns || !('rows' in columns)) throw new Error('expected the columns write first')
  const row = Object.fromEntries(columns.columns.map((name, i) => [name, columns.rows[0]![i]]))
  expect(row).toMatchObject({ item_statuses: '||', awaiting_shipment_units: 0, ready_to_ship_units: 0, search_text: 'no-1', item_units: '{}' })
})
