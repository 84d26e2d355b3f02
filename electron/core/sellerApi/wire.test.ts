import { describe, expect, it } from 'vitest'
import { orderListFormat, readWire, sellRequestListFormat, type WireFormat } from './wire'

/** zod-like helpers over a wire format, so the cases below read simply. */
const wireOf = <T>(format: WireFormat<T>) => ({
  parse(body: unknown): T {
    const read = readWire(format, body)
    if (!read.ok) throw new Error(read.problem)
    return read.value
  },
  safeParse: (body: unknown) => readWire(format, body)
})
const orderListWire = wireOf(orderListFormat)
const sellRequestListWire = wireOf(sellRequestListFormat)

const sellRequest = {
  id: '3f6c2a7e-1b2d-4c3e-8f9a-0b1c2d3e4f50',
  name: 'iPhone 15 Pro',
  category: 'Phones',
  brand: 'Apple',
  price: 899.99,
  msrp: 999,
  sku: 'APL-IP15P-128-BLK-A',
  status: 'open',
  quantity: 12,
  minQuantity: 1,
  properties: { color: 'Black', grade: 'A', carrier: 'Unlocked', storage: '128GB' },
  seller: '9b2c7d4e-5f60-4a1b-9c2d-3e4f5a6b7c8d',
  imgUrl: 'https://cdn.example.com/ip15.png',
  createdAt: '2026-10-01T10:00:00.000Z',
  updatedAt: '2026-11-19T14:03:22.123Z'
}

const item = {
  id: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d',
  margin: 12.5,
  name: 'iPhone 15 Pro',
  quantity: 2,
  price: 899.99,
  total: 1799.98,
  properties: { color: 'Black', grade: 'A', carrier: 'Unlocked', storage: '128GB' },
  status: 'awaiting-shipment',
  imageUrl: 'https://cdn.example.com/ip15.png',
  warrantyTime: null,
  shippingTime: null,
  shippingMethod: 'PLATFORM_SHIPPING',
  shipment: 'shp_8f3a2b',
  possibleStatuses: ['seller-shipped', 'canceled'],
  sellrequestId: sellRequest.id,
  trackingInformation: {
    slugId: 'ups',
    carrier: 'UPS',
    trackerId: 'trk_91ab',
    trackingUrl: 'https://www.ups.com/track?tracknum=1Z999',
    trackingNumber: '1Z999'
  }
}

const order = {
  id: 'b2c3d4e5-f6a7-4b8c-9d0e-1f2a3b4c5d6e',
  orderDate: '2026-11-19T14:03:22.123456',
  orderNo: '100234',
  status: 'payment-confirmed',
  quantity: '2',
  products: '1',
  totalPrice: '1799.98',
  amountPaid: '1799.98',
  items: [item]
}

describe('sell request wire format', () => {
  it('converts to the domain once: cents, instants', () => {
    const parsed = sellRequestListWire.parse({ status: 200, description: 'ok', data: { total: 1, data: [sellRequest] } })
    const row = parsed.sellRequests[0]!
    expect(row.priceCents).toBe(89999)
    expect(row.msrpCents).toBe(99900)
    expect(row.updatedAt).toBe('2026-11-19T14:03:22.123Z')
    expect(row.properties).toEqual({ color: 'Black', grade: 'A', carrier: 'Unlocked', storage: '128GB' })
  })

  it('keeps unknown statuses, unknown property keys and extra fields', () => {
    const parsed = sellRequestListWire.parse({
      data: {
        total: 1,
        data: [{ ...sellRequest, status: 'paused-by-admin', properties: { ...sellRequest.properties, region: 'EU', batteryHealth: 91 }, warehouse: 'NJ-2' }]
      },
      pagination: { next: 2 }
    })
    const row = parsed.sellRequests[0]!
    expect(row.status).toBe('paused-by-admin')
    expect(row.properties['region']).toBe('EU')
    expect(row.properties['batteryHealth']).toBe('91')
    expect(row.extra).toEqual({ warehouse: 'NJ-2' })
  })

  it('rejects wrong types with a message naming the field', () => {
    const result = sellRequestListWire.safeParse({ data: { total: 1, data: [{ ...sellRequest, price: 'cheap' }] } })
    expect(result.ok).toBe(false)
    expect(!result.ok && result.problem).toMatch(/^data\.data\.0\.price: .*dollars/)
    expect(sellRequestListWire.safeParse({ data: { total: 1, data: [{ ...sellRequest, quantity: 2.5 }] } }).ok).toBe(false)
    expect(sellRequestListWire.safeParse({ data: { total: 1, data: [{ ...sellRequest, updatedAt: '2026-11-19 14:03' }] } }).ok).toBe(false)
    expect(sellRequestListWire.safeParse({ data: { total: 1, data: [{ ...sellRequest, updatedAt: '2026-02-31T10:00:00.000Z' }] } }).ok).toBe(false)
    expect(sellRequestListWire.safeParse({ data: { total: 'many', data: [] } }).ok).toBe(false)
  })
})

