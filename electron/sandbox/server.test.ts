/**
 * The demo marketplace over real HTTP (fetch against 127.0.0.1): seeded data, wire formats of
 * shared/spec/seller-api.md, listing, editing, refusals, every fault kind and simulated activity.
 */
import { request as httpRequest, Agent } from 'node:http'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { NO_FAULTS } from './faults'
import { DEMO_API_KEY, startSandbox, type Sandbox } from './server'
import { generateMarketplace } from './seed'
import { isoMicrosZoneless, wireOrder, wireSellRequest, type WireOrder, type WireOrderList, type WireSellRequest, type WireSellRequestList } from './wire'

const KEY = 'sk_test_sandbox_5f0c1d2e3a4b'
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const ORDER_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/
const ISO_MS_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/
const TWO_DECIMALS = /^\d+\.\d{2}$/
const DIGITS = /^\d+$/

let sandbox: Sandbox

beforeAll(async () => {
  sandbox = await startSandbox({ apiKey: KEY, seed: 42, orders: 300, sellRequests: 250 })
})
afterAll(() => sandbox.close())

type Init = { method?: string; headers?: Record<string, string>; body?: string; key?: string | null; signal?: AbortSignal }

function call(box: Sandbox, path: string, init: Init = {}): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...init.headers }
  const key = init.key === undefined ? box.apiKey : init.key
  if (key !== null) headers['x-api-key'] = key
  return fetch(`${box.baseUrl}${path}`, {
    method: init.method ?? 'GET',
    headers,
    ...(init.body !== undefined ? { body: init.body } : {}),
    ...(init.signal ? { signal: init.signal } : {})
  })
}

async function json<T>(box: Sandbox, path: string, init: Init = {}): Promise<{ status: number; body: T }> {
  const res = await call(box, path, init)
  return { status: res.status, body: (await res.json()) as T }
}

const orders = (query = '', box = sandbox) => json<WireOrderList>(box, `/v1/orders/seller${query}`)
const sellRequests = (query = '', box = sandbox) => json<WireSellRequestList>(box, `/v1/sell-requests${query}`)
const patch = (id: string, body: unknown, query = '') =>
  json<{ description: string; data: WireSellRequest }>(sandbox, `/v1/sell-requests/${id}${query}`, {
    method: 'PATCH',
    body: typeof body === 'string' ? body : JSON.stringify(body)
  })

async function allOrders(query = '', box = sandbox): Promise<WireOrder[]> {
  const { body } = await orders(`?take=1000${query}`, box)
  return body.data
}

describe('seeded data', () => {
  it('is the same for the same seed, counts and now, and differs for another seed', () => {
    const options = { seed: 9, orders: 200, sellRequests: 150, now: new Date('2026-06-01T00:00:00Z') }
    const wire = (state: ReturnType<typeof generateMarketplace>) =>
      JSON.stringify({
        orders: state.orders.map((o) => wireOrder(o, 'http://x')),
        hidden: state.orders.map((o) => o.updatedAt),
        sellRequests: state.sellRequests.map((s) => wireSellRequest(s, 'http://x'))
      })
    const a = wire(generateMarketplace(options))
    expect(wire(generateMarketplace(options))).toBe(a)
    expect(wire(generateMarketplace({ ...options, seed: 10 }))).not.toBe(a)
    expect(wire(generateMarketplace({ ...options, now: new Date('2026-06-02T00:00:00Z') }))).not.toBe(a)
  })

  it('lies before now: orders over the last ~120 days, denser towards now', () => {
    const now = new Date('2026-06-01T00:00:00Z')
    const state = generateMarketplace({ seed: 3, orders: 2000, sellRequests: 300, now })
    const nowMicros = now.getTime() * 1000
    const ages = state.orders.map((o) => (nowMicros - o.orderDateMicros) / 86_400e6)
    expect(Math.min(...ages)).toBeGreaterThan(0)
    expect(Math.max(...ages)).toBeLessThanOrEqual(120)
    expect(ages.filter((d) => d < 30).length).toBeGreaterThan(ages.filter((d) => d >= 90).length * 2)
    expect(state.orders.filter((o) => o.updatedAt * 1000 < o.orderDateMicros || o.updatedAt >= now.getTime())).toEqual([])
    expect(state.sellRequests.filter((s) => s.updatedAt < s.createdAt || s.updatedAt >= now.getTime())).toEqual([])
  })

  it('has order items that reference existing sell requests, with their name, properties and price', () => {
    const state = generateMarketplace({ seed: 5, orders: 500, sellRequests: 200 })
    let multiItem = 0
    for (const order of state.orders) {
      if (order.items.length > 1) multiItem++
      expect(new Set(order.items.map((i) => i.sellrequestId)).size).toBe(order.items.length)
      for (const item of order.items) {
        const listing = state.sellRequest(item.sellrequestId)
        if (!listing || listing.name !== item.name || listing.priceCents !== item.priceCents) throw new Error(`item ${item.id} does not match its sell request`)
        expect(item.properties).toEqual(listing.properties)
      }
    }
    expect(multiItem).toBeGreaterThan(50)
    const stock = state.sellRequests.map((s) => s.quantity)
    expect(stock.filter((q) => q === 0).length).toBeGreaterThan(0)
    expect(Math.max(...stock)).toBeLessThanOrEqual(500)
    for (const s of state.sellRequests) {
      expect(s.msrpCents).toBeGreaterThanOrEqual(s.priceCents)
      expect(s.minQuantity).toBeGreaterThanOrEqual(1)
      expect(s.minQuantity).toBeLessThanOrEqual(10)
    }
  })

  it('seeds 20,000 orders and 20,000 sell requests quickly', () => {
    const started = performance.now()
    const state = generateMarketplace({ seed: 1, orders: 20_000, sellRequests: 20_000 })
    expect(state.orders).toHaveLength(20_000)
    expect(state.sellRequests).toHaveLength(20_000)
    expect(new Set(state.sellRequests.map((s) => s.id)).size).toBe(20_000)
    expect(performance.now() - started).toBeLessThan(3_000)
  })
})

