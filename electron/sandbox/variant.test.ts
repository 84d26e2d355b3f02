/**
 * Variants of the demo marketplace over real HTTP (plain fetch): each choice a marketplace may make
 * where the spec says "not shown", set at start, at runtime with setVariant, and checked against
 * what the sandbox does by default.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { NO_FAULTS } from './faults'
import { startSandbox, type Sandbox, type SandboxOptions } from './server'
import { DEFAULT_VARIANT } from './variant'

const KEY = 'sk_test_variant_7a1b'

type Init = { method?: string; body?: unknown; key?: string | null }

function call(box: Sandbox, path: string, init: Init = {}): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  const key = init.key === undefined ? box.apiKey : init.key
  if (key !== null) headers['x-api-key'] = key
  return fetch(`${box.baseUrl}${path}`, {
    method: init.method ?? 'GET',
    headers,
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {})
  })
}

async function json<T = Record<string, unknown>>(box: Sandbox, path: string, init: Init = {}): Promise<{ status: number; headers: Headers; body: T }> {
  const res = await call(box, path, init)
  return { status: res.status, headers: res.headers, body: (await res.json()) as T }
}

interface OrderList {
  total: unknown
  data: { id: string; orderDate: string; status: string; items: { id: string; status: string; properties: Record<string, string> }[] }[]
}
interface SellRequestList {
  data: { total: unknown; data: { id: string; status: string; price: number; quantity: number; properties: Record<string, string> }[] }
}

const orders = (box: Sandbox, query = '') => json<OrderList>(box, `/v1/orders/seller${query}`)
const sellRequests = (box: Sandbox, query = '') => json<SellRequestList>(box, `/v1/sell-requests${query}`)

const boxes: Sandbox[] = []
async function start(options: SandboxOptions = {}): Promise<Sandbox> {
  const box = await startSandbox({ apiKey: KEY, seed: 4, orders: 60, sellRequests: 50, ...options })
  boxes.push(box)
  return box
}
afterEach(async () => {
  await Promise.all(boxes.splice(0).map((box) => box.close()))
})

describe('settings', () => {
  it('default to the sandbox’s own choices; setVariant changes only the keys given', async () => {
    const box = await start()
    expect(box.variant).toEqual(DEFAULT_VARIANT)
    box.setVariant({ maxTake: 5, totalForm: 'number' })
    box.setVariant({ errorBody: 'text' })
    expect(box.variant).toEqual({ ...DEFAULT_VARIANT, maxTake: 5, totalForm: 'number', errorBody: 'text' })
    box.setVariant({ maxTake: null })
    expect(box.variant.maxTake).toBeNull()
    expect(box.variant.totalForm).toBe('number')
  })

  it('refuses impossible values with a RangeError naming the setting, at start and at runtime, changing nothing', async () => {
    const bad: Record<string, unknown>[] = [
      { maxTake: 0 },
      { fixedTake: 2.5 },
      { shortPageRate: 1.5 },
      { totalOffset: 0.5 },
      { totalForm: 'bigint' },
      { retryAfter: 'minutes' },
      { errorBody: 'xml' },
      { authStatus: 404 },
      { dateHeader: 'yes' },
      { orderDateDigits: 7 },
      { unknownFields: 1 },
      { patchRequires: 'none' },
      { churnPerList: -1 },
      { faultBurst: 0 },
      { variantSeed: Number.NaN },
      { colour: 'red' }
    ]
    for (const variant of bad) {
      const name = Object.keys(variant)[0] ?? ''
      await expect(startSandbox({ orders: 1, sellRequests: 1, variant: variant as never })).rejects.toThrow(new RegExp(name))
      await expect(startSandbox({ orders: 1, sellRequests: 1, variant: variant as never })).rejects.toBeInstanceOf(RangeError)
    }
    const box = await start()
    expect(() => box.setVariant({ maxTake: 3, faultBurst: 0 })).toThrow(RangeError)
    expect(box.variant).toEqual(DEFAULT_VARIANT)
  })
})

describe('paging', () => {
  it('maxTake: take=100 answers 7 rows and page 2 starts at row 8; a smaller take is kept', async () => {
    const box = await start({ variant: { maxTake: 7 } })
    const all = (await orders(box, '?take=1000')).body.data.map((o) => o.id).slice(0, 14)
    expect(all).toHaveLength(7) // the cap applies to every list
    box.setVariant({ maxTake: null })
    const truth = (await orders(box, '?take=1000')).body.data.map((o) => o.id)
    box.setVariant({ maxTake: 7 })

    const first = await orders(box, '?take=100&page=1')
    const second = await orders(box, '?take=100&page=2')
    expect(first.body.data.map((o) => o.id)).toEqual(truth.slice(0, 7))
    expect(second.body.data.map((o) => o.id)).toEqual(truth.slice(7, 14))
    expect(first.body.total).toBe('60')
    expect((await orders(box, '?take=3&page=2')).body.data.map((o) => o.id)).toEqual(truth.slice(3, 6))
    const sells = await sellRequests(box, '?take=50&page=2')
    expect(sells.body.data.data).toHaveLength(7)
    expect(sells.body.data.total).toBe(50)
  })

  it('fixedTake: take is ignored, even one the sandbox would refuse, and pages go by the fixed size; it wins over maxTake', async () => {
    const box = await start()
    const truth = (await sellRequests(box, '?take=1000')).body.data.data.map((s) => s.id)
    box.setVariant({ fixedTake: 4, maxTake: 2 })
    expect((await sellRequests(box, '?take=1&page=1')).body.data.data.map((s) => s.id)).toEqual(truth.slice(0, 4))
    expect((await sellRequests(box, '?take=100&page=3')).body.data.data.map((s) => s.id)).toEqual(truth.slice(8, 12))
    expect((await sellRequests(box, '?take=5000&page=2')).body.data.data.map((s) => s.id)).toEqual(truth.slice(4, 8))
    expect((await orders(box, '?take=50')).body.data).toHaveLength(4)
    expect((await orders(box, '?take=50&page=16')).body.data).toHaveLength(0)
  })

  it('minTake: a smaller take is refused with 400 on both lists and nothing is listed; a take from it pages as asked; asked with none, pages by it', async () => {
    const box = await start()
    const truth = (await orders(box, '?take=1000')).body.data.map((o) => o.id)
    box.setVariant({ minTake: 20 })
    const refused = await orders(box, '?take=19')
    expect(refused.status).toBe(400)
    expect(JSON.stringify(refused.body)).toMatch(/take must not be less than 20/)
    expect((await sellRequests(box, '?take=1&page=2')).status).toBe(400)
    expect((await orders(box, '?take=20&page=2')).body.data.map((o) => o.id)).toEqual(truth.slice(20, 40))
    expect((await orders(box, '?page=2')).body.data.map((o) => o.id)).toEqual(truth.slice(20, 40))
    expect((await sellRequests(box)).body.data.data).toHaveLength(20)
    box.setVariant({ minTake: null })
    expect((await orders(box, '?take=1')).body.data).toHaveLength(1)
  })

  it('shortPageRate 1: every non-empty page has fewer rows than asked, cut off its end, total unchanged', async () => {
    const box = await start()
    const truth = (await orders(box, '?take=1000')).body.data.map((o) => o.id)
    box.setVariant({ shortPageRate: 1 })
    for (let page = 1; page <= 6; page++) {
      const { body } = await orders(box, `?take=10&page=${page}`)
      expect(body.total).toBe('60')
      expect(body.data.length).toBeLessThan(10)
      expect(body.data.length).toBeGreaterThan(0)
      expect(body.data.map((o) => o.id)).toEqual(truth.slice((page - 1) * 10, (page - 1) * 10 + body.data.length))
    }
    const sells = await sellRequests(box, '?take=20')
    expect(sells.body.data.data.length).toBeLessThan(20)
    expect(sells.body.data.total).toBe(50)
  })

  it('shortPageRate follows the variant seed, and a share below 1 cuts some pages only', async () => {
    const run = async (seed: number) => {
      const box = await start({ variant: { shortPageRate: 0.5, variantSeed: seed } })
      const sizes: number[] = []
      for (let i = 0; i < 12; i++) sizes.push((await orders(box, '?take=5')).body.data.length)
      return sizes
    }
    const a = await run(3)
    expect(await run(3)).toEqual(a)
    expect(a.filter((n) => n === 5).length).toBeGreaterThan(0)
    expect(a.filter((n) => n < 5).length).toBeGreaterThan(0)
  })
})

describe('tied rows', () => {
  it('tiesShuffledPerRequest: rows changed together (changeTogether, one update time) come in a new order on each request; the rows around them, and each page as a whole, keep their places', async () => {
    const box = await start({ sellRequests: 50 })
    const at = Date.now() - 3_600_000
    const tied = new Set(box.changeTogether('sellRequests', 20, at))
    expect(box.state.sellRequests.filter((s) => s.updatedAt === at)).toHaveLength(20)
    const page = async (query: string) => (await sellRequests(box, query)).body.data.data.map((s) => s.id)
    const byId = await page('?take=50')
    expect(await page('?take=50'), 'off: tied rows in one order').toEqual(byId)
    box.setVariant({ tiesShuffledPerRequest: true })
    const orders: string[][] = []
    for (let i = 0; i < 6; i++) orders.push(await page('?take=50'))
    expect(new Set(orders.map((ids) => ids.join())).size, 'a new order on each request').toBeGreaterThan(1)
    for (const ids of orders) {
      expect(
        ids.filter((id) => !tied.has(id)),
        'untied rows where they were'
      ).toEqual(byId.filter((id) => !tied.has(id)))
      expect(
        ids.map((id) => tied.has(id)),
        'tied rows in the same places'
      ).toEqual(byId.map((id) => tied.has(id)))
    }
    // Pages of 7 cut the run: each page holds rows of the run drawn anew, so some row is read twice and another not at all.
    const read: string[] = []
    for (let i = 1; i <= 8; i++) read.push(...(await page(`?take=7&page=${i}`)))
    expect(read).toHaveLength(50)
    expect(new Set(read).size).toBeLessThan(50)
  })
})

describe('tied rows ordered by the page asked', () => {
  it('tiesOrderedByPage: a page asked again holds the same tied rows; pages of another size cut the run elsewhere and hold others; untied rows keep their places', async () => {
    const box = await start({ sellRequests: 50 })
    const tied = new Set(box.changeTogether('sellRequests', 30, Date.now() - 3_600_000))
    const page = async (query: string) => (await sellRequests(box, query)).body.data.data.map((s) => s.id)
    const byId = await page('?take=50')
    box.setVariant({ tiesOrderedByPage: true })
    const pagesOf = async (take: number) => {
      const read: string[] = []
      for (let i = 1; i * take < 50 + take; i++) read.push(...(await page(`?take=${take}&page=${i}`)))
      return read
    }
    const sevens = await pagesOf(7)
    expect(await pagesOf(7), 'the same pages, the same rows').toEqual(sevens)
    expect(sevens).toHaveLength(50)
    expect(new Set(sevens).size, 'some tied row read twice, another not at all').toBeLessThan(50)
    const fives = await pagesOf(5)
    expect(fives).not.toEqual(sevens)
    expect(new Set([...sevens, ...fives]).size, 'pages of another size bring rows the first missed').toBeGreaterThan(new Set(sevens).size)
    for (const ids of [sevens, fives]) {
      expect(ids.filter((id) => !tied.has(id))).toEqual(byId.filter((id) => !tied.has(id)))
      expect(ids.map((id) => tied.has(id))).toEqual(byId.map((id) => tied.has(id)))
    }
  })
})

describe('totals', () => {
  it('totalOffset: the total reported is off by the offset on both lists, never below 0; rows are unchanged', async () => {
    const box = await start({ variant: { totalOffset: -5 } })
    expect((await orders(box, '?take=1000')).body).toMatchObject({ total: '55' })
    expect((await orders(box, '?take=1000')).body.data).toHaveLength(60)
    expect((await sellRequests(box)).body.data.total).toBe(45)
    box.setVariant({ totalOffset: 7 })
    expect((await orders(box)).body.total).toBe('67')
    expect((await sellRequests(box, '?take=1000')).body.data).toMatchObject({ total: 57 })
    box.setVariant({ totalOffset: -1000 })
    expect((await orders(box)).body.total).toBe('0')
    expect((await sellRequests(box)).body.data.total).toBe(0)
  })

  it('totalForm: spec (string / integer), number (both numbers), string (both strings)', async () => {
    const box = await start()
    expect((await orders(box)).body.total).toBe('60')
    expect((await sellRequests(box)).body.data.total).toBe(50)
    box.setVariant({ totalForm: 'number' })
    expect((await orders(box)).body.total).toBe(60)
    expect((await sellRequests(box)).body.data.total).toBe(50)
    box.setVariant({ totalForm: 'string' })
    expect((await orders(box)).body.total).toBe('60')
    expect((await sellRequests(box)).body.data.total).toBe('50')
  })
})

describe('headers', () => {
  it('retryAfter: delta seconds by default, an HTTP date by the marketplace’s clock, or none', async () => {
    const box = await start({ faults: { retryAfterSeconds: 3 } })
    box.injectNext('rate-limit')
    expect((await call(box, '/v1/orders/seller')).headers.get('retry-after')).toBe('3')

    box.setVariant({ retryAfter: 'http-date' })
    for (const kind of ['rate-limit', 'unavailable'] as const) {
      box.injectNext(kind)
      const res = await call(box, '/v1/orders/seller')
      expect(res.status).toBe(kind === 'rate-limit' ? 429 : 503)
      const header = res.headers.get('retry-after') ?? ''
      expect(header).toMatch(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/)
      const ahead = Date.parse(header) - Date.parse(res.headers.get('date') ?? '')
      expect(ahead).toBeGreaterThanOrEqual(2_000)
      expect(ahead).toBeLessThanOrEqual(4_000)
      // The date is the sandbox's (DEFAULT_NOW, 2026-11-20), not the computer's.
      expect(Math.abs(Date.parse(header) - (box.state.generatedAt.getTime() + 3_000))).toBeLessThan(60_000)
    }

    box.setVariant({ retryAfter: 'absent' })
    box.injectNext('rate-limit')
    const none = await call(box, '/v1/orders/seller')
    expect(none.status).toBe(429)
    expect(none.headers.has('retry-after')).toBe(false)
  })

  it('dateHeader: the Date header follows the sandbox clock (a marketplace 10 minutes ahead), on every answer; false: none', async () => {
    const ahead = new Date(Date.now() + 10 * 60_000)
    const box = await start({ now: ahead })
    for (const res of [
      await call(box, '/v1/sell-requests'),
      await call(box, '/v1/orders/seller', { key: 'wrong' }),
      await fetch(`${box.baseUrl}/img/pixel-8--obsidian.svg`)
    ]) {
      const date = Date.parse(res.headers.get('date') ?? '')
      expect(Math.abs(date - ahead.getTime())).toBeLessThan(5_000)
      expect(date - Date.now()).toBeGreaterThan(9 * 60_000)
    }
    const fixed = await start() // DEFAULT_NOW, whatever the computer's clock says
    expect(Date.parse((await call(fixed, '/v1/orders/seller')).headers.get('date') ?? '')).toBeLessThan(fixed.state.generatedAt.getTime() + 60_000)

    box.setVariant({ dateHeader: false })
    expect((await call(box, '/v1/sell-requests')).headers.has('date')).toBe(false)
    expect((await call(box, '/v1/sell-requests', { key: null })).headers.has('date')).toBe(false)
  })
})

describe('error answers', () => {
  const cases = async (box: Sandbox) => ({
    badQuery: await call(box, '/v1/orders/seller?take=0'),
    noKey: await call(box, '/v1/orders/seller', { key: null })
  })

  it('errorBody json (default): the NestJS shape', async () => {
    const box = await start()
    const { badQuery } = await cases(box)
    expect(badQuery.headers.get('content-type')).toMatch(/^application\/json/)
    expect(await badQuery.json()).toMatchObject({ statusCode: 400, error: 'Bad Request', message: expect.stringContaining('take') })
  })

  it('errorBody json-array: message is a list of strings, one per problem', async () => {
    const box = await start({ variant: { errorBody: 'json-array', patchRequires: 'both' } })
    const { badQuery, noKey } = await cases(box)
    const body = (await badQuery.json()) as { statusCode: number; message: unknown }
    expect(body.statusCode).toBe(400)
    expect(Array.isArray(body.message)).toBe(true)
    expect((body.message as string[])[0]).toContain('take')
    expect(await noKey.json()).toEqual({ statusCode: 401, error: 'Unauthorized', message: ['Missing or invalid API key'] })
    const id = box.state.sellRequests[0]?.id ?? ''
    const both = await json<{ message: string[] }>(box, `/v1/sell-requests/${id}`, { method: 'PATCH', body: {} })
    expect(both.body.message).toEqual(['price must be given', 'quantity must be given'])
  })

  it('errorBody text: text/plain with the message', async () => {
    const box = await start({ variant: { errorBody: 'text' } })
    const { badQuery, noKey } = await cases(box)
    expect(badQuery.headers.get('content-type')).toMatch(/^text\/plain/)
    expect(await badQuery.text()).toMatch(/^take must be/)
    expect(await noKey.text()).toBe('Missing or invalid API key')
  })

  it('errorBody html: a proxy’s page with the status in its title, for faults too', async () => {
    const box = await start({ variant: { errorBody: 'html' } })
    box.injectNext('server-error')
    const res = await call(box, '/v1/sell-requests')
    expect(res.status).toBe(500)
    expect(res.headers.get('content-type')).toMatch(/^text\/html/)
    const page = await res.text()
    expect(page).toMatch(/^<html>/)
    expect(page).toContain('<title>500 Internal Server Error</title>')
    expect(page).toContain('<h1>500 Internal Server Error</h1>')
    expect(page).toContain('nginx')
    expect(await (await cases(box)).noKey.text()).toContain('<title>401 Unauthorized</title>')
  })

  it('errorBody empty: no body at all, Content-Length 0, for refusals and 429s alike', async () => {
    const box = await start({ variant: { errorBody: 'empty' } })
    box.injectNext('rate-limit')
    const limited = await call(box, '/v1/sell-requests')
    const { badQuery, noKey } = await cases(box)
    for (const [res, status] of [
      [limited, 429],
      [badQuery, 400],
      [noKey, 401]
    ] as const) {
      expect(res.status).toBe(status)
      expect(res.headers.get('content-length')).toBe('0')
      expect(res.headers.has('content-type')).toBe(false)
      expect(await res.text()).toBe('')
    }
    expect(limited.headers.get('retry-after')).toBe('1')
  })

  it('authStatus 403: a missing or wrong key is refused 403 Forbidden', async () => {
    const box = await start({ variant: { authStatus: 403 } })
    for (const key of [null, 'wrong']) {
      const res = await json(box, '/v1/orders/seller', { key })
      expect(res.status).toBe(403)
      expect(res.body).toEqual({ statusCode: 403, error: 'Forbidden', message: 'Missing or invalid API key' })
    }
    expect((await call(box, '/v1/orders/seller')).status).toBe(200)
  })
})

describe('rows', () => {
  it('orderDateDigits: 6 by default, 3, and 0 (no fraction, no dot)', async () => {
    const box = await start()
    const dates = async () => (await orders(box, '?take=30')).body.data.map((o) => o.orderDate)
    for (const date of await dates()) expect(date).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/)
    const full = await dates()
    box.setVariant({ orderDateDigits: 3 })
    const three = await dates()
    for (const date of three) expect(date).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/)
    expect(three).toEqual(full.map((d) => d.slice(0, -3)))
    box.setVariant({ orderDateDigits: 0 })
    for (const date of await dates()) expect(date).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/)
  })

  it('unknownFields: extra fields, an unknown property key and unlisted statuses, the same on every read and per seed', async () => {
    const box = await start({ orders: 120, sellRequests: 120 })
    const plainOrders = (await orders(box, '?take=1000')).body
    expect(JSON.stringify(plainOrders)).not.toMatch(/"channel"|"serialNumbers"|"region"/)
    box.setVariant({ unknownFields: true })

    const sells = (await sellRequests(box, '?take=1000')).body.data.data as unknown as Record<string, unknown>[]
    for (const s of sells) {
      expect(s['warehouse']).toMatch(/^WH-\d$/)
      expect(Array.isArray(s['tags'])).toBe(true)
      expect((s['properties'] as Record<string, string>)['region']).toBeTypeOf('string')
    }
    expect(sells.some((s) => ['pending-review', 'suspended'].includes(s['status'] as string))).toBe(true)

    const list = (await orders(box, '?take=1000')).body
    const rows = list.data as unknown as (Record<string, unknown> & { items: Record<string, unknown>[] })[]
    for (const order of rows) {
      expect(order['channel']).toBeTypeOf('string')
      for (const item of order.items) {
        expect(Array.isArray(item['serialNumbers'])).toBe(true)
        expect((item['properties'] as Record<string, string>)['region']).toBeTypeOf('string')
      }
    }
    expect(rows.some((o) => o['status'] === 'partially-shipped')).toBe(true)
    expect(rows.some((o) => o.items.some((i) => i['status'] === 'in-transit'))).toBe(true)
    expect(rows.some((o) => o['status'] === 'payment-confirmed')).toBe(true)

    expect((await orders(box, '?take=1000')).body).toEqual(list)
    box.setVariant({ variantSeed: 9 })
    expect((await orders(box, '?take=1000')).body).not.toEqual(list)

    const id = box.state.sellRequests[0]?.id ?? ''
    const edited = await json<{ data: Record<string, unknown> }>(box, `/v1/sell-requests/${id}`, { method: 'PATCH', body: { quantity: 4 } })
    expect(edited.body.data['warehouse']).toBeTypeOf('string')
  })
})

describe('editing', () => {
  it('patchRequires both: a one-field PATCH is 400 and changes nothing; both fields are accepted', async () => {
    const box = await start()
    const target = box.state.sellRequests[3]
    if (!target) throw new Error('no sell request')
    expect((await call(box, `/v1/sell-requests/${target.id}`, { method: 'PATCH', body: { quantity: 2 } })).status).toBe(200)

    box.setVariant({ patchRequires: 'both' })
    const before = { ...target }
    for (const body of [{ quantity: 9 }, { price: 12.5 }, {}]) {
      const res = await json<{ statusCode: number; message: string }>(box, `/v1/sell-requests/${target.id}`, { method: 'PATCH', body })
      expect(res.status).toBe(400)
      expect(res.body.message).toMatch(/price and quantity/)
    }
    expect(box.state.sellRequest(target.id)).toEqual(before)
    const both = await json<{ data: { price: number; quantity: number } }>(box, `/v1/sell-requests/${target.id}`, {
      method: 'PATCH',
      body: { price: 12.5, quantity: 9 }
    })
    expect(both.status).toBe(200)
    expect(both.body.data).toMatchObject({ price: 12.5, quantity: 9 })
  })
})

describe('churn', () => {
  it('churnPerList: what page 2 shows changes after page 1 was read', async () => {
    const read = async (churnPerList: number) => {
      const box = await start({ variant: { churnPerList, variantSeed: 5 } })
      const before = box.state.sellRequests.map((s) => s.id).reverse()
      await sellRequests(box, '?take=10&page=1')
      const second = (await sellRequests(box, '?take=10&page=2')).body.data.data.map((s) => s.id)
      return { expected: before.slice(10, 20), second }
    }
    const calm = await read(0)
    expect(calm.second).toEqual(calm.expected)
    const busy = await read(6)
    expect(busy.second).not.toEqual(busy.expected)
  })

  it('churnPerList: orders arrive and move between pages, and totals move with creates and deletes; same seed, same changes', async () => {
    const run = async () => {
      const box = await start({ variant: { churnPerList: 4, variantSeed: 2 } })
      const totals: [unknown, unknown][] = []
      const firstIds: string[] = []
      for (let i = 0; i < 8; i++) {
        const o = (await orders(box, '?take=5')).body
        const s = (await sellRequests(box, '?take=5')).body
        totals.push([o.total, s.data.total])
        firstIds.push(o.data[0]?.id ?? '')
      }
      return { totals, firstIds }
    }
    const a = await run()
    expect(new Set(a.totals.map(([o]) => o)).size).toBeGreaterThan(1)
    expect(new Set(a.totals.map(([, s]) => s)).size).toBeGreaterThan(1)
    expect(new Set(a.firstIds).size).toBeGreaterThan(1)
    expect((await run()).totals).toEqual(a.totals)
  })

  it('churn(n) makes n changes of every kind on demand, stamped with the clock so changed rows list first', async () => {
    const box = await start()
    const summary = box.churn(60)
    const counts = Object.values(summary).map((ids) => ids.length)
    expect(counts.reduce((a, b) => a + b, 0)).toBe(60)
    for (const count of counts) expect(count).toBeGreaterThan(0)

    const { body } = await sellRequests(box, '?take=1000')
    const ids = body.data.data.map((s) => s.id)
    expect(body.data.total).toBe(50 + summary.sellRequestsAdded.length - new Set(summary.sellRequestsDeleted).size)
    for (const id of summary.sellRequestsAdded.filter((id) => !summary.sellRequestsDeleted.includes(id))) expect(ids).toContain(id)
    for (const id of summary.sellRequestsDeleted) expect(ids).not.toContain(id)
    const touched = new Set([...summary.sellRequestsAdded, ...summary.sellRequestsEdited].filter((id) => !summary.sellRequestsDeleted.includes(id)))
    expect(new Set(ids.slice(0, touched.size))).toEqual(touched)

    const top = (await orders(box, `?take=${summary.ordersPlaced.length}`)).body
    expect(Number(top.total)).toBe(60 + summary.ordersPlaced.length)
  })
})

describe('fault bursts', () => {
  let box: Sandbox
  beforeAll(async () => {
    box = await startSandbox({ apiKey: KEY, orders: 10, sellRequests: 10 })
  })
  afterAll(() => box.close())

  it('faultBurst 3: one drawn 429 is followed by two more, then normal answers', async () => {
    const statuses = async () => {
      box.setFaults({ ...NO_FAULTS, faultSeed: 0, rateLimitRate: 1 })
      const out = [(await call(box, '/v1/orders/seller')).status]
      box.setFaults({ rateLimitRate: 0 })
      for (let i = 0; i < 3; i++) out.push((await call(box, '/v1/orders/seller')).status)
      return out
    }
    expect(await statuses()).toEqual([429, 200, 200, 200])
    box.setVariant({ faultBurst: 3 })
    expect(await statuses()).toEqual([429, 429, 429, 200])
    box.setVariant({ faultBurst: 1 })
  })

  it('faultBurst with a seeded rate: every drawn fault comes as a run of at least the burst', async () => {
    box.setVariant({ faultBurst: 3 })
    box.setFaults({ ...NO_FAULTS, faultSeed: 4, errorRate: 0.1 })
    const statuses: number[] = []
    for (let i = 0; i < 60; i++) statuses.push((await call(box, '/v1/sell-requests?take=1')).status)
    const runs: number[] = []
    statuses.forEach((status, i) => {
      if (status !== 500) return
      if (statuses[i - 1] === 500) runs[runs.length - 1] = (runs[runs.length - 1] ?? 0) + 1
      else runs.push(1)
    })
    expect(runs.length).toBeGreaterThan(1)
    const complete = statuses[statuses.length - 1] === 500 ? runs.slice(0, -1) : runs
    for (const run of complete) expect(run).toBeGreaterThanOrEqual(3)
    box.setVariant({ faultBurst: 1 })
  })

  it('unavailableRate: that share of requests is answered 503 with Retry-After', async () => {
    box.setFaults({ ...NO_FAULTS, faultSeed: 1, unavailableRate: 1, retryAfterSeconds: 2 })
    const res = await call(box, '/v1/orders/seller')
    expect(res.status).toBe(503)
    expect(res.headers.get('retry-after')).toBe('2')
    box.setFaults({ unavailableRate: 0.5 })
    const statuses: number[] = []
    for (let i = 0; i < 30; i++) statuses.push((await call(box, '/v1/orders/seller')).status)
    expect(statuses.filter((s) => s === 503).length).toBeGreaterThan(3)
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(3)
    expect(() => box.setFaults({ unavailableRate: 2 })).toThrow(RangeError)
    box.setFaults({ ...NO_FAULTS })
  })
})
