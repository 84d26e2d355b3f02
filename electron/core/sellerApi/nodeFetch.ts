/**
 * The `fetch` ky sends the client's requests with: the same contract as the global fetch (a Request in,
 * a Response out), carried by Node's own http and https modules instead of undici's fetch. undici builds
 * web streams, a second Request and a tee of the body for every call: work a bulk apply repeats for
 * every listing it sends (bench/bulkApply.bench.ts times both).
 *
 * What the client relied on from fetch is kept: connections are kept alive, answers compressed with
 * gzip, deflate or br are decoded, redirects are not followed (the client reports them: following one
 * would carry the key elsewhere), and a stop (the signal) or a connection lost before the end of the
 * answer rejects instead of resolving with a partial body. Errors keep Node's `code` (ECONNREFUSED…),
 * which the client reads to tell "nobody there" from other network failures.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'
import type { Readable } from 'node:stream'
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib'

/**
 * Kept-alive connections are let go after 4 s idle, or a second before the server says it closes them
 * (`Keep-Alive: timeout=N`; Node honours the hint only below this timeout), as fetch does. Reusing one
 * the server has just closed fails the request, and for a change nobody could tell whether it arrived.
 */
const IDLE_CONNECTION_MS = 4_000
const agents = {
  http: new HttpAgent({ keepAlive: true, timeout: IDLE_CONNECTION_MS }),
  https: new HttpsAgent({ keepAlive: true, timeout: IDLE_CONNECTION_MS })
}

/** Statuses whose Response may not have a body. */
const NULL_BODY = new Set([101, 103, 204, 205, 304])

/** The answer's body, decoded; an answer that cannot have one (or says it is empty) is not decoded, whatever it names. */
function decoded(response: IncomingMessage, method: string): Readable {
  const empty = method === 'HEAD' || NULL_BODY.has(response.statusCode ?? 0) || response.headers['content-length'] === '0'
  const encoding = empty ? undefined : response.headers['content-encoding']?.trim().toLowerCase()
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? createGunzip()
      : encoding === 'deflate'
        ? createInflate()
        : encoding === 'br'
          ? createBrotliDecompress()
          : null
  if (!decoder) return response
  response.on('error', (error) => decoder.destroy(error))
  return response.pipe(decoder)
}

function headersOf(response: IncomingMessage): Headers {
  const headers = new Headers()
  const raw = response.rawHeaders
  // Content-Encoding and Length describe the bytes on the wire, not the decoded body handed on.
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!
    if (!/^content-(encoding|length)$/i.test(name)) headers.append(name, raw[i + 1]!)
  }
  return headers
}

/**
 * What nodeFetch takes besides fetch's own: `stop`, a signal that ends the request as the Request's own
 * signal does. ky hands options it does not know on to the fetch it calls, and a signal given to ky
 * instead is tied to a new signal for every Request ky makes (AbortSignal.any, and one per copy): that
 * was most of the CPU ky spent on a call.
 */
export interface NodeFetchInit extends RequestInit {
  stop?: AbortSignal
}

/** The decoded body of each answer nodeFetch made, as received (the Response carries a copy). */
const bodies = new WeakMap<Response, Uint8Array>()

/**
 * An answer's body: as nodeFetch received it (no copy, no stream to read it through) or, for an answer
 * another fetch made, read from the Response.
 */
export async function bodyBytes(response: Response): Promise<Uint8Array> {
  return bodies.get(response) ?? new Uint8Array(await response.arrayBuffer())
}

/**
 * The Response's own body: a stream that copies the bytes only if it is read. Handed the bytes
 * themselves, Response copies them at once, for every answer; the client reads them from `bodies`
 * instead, so that copy would be garbage from the start. The stream's queue holds nothing until a read
 * asks (highWaterMark 0): with the default queue of one it pulls, and copies, as soon as it is made.
 */
function readLater(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream(
    {
      pull(controller) {
        controller.enqueue(new Uint8Array(bytes))
        controller.close()
      }
    },
    { highWaterMark: 0 }
  )
}

export const nodeFetch = async (input: Parameters<typeof fetch>[0], init?: NodeFetchInit): Promise<Response> => {
  const request = input instanceof Request ? input : new Request(input, init)
  const url = new URL(request.url)
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`Cannot fetch ${url.protocol} addresses.`)
  const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined
  // Either signal ends it: the caller's `stop`, or the Request's own (a caller of the fetch contract).
  const signals = init?.stop ? [init.stop, request.signal] : [request.signal]
  for (const signal of signals) signal.throwIfAborted()
  const headers: Record<string, string> = {}
  request.headers.forEach((value, name) => (headers[name] = value))
  headers['accept-encoding'] ??= 'gzip, deflate, br'
  if (body) headers['content-length'] = String(body.length)
  return exchange(url, request.method, headers, body, signals, DROPPED_RESENDS)
}

/**
 * A read sent on a kept-alive connection that turns out dead before any answer (the server dropped it
 * as it was taken from the pool: a restart, its own idle timeout) is sent again on another, up to this
 * many times (each dead one leaves the pool). A change is not: nobody could tell whether it arrived.
 */
const DROPPED_RESENDS = 3
const RESENDABLE = new Set(['GET', 'HEAD'])
const droppedConnection = (error: unknown) => ['ECONNRESET', 'EPIPE'].includes((error as { code?: string }).code ?? '')

function exchange(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: Buffer | undefined,
  signals: AbortSignal[],
  resends: number
): Promise<Response> {
  const secure = url.protocol === 'https:'
  const stopped = () => signals.find((signal) => signal.aborted)
  return new Promise<Response>((resolve, reject) => {
    const send = secure ? httpsRequest : httpRequest
    const [signal, other] = signals
    let answered = false
    const outgoing = send(url, { method, headers, agent: secure ? agents.https : agents.http, signal }, (response) => {
      answered = true
      const chunks: Buffer[] = []
      let received = 0 // bytes on the wire, before decoding
      response.on('data', (chunk: Buffer) => (received += chunk.length))
      const finish = () => {
        const status = response.statusCode ?? 0
        try {
          const body = NULL_BODY.has(status) ? null : Buffer.concat(chunks)
          const answer = new Response(body && readLater(body), { status, statusText: response.statusMessage ?? '', headers: headersOf(response) })
          if (body) bodies.set(answer, body)
          resolve(answer)
        } catch (error) {
          reject(error) // a status a Response cannot carry
        }
      }
      const stream = decoded(response, method)
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', finish)
      // An empty body its sender still called compressed is empty (as fetch has it), not a broken one.
      stream.on('error', (error) => (stream !== response && received === 0 && response.complete ? finish() : reject(error)))
      // The connection lost (or stopped) before the answer's end: never resolve with part of it.
      response.on('close', () => {
        if (!response.complete) reject(stopped()?.reason ?? new Error('The connection closed before the whole answer arrived.'))
      })
    })
    // The second signal ends it as the first does (which Node's request watches itself).
    const stopOther = () => outgoing.destroy(other!.reason)
    other?.addEventListener('abort', stopOther, { once: true })
    outgoing.on('close', () => other?.removeEventListener('abort', stopOther))
    outgoing.on('error', (error) => {
      const resend = !answered && !stopped() && outgoing.reusedSocket && resends > 0 && RESENDABLE.has(method) && droppedConnection(error)
      if (resend) resolve(exchange(url, method, headers, body, signals, resends - 1))
      else reject(stopped()?.reason ?? error)
    })
    outgoing.end(body)
  })
}