describe('wire formats', () => {
  it('sends orders exactly as the spec describes them', async () => {
    const { status, body } = await orders('?take=100')
    expect(status).toBe(200)
    expect(Object.keys(body)).toEqual(['total', 'data'])
    expect(body.total).toBe('300')
    const statuses = new Set<string>()
    const moves = new Set<string>()
    for (const order of body.data) {
      expect(Object.keys(order)).toEqual(['id', 'orderDate', 'orderNo', 'status', 'quantity', 'products', 'totalPrice', 'amountPaid', 'items'])
      expect(order.id).toMatch(UUID_V4)
      expect(order.orderDate).toMatch(ORDER_DATE)
      expect(order.orderNo).toMatch(DIGITS)
      expect(['payment-confirmed', 'shipped', 'delivered', 'canceled', 'refunded']).toContain(order.status)
      expect(order.quantity).toMatch(DIGITS)
      expect(order.products).toMatch(DIGITS)
      expect(order.totalPrice).toMatch(TWO_DECIMALS)
      expect(order.amountPaid).toMatch(TWO_DECIMALS)
      expect(Number(order.quantity)).toBe(order.items.reduce((sum, i) => sum + i.quantity, 0))
      expect(Number(order.products)).toBe(order.items.length)
      expect(Math.round(Number(order.totalPrice) * 100)).toBe(order.items.reduce((sum, i) => sum + Math.round(i.total * 100), 0))
      for (const item of order.items) {
        expect(item.id).toMatch(UUID_V4)
        expect(item.sellrequestId).toMatch(UUID_V4)
        expect(typeof item.price).toBe('number')
        expect(typeof item.total).toBe('number')
        expect(typeof item.margin).toBe('number')
        expect(Number.isInteger(item.quantity)).toBe(true)
        expect(Math.round(item.price * item.quantity * 100)).toBe(Math.round(item.total * 100))
        expect(Object.keys(item.properties).sort()).toEqual(['carrier', 'color', 'grade', 'storage'])
        expect(item).toMatchObject({ warrantyTime: null, shippingTime: null, shippingMethod: 'PLATFORM_SHIPPING' })
        expect(item.shipment).toMatch(/^shp_[0-9a-f]+$/)
        expect(item.trackingInformation.trackerId).toMatch(/^trk_[0-9a-f]+$/)
        expect(item.trackingInformation.trackingUrl).toMatch(/^https:\/\/(www\.ups\.com|www\.fedex\.com|tools\.usps\.com|www\.dhl\.com)\//)
        expect(item.trackingInformation.trackingUrl).toContain(item.trackingInformation.trackingNumber)
        expect(['ups', 'fedex', 'usps', 'dhl']).toContain(item.trackingInformation.slugId)
        expect(item.imageUrl.startsWith(`${sandbox.baseUrl}/img/`)).toBe(true)
        statuses.add(item.status)
        for (const move of item.possibleStatuses) moves.add(move)
      }
    }
    expect([...statuses].sort()).toEqual(['awaiting-shipment', 'canceled', 'delivered', 'ready-to-ship', 'seller-shipped'])
    expect([...moves].sort()).toEqual(['canceled', 'seller-shipped'])
    expect(body.data.some((o) => o.items.some((i) => i.possibleStatuses.length === 0))).toBe(true)
    expect(JSON.stringify(body)).not.toContain('updatedAt') // the hidden update time stays hidden
  })

  it('sends sell requests exactly as the spec describes them', async () => {
    const { status, body } = await sellRequests('?take=100')
    expect(status).toBe(200)
    expect(body.status).toBe(200)
    expect(typeof body.description).toBe('string')
    expect(body.data.total).toBe(250)
    expect(body.data.data).toHaveLength(100)
    for (const s of body.data.data) {
      expect(Object.keys(s)).toEqual([
        'id',
        'name',
        'category',
        'brand',
        'price',
        'msrp',
        'sku',
        'status',
        'quantity',
        'minQuantity',
        'properties',
        'seller',
        'imgUrl',
        'createdAt',
        'updatedAt'
      ])
      expect(s.id).toMatch(UUID_V4)
      expect(s.seller).toMatch(UUID)
      expect(s.seller).toBe(sandbox.state.sellerId)
      expect(typeof s.price).toBe('number')
      expect(Math.abs(s.price * 100 - Math.round(s.price * 100))).toBeLessThan(1e-6)
      expect(s.msrp).toBeGreaterThanOrEqual(s.price)
      expect(Number.isInteger(s.quantity) && s.quantity >= 0).toBe(true)
      expect(Object.values(s.properties).every((v) => typeof v === 'string')).toBe(true)
      expect(s.createdAt).toMatch(ISO_MS_Z)
      expect(s.updatedAt).toMatch(ISO_MS_Z)
      expect(Date.parse(s.updatedAt)).toBeGreaterThanOrEqual(Date.parse(s.createdAt))
      expect(['Phones', 'Tablets', 'Laptops', 'Watches']).toContain(s.category)
    }
    expect(body.data.data.filter((s) => s.status === 'open').length).toBeGreaterThan(90)
  })

  it('serves product images itself, as SVG, without a key', async () => {
    const { body } = await sellRequests('?take=1')
    const url = body.data.data[0]?.imgUrl ?? ''
    expect(url).toMatch(new RegExp(`^${sandbox.baseUrl}/img/[a-z0-9-]+\\.svg$`))
    const res = await fetch(url)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^image\/svg\+xml/)
    const svg = await res.text()
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/)
    expect(svg).not.toMatch(/<script|href=/i)
    expect((await fetch(`${sandbox.baseUrl}/img/..%2Fsecret.svg`)).status).toBe(404)
  })

  it('keeps connections alive', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    const get = () =>
      new Promise<boolean>((resolve, reject) => {
        const req = httpRequest(`${sandbox.baseUrl}/v1/sell-requests?take=1`, { agent, headers: { 'x-api-key': KEY } }, (res) => {
          res.resume()
          res.on('end', () => resolve(req.reusedSocket))
        })
        req.on('error', reject)
        req.end()
      })
    expect(await get()).toBe(false)
    expect(await get()).toBe(true)
    agent.destroy()
  })
})

