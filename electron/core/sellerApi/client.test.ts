/**
 * The Seller API client against the real demo marketplace (HTTP on loopback): every endpoint, every
 * fault the sandbox can inject, every error kind, and the key never in a message.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { startSandbox, type Sandbox } from '../../sandbox'
import { SellerDeskError } from '../../shared/errors'
import { createSellerApi, normaliseBaseUrl, serverMessageOf, type SellerApiOptions, type WireRows } from './client'
import { readBackCause } from '../readBack'
import { rowBounds } from './listRows'

let sandbox: Sandbox
const KEY = 'sk_test_client_0123456789abcdef'

beforeAll(async () => {
  sandbox = await startSandbox({ apiKey: KEY, seed: 7, orders: 120, sellRequests: 80 })
})
afterAll(() => sandbox.close())
beforeEach(() => {
  sandbox.setFaults({ latencyMs: 0, jitterMs: 0, errorRate: 0, rateLimitRate: 0, dropRate: 0, malformedRate: 0, retryAfterSeconds: 1 })
  sandbox.injectNext('server-error', 0) // clears one-shot faults a previous test left unused
})

const api = (options: Partial<SellerApiOptions> = {}) => createSellerApi({ baseUrl: sandbox.baseUrl, apiKey: KEY, backoffMs: 10, timeoutMs: 2_000, ...options })

async function failure(promise: Promise<unknown>): Promise<SellerDeskError> {
  try {
    await promise
  } catch (error) {
    expect(error).toBeInstanceOf(SellerDeskError)
    const e = error as SellerDeskError
    expect(e.message).not.toContain(KEY)
    expect(e.message.length).toBeGreaterThan(20)
    return e
  }
  throw new Error('expected the call to fail')
}

describe('endpoints', () => {
  it('lists orders with the spec query parameters', async () => {
    const all = await api().listOrders({ take: 200 })
    expect(all.total).toBe(120)
    const page2 = await api().listOrders({ page: 2, take: 25 })
    expect(page2.orders).toHaveLength(25)
    expect(page2.orders[0]!.id).toBe(all.orders[25]!.id)
    const asc = await api().listOrders({ take: 200, sortDir: 'ASC' })
    expect(asc.orders.map((o) => o.id)).toEqual([...all.orders].reverse().map((o) => o.id))

    const name = all.orders[0]!.items[0]!.name
    const found = await api().listOrders({ take: 200, searchTerm: name })
    expect(found.total).toBeGreaterThan(0)
    expect(found.total).toBeLessThan(120)
    expect(found.orders.every((o) => o.items.some((i) => i.name.toLowerCase().includes(name.toLowerCase())))).toBe(true)

    const dates = all.orders.map((o) => o.orderDate).sort()
    const from = dates[60]!
    const ranged = await api().listOrders({ take: 200, fromDate: from })
    expect(ranged.total).toBeGreaterThan(0)
    expect(ranged.total).toBeLessThan(120)
  })

  it('lists, edits and deletes sell requests', async () => {
    const list = await api().listSellRequests({ take: 5 })
    expect(list.total).toBe(sandbox.state.sellRequests.length)
    const target = list.sellRequests[4]!
    const edited = (await api().editSellRequest(target.id, { priceCents: 12345, quantity: 7 })).sellRequest
    expect(edited).toMatchObject({ id: target.id, priceCents: 12345, quantity: 7 })
    expect(Date.parse(edited.updatedAt)).toBeGreaterThanOrEqual(Date.parse(target.updatedAt))
    const first = (await api().listSellRequests({ take: 1 })).sellRequests[0]!
    expect(first.id).toBe(target.id) // most recently updated first
    expect(first.priceCents).toBe(12345)

    expect(await api().deleteSellRequest(target.id)).toEqual({ id: target.id })
    expect((await api().listSellRequests({ take: 1000 })).sellRequests.some((s) => s.id === target.id)).toBe(false)
  })

  it('reads an answer only once the caller’s beforeReading has resolved, which it awaits after onAnswered', async () => {
    const events: string[] = []
    let go!: () => void
    // The first wait holds the answer until go(); later ones are the turns a long answer is read over
    // (a turn a step here, turnMs 0: on a loaded machine the default turn may end after any step too).
    let waits = 0
    const listed = api()
      .listOrders(
        { take: 5 },
        {
          onAnswered: () => events.push('answered'),
          turnMs: 0,
          beforeReading: () => {
            events.push('before reading')
            return waits++ === 0 ? new Promise<void>((resolve) => (go = resolve)) : Promise.resolve()
          }
        }
      )
      .then((page) => {
        events.push('read')
        return page
      })
    await vi.waitFor(() => expect(events).toEqual(['answered', 'before reading']))
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(events).toEqual(['answered', 'before reading'])
    go()
    expect((await listed).orders).toHaveLength(5)
    expect(events.at(-1)).toBe('read')
    expect(events.slice(2, -1).every((event) => event === 'before reading')).toBe(true)
    expect(waits).toBeGreaterThan(1)
  })

  it('does not read an answer whose caller stopped while it waited to be read', async () => {
    const stop = new AbortController()
    const reason = new Error('stopped')
    const listed = api().listOrders({ take: 5 }, { signal: stop.signal, beforeReading: async () => stop.abort(reason) })
    await expect(listed).rejects.toBe(reason)
  })

  it('edits only the field given', async () => {
    const target = (await api().listSellRequests({ take: 1, page: 3 })).sellRequests[0]!
    const edited = (await api().editSellRequest(target.id, { quantity: 0 })).sellRequest
    expect(edited.priceCents).toBe(target.priceCents)
    expect(edited.quantity).toBe(0)
  })
})

describe('error kinds', () => {
  it('auth: a wrong or empty key', async () => {
    const wrong = await failure(createSellerApi({ baseUrl: sandbox.baseUrl, apiKey: 'wrong-key' }).listOrders())
    expect(wrong.kind).toBe('auth')
    expect(wrong.status).toBe(401)
    expect(wrong.message).not.toContain('wrong-key')
  })

  it('not-found: an unknown id', async () => {
    const e = await failure(api().deleteSellRequest('00000000-0000-4000-8000-000000000000'))
    expect(e.kind).toBe('not-found')
  })

  it('invalid-input: the server refuses a value, and says why', async () => {
    const target = (await api().listSellRequests({ take: 1 })).sellRequests[0]!
    const e = await failure(api().editSellRequest(target.id, { priceCents: -5 }))
    expect(e.kind).toBe('invalid-input')
    expect(e.status).toBe(400)
    expect(e.message).toMatch(/price/i)
  })

  it('rate-limited: retries after Retry-After, then succeeds', async () => {
    sandbox.injectNext('rate-limit', 1)
    const waits: number[] = []
    const started = Date.now()
    const result = await api({ onRetry: (r) => waits.push(r.delayMs) }).listOrders({ take: 1 })
    expect(result.orders).toHaveLength(1)
    expect(waits).toEqual([1000])
    expect(Date.now() - started).toBeGreaterThanOrEqual(950)
  })

  it('rate-limited: gives up with the wait time when retries run out', async () => {
    sandbox.injectNext('rate-limit', 5)
    const e = await failure(api({ retries: 1 }).listOrders({ take: 1 }))
    expect(e.kind).toBe('rate-limited')
    expect(e.status).toBe(429)
    expect(e.message).toMatch(/1 s/)
  })

  it('rate-limited: an unsafe call (PATCH) is retried on 429 because the server did not process it', async () => {
    const target = (await api().listSellRequests({ take: 1 })).sellRequests[0]!
    sandbox.injectNext('rate-limit', 1)
    const edited = (await api({ maxRetryAfterMs: 5_000 }).editSellRequest(target.id, { quantity: 3 })).sellRequest
    expect(edited.quantity).toBe(3)
  })

  it('server: 500s are retried for GET, then reported', async () => {
    sandbox.injectNext('server-error', 2)
    const retries: string[] = []
    expect((await api({ onRetry: (r) => retries.push(r.reason) }).listOrders({ take: 1 })).orders).toHaveLength(1)
    expect(retries).toEqual(['server', 'server'])

    sandbox.injectNext('server-error', 10)
    const e = await failure(api({ retries: 2 }).listOrders({ take: 1 }))
    expect(e.kind).toBe('server')
    expect(e.status).toBe(500)
  })

  it('server: 503 honours Retry-After', async () => {
    sandbox.injectNext('unavailable', 1)
    const waits: number[] = []
    await api({ onRetry: (r) => waits.push(r.delayMs) }).listSellRequests({ take: 1 })
    expect(waits).toEqual([1000])
  })

  it('server: a PATCH that failed with 500 is not repeated', async () => {
    const target = (await api().listSellRequests({ take: 1 })).sellRequests[0]!
    sandbox.injectNext('server-error', 1)
    const before = sandbox.requestCount()
    const e = await failure(api().editSellRequest(target.id, { quantity: 9 }))
    expect(e.kind).toBe('server')
    expect(sandbox.requestCount() - before).toBe(1)
  })

  it('network: a dropped connection is retried for GET, and reported when it persists', async () => {
    sandbox.injectNext('drop', 1)
    expect((await api().listOrders({ take: 1 })).orders).toHaveLength(1)
    sandbox.injectNext('drop', 10)
    const e = await failure(api({ retries: 1 }).listOrders({ take: 1 }))
    expect(e.kind).toBe('network')
  })

  it('network: nothing listening, reported after one quick retry rather than a long backoff', async () => {
    const closed = await startSandbox({ apiKey: KEY, orders: 1, sellRequests: 1 })
    const baseUrl = closed.baseUrl
    await closed.close()
    const retries: number[] = []
    const started = Date.now()
    const e = await failure(createSellerApi({ baseUrl, apiKey: KEY, retries: 6, backoffMs: 300, onRetry: (r) => retries.push(r.attempt) }).listOrders())
    expect(e.kind).toBe('network')
    expect(e.message).toContain(new URL(baseUrl).host)
    expect(retries).toEqual([1])
    expect(Date.now() - started).toBeLessThan(1_500)
  })

  it('timeout: no answer in time', async () => {
    sandbox.injectNext('hang', 1)
    const e = await failure(api({ timeoutMs: 300, retries: 0 }).listOrders({ take: 1 }))
    expect(e.kind).toBe('timeout')
  })

  it('timeout: a marketplace that does not answer twice in a row is given up on then, not after every retry', async () => {
    sandbox.injectNext('hang', 5)
    const retries: number[] = []
    const started = Date.now()
    const e = await failure(api({ timeoutMs: 300, retries: 6, onRetry: (r) => retries.push(r.attempt) }).listOrders({ take: 1 }))
    expect(e.kind).toBe('timeout')
    expect(retries).toEqual([1])
    expect(Date.now() - started).toBeLessThan(1_500)
    sandbox.injectNext('hang', 0)
  })

  it('timeout: one slow answer is still tried again, and server errors keep their retries', async () => {
    sandbox.injectNext('server-error', 2)
    const retries: number[] = []
    const once = api({ timeoutMs: 300, retries: 6, onRetry: (r) => retries.push(r.attempt) })
    await expect(once.listOrders({ take: 1 })).resolves.toMatchObject({ orders: expect.any(Array) })
    expect(retries).toEqual([1, 2])
    sandbox.injectNext('hang', 1)
    const afterHang: number[] = []
    await expect(api({ timeoutMs: 300, retries: 6, onRetry: (r) => afterHang.push(r.attempt) }).listOrders({ take: 1 })).resolves.toMatchObject({
      orders: expect.any(Array)
    })
    expect(afterHang).toEqual([1])
  })

  it('timeout: latency beyond the limit', async () => {
    sandbox.setFaults({ latencyMs: 600 })
    const e = await failure(api({ timeoutMs: 200, retries: 1 }).listSellRequests({ take: 1 }))
    expect(e.kind).toBe('timeout')
    sandbox.setFaults({ latencyMs: 0 })
  })

  it('malformed-response: truncated JSON, again when asked once more', async () => {
    sandbox.injectNext('malformed', 2)
    const before = sandbox.requestCount()
    const e = await failure(api().listOrders({ take: 5 }))
    expect(e.kind).toBe('malformed-response')
    expect(e.message).toMatch(/not valid JSON/)
    expect(e.afterRetry).toBe(true)
    expect(sandbox.requestCount() - before, 'asked once more, then refused').toBe(2)
  })

  it('a read whose answer came garbled once is asked again and read (truncated JSON, wrong types)', async () => {
    const whole = await api().listOrders({ take: 5 })
    for (const fault of ['malformed', 'wrong-types'] as const) {
      sandbox.injectNext(fault, 1)
      const before = sandbox.requestCount()
      expect((await api().listOrders({ take: 5 })).orders, fault).toEqual(whole.orders)
      expect(sandbox.requestCount() - before, fault).toBe(2)
    }
  })

  it('unconfirmed: an edit or delete answered 2xx with a body that cannot be read was taken; a list read so stays malformed-response', async () => {
    const [first, second] = (await api().listSellRequests({ take: 2, page: 2 })).sellRequests
    for (const fault of ['malformed', 'wrong-types'] as const) {
      const newPrice = sandbox.state.sellRequest(first!.id)!.priceCents + 101
      sandbox.injectNext(fault, 1)
      const e = await failure(api().editSellRequest(first!.id, { priceCents: newPrice }))
      expect(e.kind, fault).toBe('unconfirmed')
      expect(e.message).toMatch(/accepted the change .*could not be read, so the change was most likely made/)
      // Neither the body nor any part of it is repeated.
      expect(e.message).not.toMatch(/[{}]|"data"|abc/)
      expect(sandbox.state.sellRequest(first!.id)!.priceCents, 'the marketplace made the change').toBe(newPrice)
    }
    sandbox.injectNext('malformed', 1)
    expect((await failure(api().deleteSellRequest(second!.id))).kind).toBe('unconfirmed')
    expect(sandbox.state.sellRequest(second!.id)).toBeUndefined()
    for (const fault of ['malformed', 'wrong-types'] as const) {
      sandbox.injectNext(fault, 2)
      expect((await failure(api().listSellRequests({ take: 5 }))).kind, fault).toBe('malformed-response')
    }
  })

  it('malformed-response: wrong types name the field', async () => {
    sandbox.injectNext('wrong-types', 2)
    const e = await failure(api().listOrders({ take: 5 }))
    expect(e.kind).toBe('malformed-response')
    // The count is checked with the envelope; the rows, each on its own (a row that cannot be read is skipped).
    expect(e.message).toMatch(/\(order list\): total: /)
  })

  it('completes under random faults (500s, 429s, drops, jitter)', async () => {
    sandbox.setFaults({ errorRate: 0.15, rateLimitRate: 0.1, retryAfterSeconds: 0, dropRate: 0.1, jitterMs: 5, faultSeed: 3 })
    const client = api({ retries: 8, backoffMs: 1 })
    const ids = new Set<string>()
    for (let page = 1; page <= 12; page++) for (const order of (await client.listOrders({ page, take: 10 })).orders) ids.add(order.id)
    expect(ids.size).toBe(120)
  })
})

describe('base URL', () => {
  it('normalises what a seller pastes', () => {
    expect(normaliseBaseUrl(' https://api.example.com/ ')).toBe('https://api.example.com')
    expect(normaliseBaseUrl('https://api.example.com/v1/')).toBe('https://api.example.com')
    expect(normaliseBaseUrl('https://example.com/market/v1?x=1#y')).toBe('https://example.com/market')
    expect(normaliseBaseUrl('api.example.com')).toBe('https://api.example.com')
    expect(normaliseBaseUrl('http://127.0.0.1:4010/')).toBe('http://127.0.0.1:4010')
    // No scheme typed: a server on this computer is taken as plain http, any other as https.
    expect(normaliseBaseUrl('127.0.0.1:4010')).toBe('http://127.0.0.1:4010')
    expect(normaliseBaseUrl('localhost:4010/v1')).toBe('http://localhost:4010')
    expect(normaliseBaseUrl('[::1]:4010')).toBe('http://[::1]:4010')
    expect(normaliseBaseUrl('https://127.0.0.1:4010')).toBe('https://127.0.0.1:4010')
    expect(normaliseBaseUrl('api.example.com:8443')).toBe('https://api.example.com:8443')
  })
  it('refuses what is not https (http only on this computer)', () => {
    for (const bad of [
      'ftp://x.example.com',
      'javascript:alert(1)',
      'https://user:pw@example.com',
      'http://api.example.com',
      'http://10.0.0.5:8080',
      'https://'
    ]) {
      expect(() => normaliseBaseUrl(bad), bad).toThrowError(SellerDeskError)
    }
  })
  it('says a slip in the scheme as such, not as the rule about plain http', () => {
    expect(() => normaliseBaseUrl('htp://127.0.0.1:4810')).toThrowError(
      'The marketplace address starts with “htp://”: it must start with https:// (or http:// for a server on this computer).'
    )
    expect(() => normaliseBaseUrl('http://api.example.com')).toThrowError(
      'The marketplace address must start with https:// (plain http:// is only allowed for a server on this computer).'
    )
  })
})

/** A real HTTP server that misbehaves the way a test needs. */
async function rogueServer(handler: (request: IncomingMessage, response: ServerResponse) => void) {
  const server = createServer(handler)
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()))
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections()
      return new Promise<void>((done) => server.close(() => done()))
    }
  }
}

