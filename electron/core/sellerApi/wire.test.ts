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

  it('refuses a row of wrong types, naming the field: the row is skipped and said, the page read', () => {
    const unreadable = (row: unknown) => sellRequestListWire.parse({ data: { total: 1, data: [row] } }).unreadable
    expect(unreadable({ ...sellRequest, price: 'cheap' })).toEqual([
      {
        id: sellRequest.id,
        label: `${sellRequest.name} (SKU ${sellRequest.sku})`,
        place: 0,
        problem: 'price: expected an amount in dollars',
        updatedAt: sellRequest.updatedAt
      }
    ])
    expect(unreadable({ ...sellRequest, quantity: 2.5 })).toMatchObject([{ problem: expect.stringMatching(/^quantity: /) as unknown }])
    expect(unreadable({ ...sellRequest, updatedAt: '2026-11-19 14:03' })).toMatchObject([{ problem: expect.stringMatching(/^updatedAt: /) as unknown }])
    expect(unreadable({ ...sellRequest, updatedAt: '2026-02-31T10:00:00.000Z' })).toMatchObject([
      { problem: expect.stringMatching(/real date and time/) as unknown }
    ])
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

  it('refuses an order of wrong types, the row skipped and said', () => {
    for (const [change, path] of [
      [{ totalPrice: { amount: 1 } }, 'totalPrice'],
      [{ totalPrice: '12.345' }, 'totalPrice'],
      [{ quantity: 'two' }, 'quantity'],
      [{ orderDate: 'last tuesday' }, 'orderDate'],
      [{ items: 'none' }, 'items']
    ] as const) {
      const read = orderListWire.parse({ total: '1', data: [{ ...order, ...change }] })
      expect(read.orders).toEqual([])
      expect(read.unreadable).toMatchObject([{ id: order.id, place: 0, problem: expect.stringMatching(new RegExp(`^${path}: `)) as unknown }])
    }
    expect(orderListWire.safeParse({ total: 'x', data: [] }).ok).toBe(false)
  })
})

describe('empty lists', () => {
  it('reads rows sent as null or left out as no rows (a server in Go sends an empty slice as null, omitempty drops it)', () => {
    for (const rows of [{ data: null }, {}]) {
      expect(orderListWire.parse({ total: '0', ...rows })).toEqual({ total: 0, orders: [], unreadable: [] })
      expect(sellRequestListWire.parse({ status: 200, data: { total: 0, ...rows } })).toEqual({ total: 0, sellRequests: [], unreadable: [] })
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

describe('a page with rows that cannot be read', () => {
  const listings = Array.from({ length: 100 }, (_, i) => ({
    ...sellRequest,
    id: `sr-${i}`,
    updatedAt: `2026-11-19T14:03:${String(59 - (i % 60)).padStart(2, '0')}.000Z`
  }))

  it('reads the rows it can and says which it cannot and why: by id, or by place for a row with none', () => {
    const rows: unknown[] = [...listings]
    rows[17] = { ...listings[17]!, price: 'abc' }
    const noId: Record<string, unknown> = { ...listings[60]! }
    delete noId['id']
    rows[60] = noId
    const read = sellRequestListWire.parse({ status: 200, data: { total: 100, data: rows } })
    expect(read.total).toBe(100)
    expect(read.sellRequests).toHaveLength(98)
    expect(read.sellRequests.map((row) => row.id)).toEqual(listings.map((row) => row.id).filter((id) => id !== 'sr-17' && id !== 'sr-60'))
    // Named as a seller knows them where the row says (its name and SKU), whatever else is wrong with it.
    const label = (row: { name: string; sku: string }) => `${row.name} (SKU ${row.sku})`
    expect(read.unreadable).toEqual([
      { id: 'sr-17', label: label(listings[17]!), place: 17, problem: 'price: expected an amount in dollars', updatedAt: listings[17]!.updatedAt },
      { id: null, label: label(listings[60]!), place: 60, problem: expect.stringMatching(/^id: /) as unknown, updatedAt: listings[60]!.updatedAt }
    ])
    const orders = orderListWire.parse({
      total: '3',
      data: [order, { ...order, id: 'o-2', orderNo: 10428, totalPrice: 'abc' }, { ...order, id: 'o-3' }, { id: 'o-4', totalPrice: 'abc' }]
    })
    expect(orders.orders.map((row) => row.id)).toEqual([order.id, 'o-3'])
    expect(orders.unreadable).toEqual([
      { id: 'o-2', label: 'order 10428', place: 1, problem: 'totalPrice: expected an amount in dollars' },
      { id: 'o-4', label: null, place: 3, problem: expect.any(String) as unknown }
    ])
  })

  it('reads a page of one row, that row unreadable, as a page with no rows read (the last page may hold only it)', () => {
    const read = sellRequestListWire.parse({ data: { total: 101, data: [{ ...sellRequest, price: 'abc' }] } })
    expect(read).toEqual({ total: 101, sellRequests: [], unreadable: [expect.objectContaining({ id: sellRequest.id, place: 0 })] })
  })

  it('refuses a page of rows none of which can be read, a wrong envelope, and anything but a rows array', () => {
    const none = sellRequestListWire.safeParse({ data: { total: 100, data: listings.map((row) => ({ ...row, price: 'abc' })) } })
    expect(!none.ok && none.problem).toBe('none of its 100 rows can be read (the first: price: expected an amount in dollars)')
    expect(orderListWire.safeParse({ total: '2', data: [{ nope: 1 }, { nope: 2 }] }).ok).toBe(false)
    expect(sellRequestListWire.safeParse({ total: 100, data: listings }).ok).toBe(false)
    expect(sellRequestListWire.safeParse({ data: { data: listings } }).ok).toBe(false)
    expect(sellRequestListWire.safeParse({ data: { total: 100, data: { rows: listings } } }).ok).toBe(false)
    expect(sellRequestListWire.safeParse('<html><title>502 Bad Gateway</title></html>').ok).toBe(false)
  })
})