describe('order wire format', () => {
  it('reads numeric strings, two-decimal strings and zone-less microsecond dates', () => {
    const parsed = orderListWire.parse({ total: '1', data: [order] })
    expect(parsed.total).toBe(1)
    const row = parsed.orders[0]!
    expect(row.orderDate).toBe('2026-11-19T14:03:22.123Z')
    expect(row.quantity).toBe(2)
    expect(row.products).toBe(1)
    expect(row.totalCents).toBe(179998)
    expect(row.amountPaidCents).toBe(179998)
    const line = row.items[0]!
    expect(line.totalCents).toBe(179998)
    expect(line.marginCents).toBe(1250)
    expect(line.tracking?.trackingNumber).toBe('1Z999')
    expect(line.sellRequestId).toBe(sellRequest.id)
  })

  it('keeps unknown order and item statuses, extra fields and empty possibleStatuses', () => {
    const parsed = orderListWire.parse({
      total: '1',
      data: [{ ...order, status: 'partially-refunded', channel: 'b2b', items: [{ ...item, status: 'lost-in-transit', possibleStatuses: [], insured: true }] }]
    })
    const row = parsed.orders[0]!
    expect(row.status).toBe('partially-refunded')
    expect(row.extra).toEqual({ channel: 'b2b' })
    expect(row.items[0]!.status).toBe('lost-in-transit')
    expect(row.items[0]!.possibleStatuses).toEqual([])
    expect(row.items[0]!.extra).toEqual({ insured: true })
  })

  it('rejects wrong types', () => {
    expect(orderListWire.safeParse({ total: '1', data: [{ ...order, totalPrice: { amount: 1 } }] }).ok).toBe(false)
    expect(orderListWire.safeParse({ total: '1', data: [{ ...order, totalPrice: '12.345' }] }).ok).toBe(false)
    expect(orderListWire.safeParse({ total: '1', data: [{ ...order, quantity: 'two' }] }).ok).toBe(false)
    expect(orderListWire.safeParse({ total: '1', data: [{ ...order, orderDate: 'last tuesday' }] }).ok).toBe(false)
    expect(orderListWire.safeParse({ total: '1', data: [{ ...order, items: 'none' }] }).ok).toBe(false)
    expect(orderListWire.safeParse({ total: 'x', data: [] }).ok).toBe(false)
  })
})

describe('empty lists', () => {
  it('reads rows sent as null or left out as no rows (a server in Go sends an empty slice as null, omitempty drops it)', () => {
    for (const rows of [{ data: null }, {}]) {
      expect(orderListWire.parse({ total: '0', ...rows })).toEqual({ total: 0, orders: [] })
      expect(sellRequestListWire.parse({ status: 200, data: { total: 0, ...rows } })).toEqual({ total: 0, sellRequests: [] })
    }
  })

  it('reads an order whose items come as null or not at all as an order of no items, the order kept', () => {
    for (const items of [{ items: null }, { items: undefined }]) {
      const read = orderListWire.parse({ total: '1', data: [{ ...order, ...items }] })
      expect(read.orders.map((o) => [o.id, o.items])).toEqual([[order.id, []]])
    }
    expect(orderListFormat.accepts!({ total: '1', data: [{ ...order, items: null }] })).toBe(true)
  })

  it('still refuses rows that are neither a list nor null, naming the field', () => {
    for (const rows of ['none', { 0: order }, 0, false]) {
      const orders = orderListWire.safeParse({ total: '1', data: rows })
      expect(!orders.ok && orders.problem).toMatch(/^data: .*array/)
      const sellRequests = sellRequestListWire.safeParse({ data: { total: 1, data: rows } })
      expect(!sellRequests.ok && sellRequests.problem).toMatch(/^data\.data: .*array/)
    }
    // The envelope around the listings' rows (and their total) is still required.
    expect(sellRequestListWire.safeParse({ data: null }).ok).toBe(false)
  })
})