describe('misbehaving servers', () => {
  it('does not follow a redirect (the key would go with it) and names where it pointed', async () => {
    let keySeenElsewhere = false
    const elsewhere = await rogueServer((request, response) => {
      keySeenElsewhere = request.headers['x-api-key'] !== undefined
      response.end('{}')
    })
    const redirecting = await rogueServer((request, response) => {
      response.writeHead(302, { location: `${elsewhere.baseUrl}${request.url}` })
      response.end()
    })
    const e = await failure(createSellerApi({ baseUrl: redirecting.baseUrl, apiKey: KEY, retries: 0 }).listOrders())
    expect(e.kind).toBe('server')
    expect(e.message).toContain(elsewhere.baseUrl)
    expect(keySeenElsewhere).toBe(false)
    await redirecting.close()
    await elsewhere.close()
  })

  it('an answer sent as HTTP 200 whose body says it failed (the spec’s "status" field): a read fails as that status, is retried as it, and never reads as no rows; a change is read back', async () => {
    const listing = sandbox.state.sellRequests[0]!
    let failing = 0
    const saying = await rogueServer((request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' })
      if (request.method === 'PATCH') return response.end(JSON.stringify({ status: 500, description: 'Internal error', data: null }))
      if (failing > 0) {
        failing--
        return response.end(JSON.stringify({ status: 503, description: 'Service temporarily unavailable', data: { total: 0, data: null } }))
      }
      if (request.url!.startsWith('/v1/orders/seller?take=5')) return response.end(JSON.stringify({ status: '404', total: '0', data: 'none' }))
      // “No records found” beside a list that reads: the list is what it says.
      if (request.url!.startsWith('/v1/orders/seller')) return response.end(JSON.stringify({ status: 404, message: 'No records found', total: '0', data: [] }))
      response.end(
        JSON.stringify({
          status: 200,
          description: 'OK',
          data: {
            total: 1,
            data: [
              {
                ...sandbox.state.sellRequest(listing.id),
                price: 12.5,
                createdAt: '2026-10-01T10:00:00.000Z',
                updatedAt: '2026-10-02T10:00:00.000Z',
                id: listing.id,
                name: 'A',
                status: 'open',
                quantity: 3
              }
            ]
          }
        })
      )
    })
    const client = (retries: number) => createSellerApi({ baseUrl: saying.baseUrl, apiKey: KEY, retries, backoffMs: 5, timeoutMs: 2_000 })
    failing = 1
    const e = await failure(client(0).listSellRequests({ take: 5 }))
    expect(e.kind).toBe('server')
    expect(e.status).toBe(503)
    expect(e.message).toBe('The marketplace is temporarily unavailable (status 503 in its answer, sent as HTTP 200). Try again in a minute.')
    // Asked again as a 503 is, it reads the rows that come then.
    failing = 1
    expect((await client(2).listSellRequests({ take: 5 })).sellRequests.map((row) => row.id)).toEqual([listing.id])
    // The status as numeric text, on a list whose spec has no such field, beside data that does not read: as that status.
    const notFound = await failure(client(0).listOrders({ take: 5 }))
    expect(notFound.kind).toBe('not-found')
    expect(notFound.message).toContain('(status 404 in its answer, sent as HTTP 200)')
    expect(await client(0).listOrders({ take: 6 })).toMatchObject({ total: 0, orders: [] })
    // A change answered so may or may not have been made: only reading it back tells.
    const change = await failure(client(0).editSellRequest(listing.id, { priceCents: 1299 }))
    expect(change.kind).toBe('unconfirmed')
    // What its body said is kept: the read-back's message tells it.
    expect(change.saidFailed).toBe('status 500: “Internal error”')
    expect(change.message).toContain('said it failed (status 500: “Internal error”)')
    await saying.close()
  })

  it('a 403 with Retry-After is a limit, waited for and asked again (a PATCH too); without it, the key refused; a 408 is asked again', async () => {
    const answers: { status: number; headers?: Record<string, string> }[] = []
    let patches = 0
    const server = await rogueServer((request, response) => {
      if (request.method === 'PATCH') patches++
      const next = answers.shift()
      if (next) {
        response.writeHead(next.status, { 'content-type': 'application/json', ...next.headers })
        return response.end(JSON.stringify({ message: 'not now' }))
      }
      response.writeHead(200, { 'content-type': 'application/json' })
      if (request.method === 'PATCH') return response.end(JSON.stringify({ data: { ...listing, price: 12.5 } }))
      response.end(JSON.stringify({ total: '0', data: [] }))
    })
    const listing = {
      id: '3f6c2a7e-1b2d-4c3e-8f9a-0b1c2d3e4f50',
      name: 'A',
      price: 10,
      status: 'open',
      quantity: 3,
      createdAt: '2026-10-01T10:00:00.000Z',
      updatedAt: '2026-10-02T10:00:00.000Z'
    }
    const client = (retries: number) => createSellerApi({ baseUrl: server.baseUrl, apiKey: KEY, retries, backoffMs: 5, timeoutMs: 2_000 })
    answers.push({ status: 403, headers: { 'retry-after': '0' } })
    expect((await client(2).listOrders()).total).toBe(0)
    answers.push({ status: 403, headers: { 'retry-after': '0' } })
    const limited = await failure(client(0).listOrders())
    expect([limited.kind, limited.message]).toEqual(['rate-limited', 'The marketplace is limiting requests (HTTP 403). Try again in a moment.'])
    answers.push({ status: 403 })
    expect((await failure(client(2).listOrders())).kind).toBe('auth')
    answers.push({ status: 408 })
    expect((await client(2).listOrders()).total).toBe(0)
    // A change the marketplace did not process (a limit's 403, a 408) is sent again.
    answers.push({ status: 403, headers: { 'retry-after': '0' } }, { status: 408 })
    expect((await client(3).editSellRequest(listing.id, { priceCents: 1250 })).sellRequest.priceCents).toBe(1250)
    expect(patches).toBe(3)
    await server.close()
  })

  it('times out a body that stalls after the headers', async () => {
    const stalling = await rogueServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.write('{"total":"1","data":[')
    })
    const started = Date.now()
    const e = await failure(createSellerApi({ baseUrl: stalling.baseUrl, apiKey: KEY, retries: 0, timeoutMs: 300 }).listOrders())
    expect(e.kind).toBe('timeout')
    expect(Date.now() - started).toBeLessThan(2_000)
    await stalling.close()
  })

  it('gives up at once when Retry-After asks for longer than it will wait', async () => {
    const busy = await rogueServer((_request, response) => {
      response.writeHead(429, { 'retry-after': '120', 'content-type': 'application/json' })
      response.end('{"message":"slow down"}')
    })
    const started = Date.now()
    const e = await failure(createSellerApi({ baseUrl: busy.baseUrl, apiKey: KEY, maxRetryAfterMs: 5_000 }).listOrders())
    expect(e.kind).toBe('rate-limited')
    expect(e.message).toMatch(/120 s/)
    expect(Date.now() - started).toBeLessThan(1_000)
    await busy.close()
  })

  it('never repeats a server message that quotes the key, even partly', async () => {
    const echoing = await rogueServer((request, response) => {
      response.writeHead(400, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ message: `bad request for key ${String(request.headers['x-api-key']).slice(0, 12)}…` }))
    })
    const e = await failure(createSellerApi({ baseUrl: echoing.baseUrl, apiKey: KEY }).listOrders())
    expect(e.kind).toBe('invalid-input')
    expect(e.message).not.toContain(KEY.slice(0, 8))
    await echoing.close()
  })

  it('says a change may have been applied when the connection drops during it', async () => {
    const target = (await api().listSellRequests({ take: 1 })).sellRequests[0]!
    sandbox.injectNext('drop', 1)
    const e = await failure(api().editSellRequest(target.id, { quantity: 4 }))
    expect(e.kind).toBe('network')
    expect(e.message).toMatch(/may or may not have been applied/)
  })

  it('says a change was not made when the marketplace refused the connection (nothing was sent), and a read says only why', async () => {
    const gone = createServer()
    await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve))
    const { port } = gone.address() as AddressInfo
    await new Promise<void>((resolve) => gone.close(() => resolve()))
    const closed = createSellerApi({ baseUrl: `http://127.0.0.1:${port}`, apiKey: KEY })

    const change = await failure(closed.editSellRequest('00000000-0000-4000-8000-000000000001', { quantity: 4 }))
    expect(change.kind).toBe('network')
    expect(change.message).toBe(
      `The marketplace at 127.0.0.1:${port} refused the connection: it may be down or restarting. Nothing was sent, so nothing changed.`
    )
    const read = await failure(closed.listOrders())
    expect(read.kind).toBe('network')
    expect(read.message).toBe(`The marketplace at 127.0.0.1:${port} refused the connection: it may be down or restarting.`)
  })

  it('a change whose answer never came (timed out, connection lost) is marked unanswered, sent once, made or not; a read, or a change refused a connection, is not', async () => {
    const [made, notMade, slow, removed] = (await api().listSellRequests({ take: 4, page: 4 })).sellRequests
    const sent = async (call: () => Promise<unknown>) => {
      const before = sandbox.requestCount()
      const e = await failure(call())
      expect(sandbox.requestCount() - before, 'sent once, never again blind').toBe(1)
      return e
    }

    sandbox.injectNext('drop-after-handling', 1)
    const afterHandling = await sent(() => api().editSellRequest(made!.id, { quantity: made!.quantity + 7 }))
    expect(afterHandling).toMatchObject({ kind: 'network', unanswered: true })
    expect(sandbox.state.sellRequest(made!.id)!.quantity).toBe(made!.quantity + 7)

    sandbox.injectNext('drop', 1)
    const beforeHandling = await sent(() => api().editSellRequest(notMade!.id, { quantity: notMade!.quantity + 7 }))
    expect(beforeHandling).toMatchObject({ kind: 'network', unanswered: true })
    expect(sandbox.state.sellRequest(notMade!.id)!.quantity).toBe(notMade!.quantity)

    sandbox.injectNext('hang', 1)
    expect(await sent(() => api({ timeoutMs: 300 }).editSellRequest(slow!.id, { quantity: 1 }))).toMatchObject({ kind: 'timeout', unanswered: true })

    sandbox.injectNext('drop-after-handling', 1)
    expect(await sent(() => api().deleteSellRequest(removed!.id))).toMatchObject({ kind: 'network', unanswered: true })
    expect(sandbox.state.sellRequest(removed!.id)).toBeUndefined()

    sandbox.injectNext('drop', 10)
    expect(await failure(api({ retries: 1 }).listOrders({ take: 1 }))).toMatchObject({ kind: 'network', unanswered: false })
    sandbox.injectNext('drop', 0)

    const gone = createServer()
    await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve))
    const { port } = gone.address() as AddressInfo
    await new Promise<void>((resolve) => gone.close(() => resolve()))
    const refused = await failure(createSellerApi({ baseUrl: `http://127.0.0.1:${port}`, apiKey: KEY }).editSellRequest(made!.id, { quantity: 4 }))
    expect(refused).toMatchObject({ kind: 'network', unanswered: false })
  })

  it('a DELETE retried after 429 that then finds nothing reports success (the first one worked)', async () => {
    const target = (await api().listSellRequests({ take: 1, page: 2 })).sellRequests[0]!
    let calls = 0
    const flaky = await rogueServer((request, response) => {
      calls++
      if (calls === 1) {
        // Pass the first DELETE on, then pretend we were rate limited.
        void fetch(`${sandbox.baseUrl}${request.url}`, { method: 'DELETE', headers: { 'x-api-key': KEY } }).then(() => {
          response.writeHead(429, { 'retry-after': '0' })
          response.end()
        })
        return
      }
      void fetch(`${sandbox.baseUrl}${request.url}`, { method: 'DELETE', headers: { 'x-api-key': KEY } }).then(async (upstream) => {
        response.writeHead(upstream.status, { 'content-type': 'application/json' })
        response.end(await upstream.text())
      })
    })
    expect(await createSellerApi({ baseUrl: flaky.baseUrl, apiKey: KEY }).deleteSellRequest(target.id)).toEqual({ id: target.id })
    expect(calls).toBe(2)
    await flaky.close()
  })

  it('a change a gateway answers 502 or 504 for is unanswered, to be read back, never plainly failed; a server error, sent once; a 500, and reads, as before', async () => {
    const [made502, made504, lost504, removed] = (await api().listSellRequests({ take: 4, page: 6 })).sellRequests
    // What the gateway does with each request in turn: pass it on to the marketplace or not, then answer
    // in the marketplace's place with the status given (none: relay the marketplace's answer).
    const plans: { passOn: boolean; status?: number }[] = []
    let received = 0
    const gateway = await rogueServer((request, response) => {
      received++
      const plan = plans.shift() ?? { passOn: true }
      const chunks: Buffer[] = []
      request.on('data', (chunk: Buffer) => chunks.push(chunk))
      request.on('end', () => {
        const body = chunks.length > 0 ? Buffer.concat(chunks).toString('utf8') : undefined
        const upstream = plan.passOn
          ? fetch(`${sandbox.baseUrl}${request.url}`, {
              method: request.method!,
              headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
              ...(body !== undefined ? { body } : {})
            }).then(async (answer) => ({ status: answer.status, text: await answer.text() }))
          : Promise.resolve(null)
        void upstream.then((answer) => {
          if (plan.status === undefined && answer) {
            response.writeHead(answer.status, { 'content-type': 'application/json' })
            return response.end(answer.text)
          }
          response.writeHead(plan.status!, { 'content-type': 'text/html' })
          response.end(`<html><head><title>${plan.status} Gateway Error</title></head><body>nginx</body></html>`)
        })
      })
    })
    const client = createSellerApi({ baseUrl: gateway.baseUrl, apiKey: KEY, backoffMs: 1 })
    const answered = async (status: number, passOn: boolean, call: () => Promise<unknown>) => {
      plans.push({ passOn, status })
      const before = received
      const e = await failure(call())
      expect(received - before, 'sent once, never again blind').toBe(1)
      expect(plans, 'every planned answer used').toEqual([])
      return e
    }

    try {
      // Made by the marketplace, its answer lost at the gateway: read back, which finds it made.
      const e502 = await answered(502, true, () => client.editSellRequest(made502!.id, { quantity: made502!.quantity + 5 }))
      expect(e502).toMatchObject({ kind: 'server', status: 502, unanswered: true })
      expect(readBackCause(e502)).toEqual({ why: 'unanswered' })
      expect(e502.message).toMatch(/gateway in front of the marketplace got no answer from it \(HTTP 502\)\. The change may or may not have been applied/)
      expect(sandbox.state.sellRequest(made502!.id)!.quantity).toBe(made502!.quantity + 5)

      const e504 = await answered(504, true, () => client.editSellRequest(made504!.id, { priceCents: made504!.priceCents + 100 }))
      expect(e504).toMatchObject({ kind: 'server', status: 504, unanswered: true })
      expect(readBackCause(e504)).toEqual({ why: 'unanswered' })
      expect(sandbox.state.sellRequest(made504!.id)!.priceCents).toBe(made504!.priceCents + 100)

      // Never reached the marketplace: read back too, which finds it not made.
      const lost = await answered(504, false, () => client.editSellRequest(lost504!.id, { quantity: lost504!.quantity + 5 }))
      expect(lost).toMatchObject({ kind: 'server', status: 504, unanswered: true })
      expect(sandbox.state.sellRequest(lost504!.id)!.quantity).toBe(lost504!.quantity)

      const deleted = await answered(504, true, () => client.deleteSellRequest(removed!.id))
      expect(deleted).toMatchObject({ kind: 'server', status: 504, unanswered: true })
      expect(sandbox.state.sellRequest(removed!.id)).toBeUndefined()

      // The marketplace's own failure says the change failed, as before.
      const failed = await answered(500, false, () => client.editSellRequest(lost504!.id, { quantity: 1 }))
      expect(failed).toMatchObject({ kind: 'server', status: 500, unanswered: false })
      expect(readBackCause(failed)).toBeNull()

      // A read is asked again, and when the gateway keeps failing reported as the marketplace's problem.
      plans.push({ passOn: false, status: 502 })
      expect((await client.listSellRequests({ take: 1 })).sellRequests).toHaveLength(1)
      plans.push({ passOn: false, status: 504 }, { passOn: false, status: 504 })
      const read = await failure(createSellerApi({ baseUrl: gateway.baseUrl, apiKey: KEY, backoffMs: 1, retries: 1 }).listOrders({ take: 1 }))
      expect(read).toMatchObject({ kind: 'server', status: 504, unanswered: false })
      expect(read.message).toMatch(/had a problem \(HTTP 504\)/)
    } finally {
      await gateway.close()
    }
  })
})