describe('listing', () => {
  it('pages orders with take and page: totals, no overlaps, nothing missed', async () => {
    const seen: string[] = []
    for (let page = 1; page <= 14; page++) {
      const { body } = await orders(`?take=23&page=${page}`)
      expect(body.total).toBe('300')
      expect(body.data.length).toBe(page < 14 ? 23 : 300 - 13 * 23)
      seen.push(...body.data.map((o) => o.id))
    }
    expect(new Set(seen).size).toBe(300)
    expect((await orders(`?take=23&page=15`)).body).toEqual({ total: '300', data: [] })
    expect((await orders()).body.data).toHaveLength(10) // default take
  })

  it('sorts orders by last update, most recent first by default; ASC reverses; lowercase accepted', async () => {
    const desc = await allOrders()
    const hidden = [...sandbox.state.orders].reverse().map((o) => o.id)
    expect(desc.map((o) => o.id)).toEqual(hidden)
    const asc = await allOrders('&sortDir=ASC')
    expect(asc.map((o) => o.id)).toEqual([...hidden].reverse())
    expect((await allOrders('&sortDir=asc')).map((o) => o.id)).toEqual(asc.map((o) => o.id))
    expect((await allOrders('&sortDir=DESC')).map((o) => o.id)).toEqual(hidden)
  })

  it('pages and sorts sell requests by updatedAt', async () => {
    const first = await sellRequests('?take=100&page=1')
    const third = await sellRequests('?take=100&page=3')
    expect(third.body.data.data).toHaveLength(50)
    const times = first.body.data.data.map((s) => Date.parse(s.updatedAt))
    expect(times).toEqual([...times].sort((a, b) => b - a))
    const asc = await sellRequests('?take=1&sortDir=ASC')
    expect(asc.body.data.data[0]?.id).toBe(sandbox.state.sellRequests[0]?.id)
    const ids = new Set([...first.body.data.data, ...third.body.data.data].map((s) => s.id))
    expect(ids.size).toBe(150)
  })

  it('narrows orders by searchTerm: item names, any case (the name only, as the spec says)', async () => {
    const name = sandbox.state.orders[0]?.items[0]?.name ?? ''
    const term = name.split(' ').slice(0, 2).join(' ').toUpperCase()
    const found = await allOrders(`&searchTerm=${encodeURIComponent(term)}`)
    expect(found.length).toBeGreaterThan(0)
    expect(found.length).toBeLessThan(300)
    for (const order of found) expect(order.items.some((i) => i.name.toLowerCase().includes(term.toLowerCase()))).toBe(true)
    const expected = sandbox.state.orders.filter((o) => o.items.some((i) => i.name.toLowerCase().includes(term.toLowerCase())))
    expect(found).toHaveLength(expected.length)

    const orderNo = sandbox.state.orders[5]?.orderNo ?? ''
    expect((await orders(`?searchTerm=${orderNo}`)).body.total).toBe('0')
    expect((await orders('?searchTerm=no-such-device-xyz')).body).toEqual({ total: '0', data: [] })
  })

  it('narrows sell requests by a partial name, any case', async () => {
    const { body } = await sellRequests('?take=1000&searchTerm=gAlAxY')
    expect(body.data.total).toBeGreaterThan(0)
    expect(body.data.total).toBeLessThan(250)
    expect(body.data.data.every((s) => s.name.toLowerCase().includes('galaxy'))).toBe(true)
    expect(body.data.total).toBe(sandbox.state.sellRequests.filter((s) => s.name.toLowerCase().includes('galaxy')).length)
  })

  it('narrows orders to those created or updated between fromDate and toDate (zone-less UTC, inclusive)', async () => {
    const dates = sandbox.state.orders.map((o) => o.orderDateMicros).sort((a, b) => a - b)
    const from = dates[100] as number
    const to = dates[200] as number
    const fromText = isoMicrosZoneless(from)
    const toText = isoMicrosZoneless(to)
    const found = await allOrders(`&fromDate=${fromText}&toDate=${toText}`)
    const within = (m: number) => m >= from && m <= to
    const expected = sandbox.state.orders.filter((o) => within(o.orderDateMicros) || within(o.updatedAt * 1000))
    expect(found.map((o) => o.id).sort()).toEqual(expected.map((o) => o.id).sort())
    expect(found.length).toBeGreaterThanOrEqual(101) // inclusive at both ends
    expect(found.length).toBeLessThan(300)
    expect(found.map((o) => o.orderDate)).toContain(fromText)
    expect(found.map((o) => o.orderDate)).toContain(toText)

    const after = await allOrders(`&fromDate=${fromText}`)
    expect(after.length).toBeGreaterThan(found.length - 1)
    expect(after.length).toBeLessThan(300)
    expect((await orders('?fromDate=2030-01-01')).body.total).toBe('0')
    expect((await orders('?toDate=2000-01-01T00:00')).body.total).toBe('0')
  })

  it('ignores fromDate and toDate on sell requests, and unknown parameters anywhere', async () => {
    expect((await sellRequests('?fromDate=2030-01-01&toDate=nonsense')).body.data.total).toBe(250)
    expect((await orders('?colour=red')).body.total).toBe('300')
  })
})

