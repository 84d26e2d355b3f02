/**
 * nodeFetch against small local servers: what the global fetch did for the client is still done (the
 * request as ky builds it, compressed answers decoded, redirects not followed), and an answer cut short
 * or stopped rejects instead of resolving with part of the body.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib'
import ky, { type Options } from 'ky'
import { afterEach, expect, it } from 'vitest'
import { bodyBytes, nodeFetch, type NodeFetchInit } from './nodeFetch'

let server: Server | null = null
afterEach(
  () =>
    new Promise<void>((resolve) => {
      if (!server) return resolve()
      server.closeAllConnections()
      server.close(() => resolve())
      server = null
    })
)

async function serve(handler: (request: IncomingMessage, response: ServerResponse, body: string) => void): Promise<string> {
  server = createServer((request, response) => {
    let body = ''
    request.setEncoding('utf8')
    request.on('data', (chunk: string) => (body += chunk))
    request.on('end', () => handler(request, response, body))
  })
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`
}

it('sends what ky built (method, path, query, headers, body) and hands back status, headers and text', async () => {
  const base = await serve((request, response, body) => {
    response.setHeader('retry-after', '3')
    response.statusCode = 201
    response.end(
      JSON.stringify({ method: request.method, url: request.url, key: request.headers['x-api-key'], length: request.headers['content-length'], body })
    )
  })
  const http = ky.create({ prefixUrl: base, fetch: nodeFetch, retry: 0, headers: { 'x-api-key': 'k' } })
  const response = await http('v1/sell-requests/a', { method: 'patch', json: { quantity: 3, name: 'é' }, searchParams: { take: 1 } })
  expect(response.status).toBe(201)
  expect(response.headers.get('Retry-After')).toBe('3')
  expect(await response.json()).toEqual({ method: 'PATCH', url: '/v1/sell-requests/a?take=1', key: 'k', length: '26', body: '{"quantity":3,"name":"é"}' })
})

it('decodes answers compressed with gzip, deflate or br', async () => {
  const text = JSON.stringify({ data: Array.from({ length: 200 }, (_, i) => ({ id: `row-${i}`, name: 'Écran 15″' })) })
  const encoders = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync }
  const base = await serve((request, response) => {
    const encoding = request.url!.slice(1) as keyof typeof encoders
    expect(request.headers['accept-encoding']).toMatch(/gzip/)
    response.setHeader('content-encoding', encoding)
    response.end(encoders[encoding](text))
  })
  for (const encoding of Object.keys(encoders)) {
    const response = await nodeFetch(`${base}/${encoding}`)
    expect(response.headers.get('content-encoding')).toBeNull() // the body handed on is decoded
    expect(await response.text()).toBe(text)
  }
})

it('does not follow a redirect: the 3xx and its Location come back', async () => {
  const base = await serve((_request, response) => {
    response.writeHead(302, { location: 'https://elsewhere.example/steal' })
    response.end()
  })
  const response = await nodeFetch(`${base}/v1/orders`, { redirect: 'manual' })
  expect(response.status).toBe(302)
  expect(response.headers.get('location')).toBe('https://elsewhere.example/steal')
})

it('answers an empty body named compressed as empty (a 204, a length of 0, or nothing sent at all)', async () => {
  const base = await serve((request, response) => {
    if (request.url === '/204') response.writeHead(204, { 'content-encoding': 'gzip' })
    else if (request.url === '/zero') response.writeHead(200, { 'content-encoding': 'gzip', 'content-length': '0' })
    else response.writeHead(200, { 'content-encoding': 'br' }) // chunked, no bytes
    response.end()
  })
  for (const path of ['/204', '/zero', '/chunked']) {
    const response = await nodeFetch(`${base}${path}`)
    expect(await response.text(), path).toBe('')
  }
})

it('rejects a compressed body that does not decode', async () => {
  const base = await serve((_request, response) => {
    response.writeHead(200, { 'content-encoding': 'gzip' })
    response.end('not gzip at all')
  })
  await expect(nodeFetch(base)).rejects.toThrow()
})

it('answers a 204 with an empty body', async () => {
  const base = await serve((_request, response) => {
    response.writeHead(204)
    response.end()
  })
  const response = await nodeFetch(base)
  expect(response.status).toBe(204)
  expect(await response.text()).toBe('')
})

it('does not reuse a kept-alive connection the server is about to close (its Keep-Alive timeout hint, less a second)', { timeout: 10_000 }, async () => {
  const connections = new Set<unknown>()
  const base = await serve((request, response) => {
    connections.add(request.socket)
    response.end('{}')
  })
  server!.keepAliveTimeout = 2_000 // answers say Keep-Alive: timeout=2
  await (await nodeFetch(`${base}/one`)).text()
  await (await nodeFetch(`${base}/two`)).text()
  expect(connections.size).toBe(1) // reused while fresh
  await new Promise((resolve) => setTimeout(resolve, 1_500)) // past the hint less a second, before the server closes
  await (await nodeFetch(`${base}/three`)).text()
  expect(connections.size).toBe(2)
})

it('a read sent on a kept-alive connection the server has just dropped is sent again on a new one; a change is not', async () => {
  const base = await serve((request, response) => response.end(`{"at":"${request.url}"}`))
  const port = Number(new URL(base).port)
  await (await nodeFetch(`${base}/before`)).text()
  // The marketplace restarts at the same address: the connection kept for it is dead, unknown to the pool yet.
  const restart = async () => {
    server!.closeAllConnections()
    await new Promise<void>((resolve) => server!.close(() => resolve()))
    const answered = server!.listeners('request')[0] as (request: IncomingMessage, response: ServerResponse) => void
    server = createServer(answered)
    await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve))
  }
  await restart()
  expect(await (await nodeFetch(`${base}/after`)).text()).toBe('{"at":"/after"}')
  await (await nodeFetch(`${base}/again`)).text()
  await restart()
  await expect(nodeFetch(`${base}/change`, { method: 'PATCH', body: '{}' })).rejects.toMatchObject({ code: expect.stringMatching(/ECONNRESET|EPIPE/) })
})

it('rejects when the server hangs up in the middle of the answer', async () => {
  const base = await serve((_request, response) => {
    response.writeHead(200, { 'content-length': '1000' })
    response.write('{"data":')
    setTimeout(() => response.socket?.destroy(), 20)
  })
  await expect(nodeFetch(base)).rejects.toThrow()
})

it('rejects with the stop reason when stopped while the answer is arriving', async () => {
  const base = await serve((_request, response) => {
    response.writeHead(200)
    response.write('{"data":') // and nothing more
  })
  const controller = new AbortController()
  const answer = nodeFetch(base, { signal: controller.signal })
  setTimeout(() => controller.abort(new Error('stopped by the caller')), 50)
  await expect(answer).rejects.toThrow('stopped by the caller')
})

it.each(['before sending', 'while the answer is arriving'])(
  'a stop given beside the request (through ky, as the client sends) ends it %s, and so does the Request’s own signal',
  async (when) => {
    const base = await serve((_request, response) => {
      response.writeHead(200)
      response.write('{"data":') // and nothing more
    })
    const http = ky.create({ prefixUrl: base, fetch: nodeFetch, retry: 0, timeout: false })
    for (const given of ['stop', 'signal'] as const) {
      const controller = new AbortController()
      const reason = new Error(`stopped by the caller's ${given}`)
      if (when === 'before sending') controller.abort(reason)
      else setTimeout(() => controller.abort(reason), 50)
      const options: Options & NodeFetchInit = { [given]: controller.signal }
      await expect(http('v1/orders/seller', options)).rejects.toThrow(reason.message)
    }
  }
)

it('hands over the body it received without reading the Response; the Response reads the same', async () => {
  const sent = JSON.stringify({ data: ['é', 'x'.repeat(70_000)] })
  const base = await serve((_request, response) => response.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync(sent)))
  const answer = await nodeFetch(base)
  expect(Buffer.from(await bodyBytes(answer)).toString('utf8')).toBe(sent)
  expect(answer.bodyUsed).toBe(false)
  expect(await answer.text()).toBe(sent)
  // What the Response reads is its own copy: changing it leaves the bytes handed over as received.
  const again = await nodeFetch(base)
  const read = new Uint8Array(await again.arrayBuffer())
  read.fill(0)
  expect(Buffer.from(await bodyBytes(again)).toString('utf8')).toBe(sent)
  // An answer another fetch made is read from the Response.
  expect(Buffer.from(await bodyBytes(new Response('{"a":1}'))).toString('utf8')).toBe('{"a":1}')
})

it('keeps the system error code when nobody listens (the client tells "offline" by it)', async () => {
  const base = await serve(() => {})
  await new Promise<void>((resolve) => server!.close(() => resolve()))
  server = null
  await expect(nodeFetch(base)).rejects.toMatchObject({ code: 'ECONNREFUSED' })
})

it('refuses addresses that are not http or https', async () => {
  await expect(nodeFetch('file:///etc/passwd')).rejects.toThrow(/Cannot fetch file:/)
})