describe('answers with no body', () => {
  it('a DELETE answered 204 No Content succeeds, with the id asked for', async () => {
    const target = (await api().listSellRequests({ take: 1, page: 3 })).sellRequests[0]!
    // The sandbox deletes it; the answer that comes back has no body.
    const terse = await rogueServer((request, response) => {
      void fetch(`${sandbox.baseUrl}${request.url}`, { method: 'DELETE', headers: { 'x-api-key': KEY } }).then((upstream) => {
        response.writeHead(upstream.ok ? 204 : upstream.status)
        response.end()
      })
    })
    expect(await createSellerApi({ baseUrl: terse.baseUrl, apiKey: KEY }).deleteSellRequest(target.id)).toEqual({ id: target.id })
    expect(sandbox.state.sellRequest(target.id)).toBeUndefined()
    await terse.close()
  })

  it('an edit answered with no body is unconfirmed (taken, its data missing); a list so answered is malformed: its data is needed', async () => {
    const blank = await rogueServer((_request, response) => {
      response.writeHead(204)
      response.end()
    })
    const client = createSellerApi({ baseUrl: blank.baseUrl, apiKey: KEY, retries: 0 })
    expect((await failure(client.editSellRequest('sr-1', { quantity: 3 }))).kind).toBe('unconfirmed')
    expect((await failure(client.listSellRequests())).kind).toBe('malformed-response')
    expect((await failure(client.listOrders())).kind).toBe('malformed-response')
    await blank.close()
  })
})