describe('editing and deleting sell requests', () => {
  it('PATCH changes price and quantity, stamps updatedAt, and the next list shows it first', async () => {
    const target = sandbox.state.sellRequests[20]
    if (!target) throw new Error('no sell request')
    const before = wireSellRequest(target, sandbox.baseUrl)
    const { status, body } = await patch(target.id, { price: 123.45, quantity: 17 }, '?take=10&page=2')
    expect(status).toBe(200)
    expect(typeof body.description).toBe('string')
    expect(body.data).toMatchObject({ id: target.id, price: 123.45, quantity: 17, msrp: before.msrp, name: before.name })
    expect(body.data.updatedAt).toMatch(ISO_MS_Z)
    expect(Date.parse(body.data.updatedAt)).toBeGreaterThan(Date.parse(before.updatedAt))
    expect(body.data.createdAt).toBe(before.createdAt)
    expect(sandbox.state.sellRequest(target.id)).toMatchObject({ priceCents: 12345, quantity: 17 })

    const list = await sellRequests('?take=1')
    expect(list.body.data.data[0]).toEqual(body.data)
    expect(list.body.data.total).toBe(250)
  })

  it('PATCH with one field leaves the other alone', async () => {
    const target = sandbox.state.sellRequests[30]
    if (!target) throw new Error('no sell request')
    const price = target.priceCents / 100
    const quantityOnly = await patch(target.id, { quantity: 0 })
    expect(quantityOnly.body.data).toMatchObject({ quantity: 0, price })
    const priceOnly = await patch(target.id.toUpperCase(), { price: 99 })
    expect(priceOnly.status).toBe(200)
    expect(priceOnly.body.data).toMatchObject({ id: target.id, quantity: 0, price: 99 })
  })

  it('DELETE removes the sell request; a second DELETE is 404', async () => {
    const target = sandbox.state.sellRequests[40]
    if (!target) throw new Error('no sell request')
    const total = (await sellRequests()).body.data.total
    const first = await json<{ description: string; data: { id: string } }>(sandbox, `/v1/sell-requests/${target.id}`, { method: 'DELETE' })
    expect(first.status).toBe(200)
    expect(typeof first.body.description).toBe('string')
    expect(first.body.data).toEqual({ id: target.id })
    const after = await sellRequests('?take=1000')
    expect(after.body.data.total).toBe(total - 1)
    expect(after.body.data.data.some((s) => s.id === target.id)).toBe(false)
    expect(sandbox.state.sellRequest(target.id)).toBeUndefined()

    const again = await json<{ statusCode: number; error: string; message: string }>(sandbox, `/v1/sell-requests/${target.id}`, { method: 'DELETE' })
    expect(again.status).toBe(404)
    expect(again.body).toMatchObject({ statusCode: 404, error: 'Not Found' })
    expect(again.body.message).toContain(target.id)
    expect((await patch(target.id, { quantity: 1 })).status).toBe(404)
  })
})

