import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { orderFormatIn, orderListFormat, sellRequestFormat, sellRequestListFormat, type WireFormat } from './wire'

const sellRequest = {
  id: 'sr-1',
  name: 'iPhone 15 Pro',
  category: 'Phones',
  brand: 'Apple',
  price: 899.99,
  msrp: 999,
  sku: 'APL-1',
  status: 'open',
  quantity: 12,
  minQuantity: 1,
  properties: { color: 'Black', grade: 'A', storage: 128, used: false, note: null },
  seller: 's-1',
  imgUrl: null,
  createdAt: '2026-10-01T10:00:00.000Z',
  updatedAt: '2026-11-19T14:03:22.123Z'
}
const item = {
  id: 'it-1',
  margin: 12.5,
  name: 'iPhone 15 Pro',
  quantity: 2,
  price: '899.99',
  total: 1799.98,
  properties: { color: 'Black' },
  status: 'awaiting-shipment',
  imageUrl: null,
  warrantyTime: 3,
  shippingMethod: 'PLATFORM_SHIPPING',
  shipment: 'shp_8f3a2b',
  possibleStatuses: ['seller-shipped'],
  sellrequestId: 'sr-1',
  trackingInformation: { slugId: 'ups', carrier: 'UPS', trackerId: null, trackingUrl: 'https://ups.example/1', trackingNumber: '1Z999' }
}
const order = {
  id: 'o-1',
  orderDate: '2026-11-19T14:03:22.123456',
  orderNo: 100234,
  status: 'payment-confirmed',
  quantity: '2',
  products: 1,
  totalPrice: '1799.98',
  amountPaid: 1799.98,
  items: [item, { ...item, id: 'it-2', trackingInformation: null, possibleStatuses: undefined }]
}
const orderList = { total: '1', data: [order] }
const sellRequestList = { status: 200, data: { total: 1, data: [sellRequest] } }
/** Empty lists whose rows are null or left out, as a server in Go sends them (a nil slice, omitempty). */
const emptyLists: [string, WireFormat<unknown>, unknown][] = [
  ['orders, rows null', orderListFormat, { total: '0', data: null }],
  ['orders, rows left out', orderListFormat, { total: '0' }],
  ['sell requests, rows null', sellRequestListFormat, { status: 200, data: { total: 0, data: null } }],
  ['sell requests, rows left out', sellRequestListFormat, { status: 200, data: { total: 0 } }]
]

/** Values a field may be swapped for: near misses of the formats the shapes check, and any JSON. */
const oddValue = fc.oneof(
  fc.constantFrom(
    null,
    undefined,
    '',
    '1',
    '-7',
    '1.5',
    '12.345',
    '1e3',
    ' 1',
    '0x10',
    'abc',
    1.5,
    -0,
    1e21,
    2 ** 53,
    -(2 ** 53) - 2,
    true,
    [],
    {},
    [1],
    ['a'],
    { a: [] },
    '2026-11-19',
    '2026-11-19T14:03',
    '2026-11-19T14:03:22Z',
    '2026-11-19T14:03:22.123+02:00',
    '2026-11-19 14:03:22',
    '2026-11-19T14:03:22.123Z ',
    '2026-02-31T00:00:00.000Z',
    '1234567890123456',
    '12345678901234.5',
    'x'.repeat(3)
  ),
  fc.jsonValue()
)

/** A path into the body (a field, a field of an element, …) and a value to put there. */
function mutated(base: unknown): fc.Arbitrary<unknown> {
  const paths: (string | number)[][] = []
  const walk = (value: unknown, path: (string | number)[]) => {
    paths.push(path)
    if (Array.isArray(value)) value.forEach((element, i) => walk(element, [...path, i]))
    else if (value && typeof value === 'object') for (const key of Object.keys(value)) walk((value as Record<string, unknown>)[key], [...path, key])
  }
  walk(base, [])
  return fc.array(fc.tuple(fc.constantFrom(...paths), oddValue, fc.boolean()), { minLength: 1, maxLength: 3 }).map((changes) => {
    const copy = structuredClone(base) as Record<string | number, unknown>
    for (const [path, value, remove] of changes) {
      if (path.length === 0) return value
      let at: unknown = copy
      for (const key of path.slice(0, -1)) at = at && typeof at === 'object' ? (at as Record<string | number, unknown>)[key] : undefined
      if (!at || typeof at !== 'object') continue
      if (remove) delete (at as Record<string | number, unknown>)[path.at(-1)!]
      else (at as Record<string | number, unknown>)[path.at(-1)!] = value
    }
    return copy
  })
}

describe('the written-out list checks', () => {
  // Each row is checked on its own (a row that cannot be read is skipped, not the page), inside a list's envelope.
  for (const [name, format, body] of [
    ['orders', orderListFormat, orderList],
    ['sell requests', sellRequestListFormat, sellRequestList],
    ['an order', orderFormatIn(null), order],
    ['a sell request', sellRequestFormat, sellRequest]
  ] as [string, WireFormat<unknown>, unknown][]) {
    it(`${name}: accept a page the shape accepts, so the usual page skips zod`, () => {
      expect(format.shape.safeParse(body).success).toBe(true)
      expect(format.accepts!(body)).toBe(true)
    })

    it(`${name}: never accept what the shape refuses`, () => {
      fc.assert(
        fc.property(mutated(body), (candidate) => {
          if (format.accepts!(candidate)) expect(format.shape.safeParse(candidate).success).toBe(true)
        }),
        { numRuns: 3_000 }
      )
    })
  }

  for (const [name, format, body] of emptyLists) {
    it(`${name}: accepted as the shape accepts it, so an empty page skips zod too`, () => {
      expect(format.shape.safeParse(body).success).toBe(true)
      expect(format.accepts!(body)).toBe(true)
    })
  }
})