describe('empty lists', () => {
  it('rows sent as null or left out: no rows, and the rows as received are an empty array', async () => {
    for (const rows of [{ data: null }, {}]) {
      const goLike = await rogueServer((request, response) => {
        response.writeHead(200, { 'content-type': 'application/json' })
        response.end(JSON.stringify(request.url!.startsWith('/v1/sell-requests') ? { status: 200, data: { total: 0, ...rows } } : { total: '0', ...rows }))
      })
      const client = createSellerApi({ baseUrl: goLike.baseUrl, apiKey: KEY, retries: 0 })
      const orders = await client.listOrders()
      expect(orders).toMatchObject({ total: 0, orders: [] })
      // What the snapshot stores rows from: the path must still lead to an array, an empty one.
      expect('json' in orders.wire && rowBounds(Buffer.from(orders.wire.json), orders.wire.path)).toEqual([])
      const sellRequests = await client.listSellRequests()
      expect(sellRequests).toMatchObject({ total: 0, sellRequests: [] })
      expect('json' in sellRequests.wire && rowBounds(Buffer.from(sellRequests.wire.json), sellRequests.wire.path)).toEqual([])
      await goLike.close()
    }
  })
})

describe('rows that cannot be read', () => {
  /** The ids of the rows in a list answer's rows as received (what the snapshot stores). */
  const storedIds = (wire: WireRows) => {
    const bytes = 'bytes' in wire ? wire.bytes : Buffer.from(wire.json)
    const bounds = 'bytes' in wire ? wire.bounds : rowBounds(bytes, wire.path)!
    const ids: string[] = []
    for (let j = 0; j < bounds.length; j += 2) ids.push((JSON.parse(Buffer.from(bytes).toString('utf8', bounds[j], bounds[j + 1])) as { id: string }).id)
    return ids
  }

  it('a page of 100 with 2 rows that cannot be read: the 98 are read and stored, the 2 said by id (or place) and why', async () => {
    const whole = await api().listSellRequests({ take: 100, sortDir: 'DESC' })
    const listings = whole.sellRequests.slice(0, 100)
    sandbox.spoilRows('sellRequests', [listings[3]!.id, listings[71]!.id])
    try {
      const page = await api().listSellRequests({ take: 100 })
      expect(page.total).toBe(whole.total)
      expect(page.sellRequests.map((row) => row.id)).toEqual(listings.filter((_, i) => i !== 3 && i !== 71).map((row) => row.id))
      const label = (row: { name: string; sku: string }) => `${row.name} (SKU ${row.sku})`
      expect(page.unreadable).toEqual([
        {
          id: listings[3]!.id,
          label: label(listings[3]!),
          place: 3,
          problem: 'price: expected an amount in dollars',
          updatedAt: expect.any(String) as unknown
        },
        {
          id: listings[71]!.id,
          label: label(listings[71]!),
          place: 71,
          problem: 'price: expected an amount in dollars',
          updatedAt: expect.any(String) as unknown
        }
      ])
      expect(storedIds(page.wire)).toEqual(page.sellRequests.map((row) => row.id))

      const orders = (await api().listOrders({ take: 100 })).orders
      sandbox.spoilRows('orders', [orders[0]!.id], 'no-id')
      const orderPage = await api().listOrders({ take: 100 })
      expect(orderPage.orders.map((row) => row.id)).toEqual(orders.slice(1).map((row) => row.id))
      expect(orderPage.unreadable).toEqual([{ id: null, label: `order ${orders[0]!.orderNo}`, place: 0, problem: expect.stringMatching(/^id: /) as unknown }])
      expect(storedIds(orderPage.wire)).toEqual(orders.slice(1).map((row) => row.id))
    } finally {
      sandbox.spoilRows('sellRequests', [])
      sandbox.spoilRows('orders', [])
    }
  })

  it('still refuses a body that is not JSON, a wrong envelope, and a page none of whose rows can be read', async () => {
    const listings = (await api().listSellRequests({ take: 100 })).sellRequests
    const answers: [string, string][] = [
      ['<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>', 'text/html'],
      [JSON.stringify({ status: 200, data: { count: 80, data: listings } }), 'application/json'],
      [JSON.stringify({ status: 200, data: listings }), 'application/json'],
      [
        JSON.stringify({
          status: 200,
          data: {
            total: 2,
            data: [
              { ...listings[0], price: 'abc' },
              { ...listings[1], price: 'abc' }
            ]
          }
        }),
        'application/json'
      ]
    ]
    for (const [body, type] of answers) {
      const rogue = await rogueServer((_request, response) => {
        response.writeHead(200, { 'content-type': type })
        response.end(body)
      })
      const e = await failure(createSellerApi({ baseUrl: rogue.baseUrl, apiKey: KEY, retries: 1, backoffMs: 1 }).listSellRequests({ take: 100 }))
      expect(e.kind, body.slice(0, 60)).toBe('malformed-response')
      await rogue.close()
    }
  })
})