describe('refusals', () => {
  it('401 without the key or with a wrong one, in the NestJS shape, never echoing a key', async () => {
    const expected = { statusCode: 401, error: 'Unauthorized', message: 'Missing or invalid API key' }
    for (const key of [null, '', 'wrong-key', `${KEY}x`, DEMO_API_KEY]) {
      const res = await call(sandbox, '/v1/orders/seller', { key })
      expect(res.status).toBe(401)
      const text = await res.text()
      expect(JSON.parse(text)).toEqual(expected)
      if (key) expect(text).not.toContain(key)
    }
    expect((await call(sandbox, '/v1/sell-requests/00000000-0000-4000-8000-000000000000', { method: 'DELETE', key: null })).status).toBe(401)
  })

  it('400 for invalid list queries, naming the parameter', async () => {
    const cases: [string, string][] = [
      ['/v1/orders/seller?page=0', 'page'],
      ['/v1/orders/seller?page=1.5', 'page'],
      ['/v1/orders/seller?page=abc', 'page'],
      ['/v1/orders/seller?page=-1', 'page'],
      ['/v1/orders/seller?page=1&page=2', 'page'],
      ['/v1/orders/seller?take=0', 'take'],
      ['/v1/orders/seller?take=1001', 'take'],
      ['/v1/orders/seller?take=', 'take'],
      ['/v1/sell-requests?take=ten', 'take'],
      ['/v1/orders/seller?sortDir=up', 'sortDir'],
      ['/v1/sell-requests?sortDir=Desc', 'sortDir'],
      ['/v1/orders/seller?fromDate=yesterday', 'fromDate'],
      ['/v1/orders/seller?fromDate=2026-11-19T14:03:22Z', 'fromDate'],
      ['/v1/orders/seller?toDate=2026-02-31T00:00:00', 'toDate'],
      ['/v1/orders/seller?toDate=2026-11-19T25:00:00', 'toDate']
    ]
    for (const [path, name] of cases) {
      const { status, body } = await json<{ statusCode: number; error: string; message: string }>(sandbox, path)
      expect({ path, status }).toEqual({ path, status: 400 })
      expect(body).toMatchObject({ statusCode: 400, error: 'Bad Request' })
      expect(body.message).toContain(name)
    }
  })

  it('400 for invalid edit bodies and ids, naming the problem', async () => {
    const id = sandbox.state.sellRequests[60]?.id ?? ''
    const before = { ...sandbox.state.sellRequest(id) }
    const cases: [unknown, string][] = [
      ['not json', 'JSON'],
      ['[]', 'object'],
      ['null', 'object'],
      [{}, 'quantity or price'],
      [{ take: 5 }, 'quantity or price'],
      [{ quantity: -1 }, 'quantity'],
      [{ quantity: 1.5 }, 'quantity'],
      [{ quantity: '3' }, 'quantity'],
      [{ quantity: null }, 'quantity'],
      [{ price: 0 }, 'price'],
      [{ price: -5 }, 'price'],
      [{ price: '12.00' }, 'price'],
      [{ price: 12.345 }, 'price'],
      [{ price: 10, quantity: -2 }, 'quantity']
    ]
    for (const [body, word] of cases) {
      const res = await patch(id, body)
      expect({ body, status: res.status }).toEqual({ body, status: 400 })
      expect((res.body as unknown as { message: string }).message).toContain(word)
    }
    expect(sandbox.state.sellRequest(id)).toEqual(before)

    const noType = await json<{ message: string }>(sandbox, `/v1/sell-requests/${id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'text/plain' },
      body: '{"quantity":1}'
    })
    expect(noType.status).toBe(400)
    expect(noType.body.message).toContain('Content-Type')

    const badId = await patch('not-a-uuid', { quantity: 1 })
    expect(badId.status).toBe(400)
    expect((badId.body as unknown as { message: string }).message).toContain('UUID')
    expect((await json(sandbox, '/v1/sell-requests/12345', { method: 'DELETE' })).status).toBe(400)
    expect((await patch('4b1d7c3e-0000-4000-8000-000000000000', { quantity: 1 })).status).toBe(404)
    const big = await patch(id, JSON.stringify({ quantity: 1, pad: 'x'.repeat(70_000) }))
    expect(big.status).toBe(413)
  })

  it('404 for unknown paths and methods, in the same shape', async () => {
    for (const [method, path] of [
      ['GET', '/v1/orders'],
      ['GET', '/v2/sell-requests'],
      ['POST', '/v1/sell-requests'],
      ['GET', `/v1/sell-requests/${sandbox.state.sellRequests[0]?.id}`],
      ['GET', '/']
    ] as const) {
      const { status, body } = await json<{ statusCode: number; error: string; message: string }>(sandbox, path, { method })
      expect({ method, path, status }).toEqual({ method, path, status: 404 })
      expect(body).toMatchObject({ statusCode: 404, error: 'Not Found' })
      expect(typeof body.message).toBe('string')
    }
    expect((await orders('/')).status).toBe(200) // a trailing slash is the same path
  })
})

describe('faults', () => {
  let faulty: Sandbox
  beforeAll(async () => {
    faulty = await startSandbox({ orders: 30, sellRequests: 30 })
  })
  afterAll(() => faulty.close())
  beforeEach(() => faulty.setFaults({ ...NO_FAULTS, faultSeed: 0 }))

  it('server-error: 500 for the next N requests, then normal again', async () => {
    faulty.injectNext('server-error', 2)
    for (let i = 0; i < 2; i++) {
      const { status, body } = await orders('', faulty)
      expect(status).toBe(500)
      expect(body).toMatchObject({ statusCode: 500, error: 'Internal Server Error' })
    }
    expect((await orders('', faulty)).status).toBe(200)
  })

  it('a new injectNext replaces one-shot faults not yet used; count 0 clears them', async () => {
    faulty.injectNext('server-error', 3)
    faulty.injectNext('unavailable', 1)
    expect((await orders('', faulty)).status).toBe(503)
    expect((await orders('', faulty)).status).toBe(200)
    faulty.injectNext('server-error', 5)
    faulty.injectNext('server-error', 0)
    expect((await orders('', faulty)).status).toBe(200)
  })

  it('rate-limit: 429 with Retry-After', async () => {
    faulty.setFaults({ retryAfterSeconds: 3 })
    faulty.injectNext('rate-limit')
    const res = await call(faulty, '/v1/sell-requests')
    expect(res.status).toBe(429)
    expect(res.headers.get('retry-after')).toBe('3')
    expect(await res.json()).toMatchObject({ statusCode: 429, error: 'Too Many Requests' })
  })

  it('unavailable: 503 with Retry-After', async () => {
    faulty.injectNext('unavailable')
    const res = await call(faulty, '/v1/orders/seller')
    expect(res.status).toBe(503)
    expect(res.headers.get('retry-after')).toBe('1')
    expect(await res.json()).toMatchObject({ statusCode: 503, error: 'Service Unavailable' })
  })

  it('drop: the connection closes without an answer, so fetch rejects', async () => {
    faulty.injectNext('drop')
    await expect(call(faulty, '/v1/orders/seller')).rejects.toThrow()
    expect((await orders('', faulty)).status).toBe(200)
  })

  it('drop-after-handling: an edit or delete takes effect, then the connection closes without an answer; a plain drop makes none', async () => {
    // The last ones: the tests after this one take the first.
    const [edited, deleted, untouched] = faulty.state.sellRequests.slice(-3)
    if (!edited || !deleted || !untouched) throw new Error('not enough sell requests')
    faulty.injectNext('drop-after-handling')
    await expect(call(faulty, `/v1/sell-requests/${edited.id}`, { method: 'PATCH', body: '{"quantity":654}' })).rejects.toThrow()
    expect(faulty.state.sellRequest(edited.id)?.quantity).toBe(654)
    faulty.injectNext('drop-after-handling')
    await expect(call(faulty, `/v1/sell-requests/${deleted.id}`, { method: 'DELETE' })).rejects.toThrow()
    expect(faulty.state.sellRequest(deleted.id)).toBeUndefined()
    const quantity = untouched.quantity
    faulty.injectNext('drop')
    await expect(call(faulty, `/v1/sell-requests/${untouched.id}`, { method: 'PATCH', body: `{"quantity":${quantity + 1}}` })).rejects.toThrow()
    expect(faulty.state.sellRequest(untouched.id)?.quantity).toBe(quantity)
    // As a rate, with the others, and only while set.
    faulty.setFaults({ dropAfterHandlingRate: 1 })
    await expect(call(faulty, '/v1/orders/seller')).rejects.toThrow()
    faulty.setFaults({ dropAfterHandlingRate: 0 })
    expect((await orders('', faulty)).status).toBe(200)
  })

  it('malformed: 200 whose body is not JSON; an edit still took effect', async () => {
    const target = faulty.state.sellRequests[0]
    if (!target) throw new Error('no sell request')
    faulty.injectNext('malformed')
    const res = await call(faulty, `/v1/sell-requests/${target.id}`, { method: 'PATCH', body: '{"quantity":321}' })
    expect(res.status).toBe(200)
    const text = await res.text()
    expect(text.length).toBeGreaterThan(0)
    expect(() => JSON.parse(text)).toThrow()
    expect(faulty.state.sellRequest(target.id)?.quantity).toBe(321)
  })

  it('wrong-types: 200 with valid JSON whose fields have the wrong types', async () => {
    faulty.injectNext('wrong-types', 2)
    const list = (await orders('', faulty)).body as unknown as { total: unknown; data: { totalPrice: unknown; items: { total: unknown }[] }[] }
    expect(typeof list.total).not.toBe('string')
    expect(list.data[0]?.totalPrice).toEqual({})
    expect(list.data[0]?.items[0]?.total).toBe('abc')
    const sells = (await sellRequests('', faulty)).body as unknown as { data: { total: unknown; data: { price: unknown }[] } }
    expect(sells.data.total).toBe('abc')
    expect(sells.data.data[0]?.price).toBe('abc')
  })

  it('hang: accepted and never answered, until the client gives up; close() still ends it', async () => {
    const box = await startSandbox({ orders: 5, sellRequests: 5 })
    box.injectNext('hang')
    const started = performance.now()
    await expect(call(box, '/v1/orders/seller', { signal: AbortSignal.timeout(200) })).rejects.toThrow()
    expect(performance.now() - started).toBeGreaterThanOrEqual(190)
    box.injectNext('hang')
    const pending = call(box, '/v1/orders/seller').then(
      () => 'answered',
      () => 'failed'
    )
    await new Promise((resolve) => setTimeout(resolve, 50))
    const closing = performance.now()
    await box.close()
    expect(await pending).toBe('failed')
    expect(performance.now() - closing).toBeLessThan(1_000)
  })

  it('hold: the requests it picks wait unanswered until released, then are answered as they would have been; others pass', async () => {
    const box = await startSandbox({ orders: 5, sellRequests: 5 })
    try {
      const hold = box.hold(({ method, url }) => method === 'GET' && url.pathname === '/v1/orders/seller' && url.searchParams.has('toDate'))
      let answered = false
      const held = call(box, '/v1/orders/seller?toDate=2100-01-01').then(async (res) => {
        answered = true
        return { status: res.status, body: (await res.json()) as WireOrderList }
      })
      await expect.poll(() => hold.caught).toBe(1)
      // Not picked: answered while the other waits.
      expect((await orders('', box)).status).toBe(200)
      expect((await sellRequests('', box)).status).toBe(200)
      expect(answered).toBe(false)
      expect(hold.caught).toBe(1)
      hold.release()
      const { status, body } = await held
      expect(status).toBe(200)
      expect(body.total).toBe('5')
      expect(body.data).toHaveLength(5)
      // Released, it catches no more.
      expect((await orders('?toDate=2100-01-01', box)).status).toBe(200)
      expect(hold.caught).toBe(1)
    } finally {
      await box.close()
    }
  })

  it('hold: a request held when the marketplace closes is ended, not left open', async () => {
    const box = await startSandbox({ orders: 5, sellRequests: 5 })
    const hold = box.hold(() => true)
    const pending = call(box, '/v1/orders/seller').then(
      () => 'answered',
      () => 'failed'
    )
    await expect.poll(() => hold.caught).toBe(1)
    const closing = performance.now()
    await box.close()
    expect(await pending).toBe('failed')
    expect(performance.now() - closing).toBeLessThan(1_000)
    hold.release()
  })

  it('latency measurably delays every API request', async () => {
    const time = async () => {
      const started = performance.now()
      await (await call(faulty, '/v1/sell-requests?take=1')).text()
      return performance.now() - started
    }
    await time()
    const quick = await time()
    faulty.setFaults({ latencyMs: 150 })
    const slow = await time()
    expect(slow).toBeGreaterThanOrEqual(145)
    expect(slow).toBeGreaterThan(quick + 100)
  })

  it('rate-based faults follow the fault seed, and leave images alone', async () => {
    const run = async () => {
      faulty.setFaults({ errorRate: 0.5, faultSeed: 11 })
      const statuses: number[] = []
      for (let i = 0; i < 20; i++) statuses.push((await call(faulty, '/v1/sell-requests?take=1')).status)
      return statuses
    }
    const first = await run()
    expect(await run()).toEqual(first)
    expect(first.filter((s) => s === 500).length).toBeGreaterThan(2)
    expect(first.filter((s) => s === 200).length).toBeGreaterThan(2)

    faulty.setFaults({ errorRate: 0, rateLimitRate: 1 })
    expect((await call(faulty, '/v1/orders/seller')).status).toBe(429)
    faulty.setFaults({ rateLimitRate: 0, malformedRate: 1 })
    const garbled = await (await call(faulty, '/v1/orders/seller')).text()
    expect(() => JSON.parse(garbled)).toThrow()
    faulty.setFaults({ malformedRate: 0, dropRate: 1 })
    await expect(call(faulty, '/v1/orders/seller')).rejects.toThrow()

    faulty.setFaults({ dropRate: 0, errorRate: 1 })
    faulty.injectNext('drop')
    const image = await fetch(`${faulty.baseUrl}/img/pixel-8--obsidian.svg`)
    expect(image.status).toBe(200)
    await expect(call(faulty, '/v1/orders/seller')).rejects.toThrow() // the queued drop was still waiting
  })

  it('refuses impossible settings', () => {
    expect(() => faulty.setFaults({ errorRate: 2 })).toThrow(RangeError)
    expect(() => faulty.setFaults({ latencyMs: -1 })).toThrow(RangeError)
    expect(() => faulty.injectNext('explode' as never)).toThrow(RangeError)
  })
})

describe('activity', () => {
  it('addOrders: new orders arrive now, first in the list, with higher order numbers', async () => {
    const before = await allOrders()
    const highest = Math.max(...before.map((o) => Number(o.orderNo)))
    const ids = sandbox.addOrders(3)
    expect(ids).toHaveLength(3)
    const { body } = await orders('?take=3')
    expect(Number(body.total)).toBe(before.length + 3)
    expect(body.data.map((o) => o.id).sort()).toEqual([...ids].sort())
    for (const order of body.data) {
      expect(Number(order.orderNo)).toBeGreaterThan(highest)
      expect(order.orderDate > (before[0]?.orderDate ?? '')).toBe(true)
      expect(order.orderDate).toMatch(ORDER_DATE)
      for (const item of order.items) expect(sandbox.state.sellRequest(item.sellrequestId)).toBeDefined()
    }
  })

  it('touchOrders: updated orders come first and fall inside a fromDate window, though created earlier', async () => {
    const latest = sandbox.state.orders[sandbox.state.orders.length - 1]
    if (!latest) throw new Error('no orders')
    const since = isoMicrosZoneless(latest.updatedAt * 1000 + 1000)
    const firstWaiting = new Map(sandbox.state.orders.map((o) => [o.id, o.items.find((i) => i.status === 'awaiting-shipment')?.id]))
    const ids = sandbox.touchOrders(4)
    expect(new Set(ids).size).toBe(4)
    for (const id of ids) {
      // The first item awaiting shipment, if any, became ready to ship.
      const itemId = firstWaiting.get(id)
      const item = sandbox.state.order(id)?.items.find((i) => i.id === itemId)
      if (itemId) expect(item).toMatchObject({ status: 'ready-to-ship', possibleStatuses: ['seller-shipped', 'canceled'] })
    }
    const top = await orders('?take=4')
    expect(top.body.data.map((o) => o.id).sort()).toEqual([...ids].sort())
    const changed = await allOrders(`&fromDate=${since}`)
    expect(changed.map((o) => o.id).sort()).toEqual([...ids].sort())
    for (const order of changed) expect(order.orderDate < since).toBe(true)
  })

  it('counts API requests, not image requests, and by method', async () => {
    const box = await startSandbox({ orders: 3, sellRequests: 3 })
    try {
      await call(box, '/v1/orders/seller')
      await call(box, '/v1/orders/seller', { key: 'nope' })
      await fetch(`${box.baseUrl}/img/iphone-15-pro--natural-titanium.svg`)
      expect(box.requestCount()).toBe(2)
      const listing = (await sellRequests('', box)).body.data.data[0]!
      expect((await call(box, `/v1/sell-requests/${listing.id}`, { method: 'PATCH', body: JSON.stringify({ quantity: 3 }) })).status).toBe(200)
      expect([box.requestCount(), box.requestCount('GET'), box.requestCount('PATCH'), box.requestCount('patch'), box.requestCount('DELETE')]).toEqual([
        4, 3, 1, 1, 0
      ])
    } finally {
      await box.close()
    }
  })
})