describe('what a marketplace said in an error body', () => {
  it('reads the message in the shapes servers use, never markup', () => {
    const cases: [string, string][] = [
      ['{"statusCode":400,"message":"price must be a number","error":"Bad Request"}', 'price must be a number'],
      ['{"statusCode":400,"message":["price must be a number","quantity must be an integer"]}', 'price must be a number; quantity must be an integer'],
      ['{"message":"Bad","description":null}', 'Bad'],
      ['"price is required"', 'price is required'],
      ['{"error":{"message":"quantity too large"}}', 'quantity too large'],
      ['{"errors":[{"message":"a"},{"message":"b"}]}', 'a; b'],
      ['{"type":"about:blank","title":"Bad Request","detail":"price must be positive"}', 'price must be positive'],
      ['{"message":"<b>price</b> must be &lt; 1000"}', 'price must be < 1000'],
      ['price<max and quantity>0', 'price<max and quantity>0'],
      ['<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1><hr>nginx</body></html>', '502 Bad Gateway'],
      ['<!DOCTYPE html><html><body><h1>Service Unavailable</h1></body></html>', 'Service Unavailable'],
      ['', ''],
      ['{"status":"error"}', ''],
      ['   too   many\n  spaces ', 'too many spaces']
    ]
    for (const [body, said] of cases) expect(serverMessageOf(body), body).toBe(said)
  })

  it('says nothing when the body quotes any part of the key, even past where the message is cut', () => {
    const key = 'sk_live_0123456789abcdef'
    expect(serverMessageOf(`{"message":"${'x'.repeat(295)} ${key}"}`, key)).toBe('')
    expect(serverMessageOf(`invalid key ${key.slice(3, 14)}`, key)).toBe('')
    expect(serverMessageOf('invalid key', key)).toBe('invalid key')
  })
})
