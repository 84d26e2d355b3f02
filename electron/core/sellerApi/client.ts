/**
 * The Seller API client: the four endpoints of ../shared/spec/seller-api.md over ky (carried by Node's
 * http: nodeFetch.ts), every response checked with zod and converted to domain types (wire.ts). Safe
 * calls (GET) are retried with exponential backoff on network errors, timeouts and 5xx; every call honours `Retry-After` on 429/503.
 * Every failure becomes a SellerDeskError with a message a seller can act on and never the key. A change
 * (PATCH, DELETE) answered 2xx with a body that cannot be read is 'unconfirmed', not 'malformed-response':
 * the marketplace took it, so the caller reads the listing back rather than report it as not made. A
 * change whose answer never came (it timed out, the connection was lost, or a gateway in front of the
 * marketplace answered bad gateway or gateway timeout in its place) is marked `unanswered`: it may have
 * been made, and is neither sent again nor reported as not made (the caller reads it back too); one
 * whose connection was refused was never sent, and is not marked.
 */
import ky, { type KyInstance, type Options } from 'ky'
import type { Order, SellRequest, SortDir } from '../../shared/domain'
import { SellerDeskError, mentionsSecret, redactSecret } from '../../shared/errors'
import { LISTING_FIELDS, type ListingField } from '../../shared/listingFields'
import { createPause, nextTurn, noPause, TURN_MS, type Pause } from '../eventLoopTurns'
import { decodedText, parseListRowsInTurns, rowBounds, type ListRows } from './listRows'
import { bodyBytes, nodeFetch, type NodeFetchInit } from './nodeFetch'
import { orderTimeOf } from './orderTime'
import {
  orderListFormat,
  orderListFormatIn,
  ORDER_ROWS_PATH,
  SELL_REQUEST_ROWS_PATH,
  sellRequestDeleteFormat,
  sellRequestEditFormat,
  sellRequestListFormat,
  readWire,
  type UnreadableRow,
  type WireFormat
} from './wire'

export interface SellerApiOptions {
  /** Ends just before `/v1`, e.g. https://api.example.com */
  baseUrl: string
  apiKey: string
  /** Per attempt. Default 15 s. */
  timeoutMs?: number
  /** Further attempts after the first, for retryable failures. Default 3. */
  retries?: number
  /** First backoff step; doubles each retry, with jitter. Default 300 ms. */
  backoffMs?: number
  /** The longest `Retry-After` we wait for before giving up with 'rate-limited'. Default 30 s. */
  maxRetryAfterMs?: number
  /** Called before each retry (observability, tests). */
  onRetry?: (info: { attempt: number; delayMs: number; reason: string }) => void
  /**
   * What ky sends with (tests); default nodeFetch. Called as nodeFetch is: an attempt's stop (its
   * deadline, the caller's signal) comes as `init.stop`, not on the Request (nodeFetch.ts).
   */
  fetch?: typeof fetch
  /** The computer's clock (tests set it off the marketplace's). Default Date.now. */
  now?: () => number
  /** The listing fields an edit may carry, each sent under its wire name (default: Seller Desk's). */
  fields?: readonly ListingField[]
}

export interface OrderQuery {
  page?: number
  take?: number
  searchTerm?: string
  sortDir?: SortDir
  /** Instants (ISO with zone); sent zone-less in UTC as the spec asks. */
  fromDate?: string
  toDate?: string
}

export interface SellRequestQuery {
  page?: number
  take?: number
  searchTerm?: string
  sortDir?: SortDir
}

/** New values of a listing's editable fields, by the fields' keys (`priceCents`, `quantity`; see listingFields.ts). */
export type SellRequestChange = { readonly [field: string]: number | undefined }

/** The listing's values as the app knows them, by field key: what a marketplace that requires every field is sent for those not changed. */
export type SellRequestValues = { readonly [field: string]: number }

/** Per call: cancel it, or retry more (or less) than the client's default. */
export interface CallOptions {
  signal?: AbortSignal | undefined
  retries?: number
  /** Per attempt, from sending to the last byte of the answer. */
  timeoutMs?: number
  /**
   * Called once a successful answer has arrived, before it is read: a caller that limits how many
   * requests are on the wire sends its next one while this answer is being read.
   */
  onAnswered?: () => void
  /**
   * Awaited once a successful answer has arrived, before it is read: the caller's queue of turns
   * (eventLoopTurns.ts), so answers that arrive together are read in turns of their own. Default, when
   * `onAnswered` is given: one turn of the event loop, so the request waiting for the network goes out
   * before this answer is read. A long answer (a list of a thousand rows) is read over several of these
   * turns, each ending after about `turnMs`.
   */
  beforeReading?: () => Promise<void>
  /** How long a turn of reading lasts (default TURN_MS, eventLoopTurns.ts; 0: a turn per step), with `beforeReading`. */
  turnMs?: number
}

/**
 * Rows exactly as the marketplace sent them, which the snapshot stores (checked) instead of serialising
 * them again: a response text and the JSON path of its rows array, or (a list answer read a row at a
 * time: listRows.ts) the answer's bytes and where each row lies in them.
 */
export type WireRows = WireText | WireBytes

/** A response text and the JSON path of its rows array. */
export interface WireText {
  json: string
  path: string
}

/** The answer's bytes as received (UTF-8); row i is `bytes` from `bounds[2i]` to `bounds[2i + 1]`. */
export interface WireBytes {
  bytes: Uint8Array
  bounds: readonly number[]
}

/** The rows of a page that has none, as an array where whoever reads rows at a path expects one. */
export const NO_ROWS: WireText = Object.freeze({ json: '[]', path: '$' })

/** What every list answer carries besides its rows. */
export interface ListAnswer {
  total: number
  /** The rows of the page as received, those that could be read only (an unreadable row is not stored). */
  wire: WireRows
  /**
   * The rows of the page that could not be read (wire.ts UnreadableRow), left out of its rows: the
   * page holds as many rows as both together, in the order of their places.
   */
  unreadable: UnreadableRow[]
  /** The marketplace's clock when it answered (its `Date` header), epoch ms; null when it sent none. */
  serverDateMs: number | null
}

export interface SellerApi {
  readonly baseUrl: string
  /**
   * The time zone the marketplace writes order times in (an IANA name; null: UTC, as time.ts takes
   * them): order times read from then on are read in it, and `fromDate` / `toDate` are sent in it.
   */
  useOrderTimeZone(zone: string | null): void
  listOrders(query?: OrderQuery, options?: CallOptions): Promise<ListAnswer & { orders: Order[] }>
  listSellRequests(query?: SellRequestQuery, options?: CallOptions): Promise<ListAnswer & { sellRequests: SellRequest[] }>
  /**
   * Sends only the changed fields. A marketplace that refuses that (400/422: the spec does not say
   * whether both are required) gets the change again with `current`'s value for the other field: the
   * values, or how to get them fresh (asked only then, so a marketplace that takes one field costs nothing).
   */
  editSellRequest(
    id: string,
    change: SellRequestChange,
    options?: CallOptions,
    current?: SellRequestValues | (() => Promise<SellRequestValues | undefined>)
  ): Promise<{ sellRequest: SellRequest; wire: WireText }>
  deleteSellRequest(id: string, options?: CallOptions): Promise<{ id: string }>
}

type Method = 'get' | 'patch' | 'delete'

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]'])

/**
 * Normalises what a seller typed as the marketplace address: adds https:// when no scheme is given
 * (http:// for a server on this computer, which is how the demo and test servers run), drops a pasted
 * /v1, query and fragment. Refuses anything but https (http only on this computer, so the key never
 * travels unencrypted).
 */
export function normaliseBaseUrl(input: string): string {
  const typed = input.trim()
  let url: URL
  try {
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(typed)) url = new URL(typed)
    else {
      url = new URL(`https://${typed}`)
      if (LOOPBACK_HOSTS.has(url.hostname)) url.protocol = 'http:'
    }
  } catch {
    throw new SellerDeskError('invalid-input', 'The marketplace address is not a valid URL (example: https://api.example.com).')
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    // A slip in the scheme (htp://, https:/) is said as such, not as a rule about plain http.
    throw new SellerDeskError(
      'invalid-input',
      `The marketplace address starts with “${url.protocol}//”: it must start with https:// (or http:// for a server on this computer).`
    )
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname))) {
    throw new SellerDeskError(
      'invalid-input',
      'The marketplace address must start with https:// (plain http:// is only allowed for a server on this computer).'
    )
  }
  if (url.username || url.password) {
    throw new SellerDeskError('invalid-input', 'The marketplace address must not contain a user name or password; the API key goes in its own field.')
  }
  url.search = ''
  url.hash = ''
  // The base ends just before /v1; tolerate a pasted /v1 or trailing slash.
  return url.toString().replace(/\/+$/, '').replace(/\/v1$/, '')
}

/** The answer's `Date` header, epoch ms; null when absent or unreadable. */
function serverDateOf(headers: Headers): number | null {
  const header = headers.get('date')
  if (!header) return null
  const ms = Date.parse(header)
  return Number.isNaN(ms) ? null : ms
}

/**
 * `Retry-After` as seconds or as an HTTP date. A date is measured against the answer's own `Date`
 * header where there is one, so a computer clock that disagrees with the marketplace's changes nothing.
 * Without one, a date that lands in the past or beyond the longest wait by the computer's clock cannot
 * be placed: it counts as absent (our own backoff) rather than as a wait of minutes, or none.
 */
function retryAfterMs(headers: Headers, now: number, longestMs: number): number | undefined {
  const header = headers.get('retry-after')?.trim()
  if (!header) return undefined
  if (/^\d+(\.\d+)?$/.test(header)) return Number(header) * 1000
  const date = Date.parse(header)
  if (Number.isNaN(date)) return undefined
  const serverNow = serverDateOf(headers)
  if (serverNow !== null) return Math.max(0, date - serverNow)
  // By the computer's clock: a date that has passed means now; one too far ahead may be our clock's
  // error (no Date header to tell), and our own backoff goes instead.
  const waitMs = date - now
  return waitMs < 0 ? 0 : waitMs <= longestMs ? waitMs : undefined
}

/** A page of markup (a proxy's error page), not a text that happens to hold a "<". */
const HTML = /^\s*(<!doctype|<html|<head|<body|<\?xml)|<\/[a-z][a-z0-9]*\s*>/i

/**
 * The status an answer sent as a success writes in its body: the spec's sell request list carries the
 * HTTP status in its body too ("status": 200), and a server that answers every call with 200 writes the
 * real one there. A number or numeric text of 400 or more; null for anything else (absent, a success, a
 * field of another meaning).
 */
function statusIn(body: unknown): number | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null
  const status = (body as Record<string, unknown>)['status']
  const code = typeof status === 'number' ? status : typeof status === 'string' && /^\d{3}$/.test(status) ? Number(status) : NaN
  return Number.isInteger(code) && code >= 400 && code <= 599 ? code : null
}

/**
 * Statuses in a body that say the answer holds nothing to go by, whatever data it carries: the server
 * failed or is unavailable (5xx), a limit (429), the key (401, 403), a wait given up (408). Another (a
 * 404 "No records found" beside an empty list) leaves the data to say what it says, when it can be read.
 */
const failedWhateverTheData = (status: number) => status >= 500 || [401, 403, 408, 429].includes(status)

/** An answer sent as a success whose body says it failed (statusIn): answered as that status would be. */
class FailureInBody extends Error {
  constructor(
    readonly status: number,
    private readonly body: Record<string, unknown>
  ) {
    super(`status ${status} in the answer's body`)
  }

  /** The answer as if sent with that status: its body's words without its data, for the message they hold. */
  asResponse(): Response {
    return new Response(JSON.stringify(this.words()), { status: this.status, headers: { 'content-type': 'application/json' } })
  }

  /** What the body says, in short: `status 422: “Price is too low”` (no words that quote any part of `secret`). */
  said(secret: string): string {
    const message = serverMessageOf(JSON.stringify(this.words()), secret)
    return message ? `status ${this.status}: “${message}”` : `status ${this.status}`
  }

  private words(): Record<string, unknown> {
    return Object.fromEntries(Object.entries(this.body).filter(([key]) => key !== 'data'))
  }
}

/**
 * What the marketplace said in an error body, as one line a seller can read: the message of a JSON
 * body in the shapes servers use (`message` as text or a list, `error` as text or `{ message }`,
 * `errors` as a list, `description`, `detail`, or a bare string), a plain-text body, or the title of an
 * HTML page (a proxy's); never markup, and nothing at all when it quotes any part of `secret`.
 */
export function serverMessageOf(body: string, secret?: string): string {
  const text = body.trim()
  if (!text || mentionsSecret(text, secret)) return ''
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    json = undefined
  }
  if (json !== undefined) return oneLine(messageIn(json))
  if (HTML.test(text)) {
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1] ?? /<h1[^>]*>([^<]*)<\/h1>/i.exec(text)?.[1] ?? ''
    return oneLine(title)
  }
  return oneLine(text)
}

/** The message of a parsed error body, whatever common shape it has; '' when it has none. */
function messageIn(value: unknown, depth = 0): string {
  if (depth > 3 || value === null || value === undefined) return ''
  if (typeof value === 'string') return value
  if (Array.isArray(value))
    return value
      .map((item) => messageIn(item, depth + 1))
      .filter(Boolean)
      .join('; ')
  if (typeof value !== 'object') return ''
  const fields = value as Record<string, unknown>
  for (const key of ['message', 'errors', 'error', 'detail', 'description', 'title']) {
    const found = messageIn(fields[key], depth + 1)
    if (found) return found
  }
  return ''
}

/** Tags of the elements messages carry (not any text between "<" and ">": "price<max and quantity>0"). */
const TAG = /<\/?(?:a|abbr|b|br|code|div|em|font|h[1-6]|hr|i|img|li|ol|p|pre|small|span|strong|sub|sup|table|tbody|td|th|thead|tr|u|ul)\b[^>]*>/gi

/** One line of plain text: entities decoded, tags dropped, at most 300 characters. */
const oneLine = (text: string) => decodeEntities(text.replace(TAG, ' ')).replace(/\s+/g, ' ').trim().slice(0, 300)
const decodeEntities = (text: string) =>
  text.replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: ' ' })[name] ?? ' ')

const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH'])

/** The system error code behind a failed fetch (undici puts it on `cause`). */
function causeCode(error: unknown): string {
  let current: unknown = error
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code
    if (typeof code === 'string') return code
    current = (current as { cause?: unknown }).cause
  }
  return ''
}

/** Times a read whose answer could not be read is asked again (client.ts `call`). */
const MALFORMED_RETRIES = 1

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const stop = () => {
      clearTimeout(timer)
      reject(signal!.reason)
    }
    // The listener goes with the timer: a long-lived signal (a bulk apply's) must not collect one per retry.
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop)
      resolve()
    }, ms)
    signal?.addEventListener('abort', stop, { once: true })
  })

export function createSellerApi(options: SellerApiOptions): SellerApi {
  const baseUrl = normaliseBaseUrl(options.baseUrl)
  const host = new URL(baseUrl).host
  const defaultTimeoutMs = options.timeoutMs ?? 15_000
  const retries = options.retries ?? 3
  const backoffMs = options.backoffMs ?? 300
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 30_000
  const apiKey = options.apiKey
  const now = options.now ?? Date.now
  const fields = options.fields ?? LISTING_FIELDS
  /** Set once the marketplace refused a PATCH with one field: it wants both from then on. */
  let patchNeedsBoth = false
  let orderTimeZone: string | null = null
  let orderList = orderListFormat

  const http: KyInstance = ky.create({
    prefixUrl: baseUrl,
    timeout: false, // ours (below) also covers reading the body
    retry: 0, // ours (below): ky does not retry timeouts and we need one policy for all causes
    throwHttpErrors: false,
    redirect: 'manual', // a redirect would carry the key to another address
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json', accept: 'application/json' },
    fetch: options.fetch ?? nodeFetch // Node's http under ky: far less CPU per call than the global fetch (nodeFetch.ts)
  })

  /** What a failed attempt means, and whether it may be tried again. */
  interface Failure {
    error: SellerDeskError
    retryable: boolean
    waitMs?: number
    /**
     * Retrying at length will not help: the host refused or could not be found, or it has not answered
     * in time twice in a row (a hung server: six more waits of the timeout each kept a sync "Syncing…"
     * for two minutes before the seller learnt the marketplace was not answering).
     */
    unreachable?: boolean
  }

  /**
   * `change`: the request was a PATCH or DELETE. `said`: how the status came (an HTTP status, or one
   * written in a 2xx answer's body).
   */
  async function failureFromResponse(response: Response, what: string, change: boolean, said = `HTTP ${response.status}`): Promise<Failure> {
    const status = response.status
    if (status >= 300 && status < 400) {
      const location = response.headers.get('location')
      let where = ''
      try {
        where = location ? ` to ${new URL(location, baseUrl).origin}` : ''
      } catch {
        // An unreadable Location says nothing useful.
      }
      return {
        retryable: false,
        error: new SellerDeskError(
          'server',
          `The marketplace redirected the request${where} (${said}). Seller Desk does not follow redirects with your key: check the marketplace address.`,
          { status }
        )
      }
    }
    let serverMessage = ''
    try {
      // A server message that quotes any part of the key is not repeated at all.
      serverMessage = serverMessageOf(await response.text(), apiKey)
    } catch {
      // No readable body: the status says enough.
    }
    const detail = serverMessage ? ` The marketplace said: “${serverMessage}”.` : ''
    // A 403 that says when to come back is a limit (some gateways refuse with it), not a key refused.
    const limited = status === 429 || (status === 403 && response.headers.has('retry-after'))
    if (status === 408) {
      // The marketplace gave up waiting for the request itself: nothing was done, and a read may ask again.
      return {
        retryable: true,
        error: new SellerDeskError(
          'server',
          `The marketplace stopped waiting for the request (${said}). Check your connection, or try again in a moment.${detail}`,
          { status }
        )
      }
    }
    if (!limited && (status === 401 || status === 403)) {
      return {
        retryable: false,
        error: new SellerDeskError(
          'auth',
          `The marketplace did not accept the API key (${said}). Check that the key is the whole key for this marketplace; one that was replaced or revoked needs the new one.`,
          {
            status
          }
        )
      }
    }
    if (status === 404) {
      return {
        retryable: false,
        error: new SellerDeskError(
          'not-found',
          `${what}: not found on the marketplace (${said}). It may have been deleted elsewhere; refresh the list.${detail}`,
          { status }
        )
      }
    }
    if (limited || status === 503) {
      const waitMs = retryAfterMs(response.headers, now(), maxRetryAfterMs)
      const seconds = Math.ceil((waitMs ?? 0) / 1000)
      const kind = limited ? 'rate-limited' : 'server'
      const message = limited
        ? `The marketplace is limiting requests (${said}).${seconds ? ` Try again in ${seconds} s.` : ' Try again in a moment.'}`
        : `The marketplace is temporarily unavailable (${said}).${seconds ? ` Try again in ${seconds} s.` : ' Try again in a minute.'}`
      const failure: Failure = { retryable: true, error: new SellerDeskError(kind, message, { status }) }
      if (waitMs !== undefined) failure.waitMs = waitMs
      return failure
    }
    if (status >= 400 && status < 500) {
      return { retryable: false, error: new SellerDeskError('invalid-input', `The marketplace refused the request (${said}).${detail}`, { status }) }
    }
    if (change && (status === 502 || status === 504)) {
      // A gateway in front of the marketplace answered in its place: it got no answer from the
      // marketplace, which may have made the change all the same. So the change is unanswered, as one
      // whose connection was lost, for the caller to read back (call sends it no second time); yet the
      // failure is the marketplace's, not the seller's connection.
      const error = new SellerDeskError(
        'server',
        `A gateway in front of the marketplace got no answer from it (${said}). The change may or may not have been applied: refresh to check before trying again.${detail}`,
        { status }
      )
      error.unanswered = true
      return { retryable: true, error }
    }
    return {
      retryable: status >= 500,
      error: new SellerDeskError('server', `The marketplace had a problem (${said}). Try again in a minute.${detail}`, { status })
    }
  }

  function failureFromThrown(error: unknown, timedOut: boolean, previousTimedOut: boolean, method: Method, timeoutMs: number): Failure {
    // For a change, the request may have arrived before the connection failed: say so, and mark it
    // for the caller to read back (a change refused a connection, below, was never sent).
    const change = method !== 'get'
    const maybeApplied = change ? ' The change may or may not have been applied: refresh to check before trying again.' : ''
    const unanswered = (failure: Failure): Failure => {
      failure.error.unanswered = change
      return failure
    }
    if (timedOut) {
      return unanswered({
        retryable: true,
        unreachable: previousTimedOut,
        error: new SellerDeskError(
          'timeout',
          `The marketplace at ${host} did not answer within ${Math.round(timeoutMs / 1000)} s.${maybeApplied || ' Check your connection or try again later.'}`
        )
      })
    }
    const code = causeCode(error)
    if (UNREACHABLE_CODES.has(code)) {
      // Nobody there (refused, no route, no DNS): the request never left, so a change certainly was not
      // made. One quick retry, not a long backoff, so offline shows at once.
      const notSent = change ? ' Nothing was sent, so nothing changed.' : ''
      const why =
        code === 'ECONNREFUSED'
          ? `The marketplace at ${host} refused the connection: it may be down or restarting.`
          : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
            ? `Cannot find the marketplace at ${host}: check your internet connection and the address.`
            : `Cannot reach the marketplace at ${host}: check your internet connection.`
      return { retryable: true, unreachable: true, error: new SellerDeskError('network', `${why}${notSent}`) }
    }
    return unanswered({
      retryable: true,
      error: new SellerDeskError('network', `The connection to the marketplace at ${host} failed. Check your internet connection.${maybeApplied}`)
    })
  }

  /** One attempt, bounded by `timeoutMs` from sending to the last byte: the body of a 2xx answer, or what went wrong. */
  async function send(
    method: Method,
    path: string,
    what: string,
    init: { searchParams?: Record<string, string | number>; json?: unknown; signal?: AbortSignal | undefined },
    timeoutMs: number,
    afterTimeout: boolean
  ): Promise<{ bytes: Uint8Array; serverDateMs: number | null } | { failure: Failure }> {
    // One controller per attempt, stopped by the deadline or the caller (cheaper than
    // AbortSignal.timeout + AbortSignal.any, which a bulk apply would create thousands of times).
    const controller = new AbortController()
    let timedOut = false
    const deadline = setTimeout(() => {
      timedOut = true
      controller.abort(new DOMException('The operation timed out.', 'TimeoutError'))
    }, timeoutMs)
    const stop = () => controller.abort(init.signal?.reason)
    if (init.signal?.aborted) stop()
    else init.signal?.addEventListener('abort', stop, { once: true })
    try {
      // The query in the address and the stop beside the request (nodeFetch.ts's `stop`), not ky's
      // `searchParams` and `signal`: with those ky builds the request three times over and ties a new
      // signal to each copy, several times the CPU of the rest of a page's request (a full sync sends hundreds).
      const query = init.searchParams
        ? `?${new URLSearchParams(Object.entries(init.searchParams).map(([key, value]): [string, string] => [key, String(value)]))}`
        : ''
      const sent: Options & NodeFetchInit = { method, stop: controller.signal, ...(init.json !== undefined ? { json: init.json } : {}) }
      const response = await http(path + query, sent)
      if (!response.ok) return { failure: await failureFromResponse(response, what, method !== 'get') }
      return { bytes: await bodyBytes(response), serverDateMs: serverDateOf(response.headers) }
    } catch (error) {
      if (init.signal?.aborted) throw init.signal.reason
      if (error instanceof SellerDeskError) throw error
      return { failure: failureFromThrown(error, timedOut, afterTimeout, method, timeoutMs) }
    } finally {
      clearTimeout(deadline)
      init.signal?.removeEventListener('abort', stop)
    }
  }

  const notJson = (what: string) =>
    new SellerDeskError(
      'malformed-response',
      `The marketplace sent a response that is not valid JSON (${what}). Try again; if it persists, the marketplace may be having problems.`
    )

  /** A change accepted (2xx) whose answer could not be read, or whose body `said` it failed: only reading the listing back tells. */
  const unconfirmed = (what: string, said?: string) => {
    if (said === undefined)
      return new SellerDeskError(
        'unconfirmed',
        `The marketplace accepted the change (${what}), but its answer could not be read, so the change was most likely made. Seller Desk is checking the listing on the marketplace.`
      )
    const error = new SellerDeskError(
      'unconfirmed',
      `The marketplace's answer to the change (${what}) said it failed (${said}), though it came as a success (HTTP 200), so it may or may not have been made. Seller Desk is checking the listing on the marketplace.`
    )
    error.saidFailed = said
    return error
  }

  function parseBody<T>(text: string, format: WireFormat<T>, what: string): T {
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      throw notJson(what)
    }
    return checkedBody(body, format, what)
  }

  function checkedBody<T>(body: unknown, format: WireFormat<T>, what: string): T {
    const failed = statusIn(body)
    if (failed !== null && failedWhateverTheData(failed)) throw new FailureInBody(failed, body as Record<string, unknown>)
    const read = readWire(format, body)
    if (!read.ok && failed !== null) throw new FailureInBody(failed, body as Record<string, unknown>)
    if (!read.ok)
      throw new SellerDeskError('malformed-response', `The marketplace sent data Seller Desk cannot read (${what}): ${redactSecret(read.problem, apiKey)}.`)
    return read.value
  }

  interface CallInit<T> extends CallOptions {
    searchParams?: Record<string, string | number>
    json?: unknown
    /**
     * What a success with no body at all means (a DELETE answered 204 No Content: the change was made,
     * there is just nothing to say). Without it an empty body is malformed, as where data is needed.
     */
    emptyAnswer?: T
    /** Where a list answer's rows array is (a JSON path): the answer is read a row at a time (listRows.ts). */
    rowsAt?: string
  }

  /** A 2xx answer's body converted, with where its rows lie in its bytes (read a row at a time) or else its whole text. */
  type Read<T> = { value: T; rows: WireBytes; text: null } | { value: T; rows: null; text: string }

  /**
   * Reads a list answer's rows in steps with `pause` between them (a page's rows read at once would be
   * one long turn that every call arriving meanwhile waits for), and checks what they make in a step of its own.
   */
  async function readBody<T>(bytes: Uint8Array, format: WireFormat<T>, what: string, init: CallInit<T>, pause: Pause): Promise<Read<T>> {
    if (init.rowsAt !== undefined) {
      let cut: ListRows
      try {
        cut = await parseListRowsInTurns(bytes, init.rowsAt, pause)
      } catch {
        throw notJson(what)
      }
      // Not cut (no rows array where expected, or not JSON): read whole, which says what is wrong.
      if (cut) {
        await pause()
        return { value: checkedBody(cut.body, format, what), rows: { bytes, bounds: cut.bounds }, text: null }
      }
    }
    const text = decodedText(bytes)
    const empty = init.emptyAnswer !== undefined && text.trim() === ''
    return { value: empty ? init.emptyAnswer! : parseBody(text, format, what), rows: null, text }
  }

  /** The converted body, its text or rows, and the server's clock, or the SellerDeskError of the last attempt. */
  async function call<T>(
    method: Method,
    path: string,
    format: WireFormat<T>,
    what: string,
    init: CallInit<T> = {}
  ): Promise<Read<T> & { serverDateMs: number | null }> {
    const safe = method === 'get'
    const maxRetries = init.retries ?? retries
    const timeoutMs = init.timeoutMs ?? defaultTimeoutMs
    let timedOut = false
    let malformedAsks = 0
    for (let attempt = 0; ; attempt++) {
      const outcome = await send(method, path, what, init, timeoutMs, timedOut)
      let failure: Failure
      if ('bytes' in outcome) {
        init.onAnswered?.()
        if (init.beforeReading) await init.beforeReading()
        else if (init.onAnswered) await nextTurn()
        // Stopped while it waited: not read.
        if (init.signal?.aborted) throw init.signal.reason
        // A long answer is read over several of the caller's turns, a short turn each.
        const pause = init.beforeReading ? createPause(init.turnMs ?? TURN_MS, 0, init.beforeReading) : noPause
        try {
          return { ...(await readBody(outcome.bytes, format, what, init, pause)), serverDateMs: outcome.serverDateMs }
        } catch (error) {
          if (error instanceof FailureInBody) {
            // Accepted (2xx) and said to have failed: a change may or may not have been made, and only
            // reading it back tells; a read failed as the body says, and is answered as that status would be.
            if (!safe) throw unconfirmed(what, error.said(apiKey))
            failure = await failureFromResponse(error.asResponse(), what, false, `status ${error.status} in its answer, sent as HTTP 200`)
          } else {
            if (!(error instanceof SellerDeskError) || error.kind !== 'malformed-response') throw error
            // A change the marketplace accepted (2xx) was most likely made, whatever its answer holds:
            // "not changed" would be the wrong thing to tell. Only reading it back can tell.
            if (!safe) throw unconfirmed(what)
            // A read's answer garbled on the way (a body cut short, a proxy's page in its place) reads
            // right when asked again; one the marketplace itself writes so is refused after one more ask.
            if (malformedAsks >= MALFORMED_RETRIES || attempt >= maxRetries) {
              if (malformedAsks > 0) error.afterRetry = true
              throw error
            }
            malformedAsks++
            const delayMs = backoffMs * (0.75 + Math.random() * 0.5)
            options.onRetry?.({ attempt: attempt + 1, delayMs, reason: error.kind })
            await sleep(delayMs, init.signal)
            continue
          }
        }
      } else failure = outcome.failure
      if (attempt > 0) failure.error.afterRetry = true
      timedOut = failure.error.kind === 'timeout'

      // Unsafe calls are only retried when the server says it did not process them (429, 503, 408, a limit's 403).
      const status = failure.error.status
      const notProcessed = failure.error.kind === 'rate-limited' || status === 503 || status === 408
      const mayRetry = failure.retryable && (safe || notProcessed)
      if (!mayRetry || attempt >= (failure.unreachable ? Math.min(1, maxRetries) : maxRetries)) throw failure.error
      let delayMs: number
      if (failure.waitMs !== undefined) {
        if (failure.waitMs > maxRetryAfterMs) throw failure.error
        delayMs = failure.waitMs
      } else {
        delayMs = Math.min(backoffMs * 2 ** attempt, 10_000) * (0.75 + Math.random() * 0.5)
      }
      options.onRetry?.({ attempt: attempt + 1, delayMs, reason: failure.error.kind })
      await sleep(delayMs, init.signal)
    }
  }

  function params(query: Record<string, string | number | undefined>): Record<string, string | number> {
    const out: Record<string, string | number> = {}
    for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') out[key] = value
    return out
  }

  const sellRequestPath = (id: string) => `v1/sell-requests/${encodeURIComponent(id)}`

  /**
   * The rows of a list answer as received, of those that could be read. No rows: an empty array of our
   * own, since the answer may hold null or nothing where its rows go (wire.ts), and whoever reads rows
   * at the path expects an array. Rows left out as unreadable are cut out of the answer's bytes, so
   * what the snapshot stores is only what was read.
   */
  function wireRows(read: Read<unknown>, path: string, rows: readonly unknown[], unreadable: readonly UnreadableRow[], what: string): WireRows {
    if (rows.length === 0) return NO_ROWS
    if (unreadable.length === 0) return read.rows ?? { json: read.text!, path }
    const bytes = read.rows?.bytes ?? Buffer.from(read.text!, 'utf8')
    const bounds = read.rows?.bounds ?? rowBounds(bytes, path)
    if (!bounds || bounds.length !== 2 * (rows.length + unreadable.length)) throw notJson(what)
    const left = new Set(unreadable.map((row) => row.place))
    const kept: number[] = []
    for (let place = 0; 2 * place < bounds.length; place++) if (!left.has(place)) kept.push(bounds[2 * place]!, bounds[2 * place + 1]!)
    return { bytes, bounds: kept }
  }

  return {
    baseUrl,

    useOrderTimeZone(zone) {
      orderTimeZone = zone
      orderList = orderListFormatIn(zone)
    },

    async listOrders(query = {}, options = {}) {
      const read = await call('get', 'v1/orders/seller', orderList, 'order list', {
        rowsAt: ORDER_ROWS_PATH,
        searchParams: params({
          page: query.page,
          take: query.take,
          searchTerm: query.searchTerm?.trim(),
          sortDir: query.sortDir,
          fromDate: query.fromDate ? orderTimeOf(query.fromDate, orderTimeZone) : undefined,
          toDate: query.toDate ? orderTimeOf(query.toDate, orderTimeZone) : undefined
        }),
        ...options
      })
      const { orders, unreadable } = read.value
      return { ...read.value, wire: wireRows(read, ORDER_ROWS_PATH, orders, unreadable, 'order list'), serverDateMs: read.serverDateMs }
    },

    async listSellRequests(query = {}, options = {}) {
      const read = await call('get', 'v1/sell-requests', sellRequestListFormat, 'sell request list', {
        rowsAt: SELL_REQUEST_ROWS_PATH,
        searchParams: params({ page: query.page, take: query.take, searchTerm: query.searchTerm?.trim(), sortDir: query.sortDir }),
        ...options
      })
      const { sellRequests, unreadable } = read.value
      return { ...read.value, wire: wireRows(read, SELL_REQUEST_ROWS_PATH, sellRequests, unreadable, 'sell request list'), serverDateMs: read.serverDateMs }
    },

    async editSellRequest(id, change, options = {}, current) {
      const unknown = Object.keys(change).filter((key) => change[key] !== undefined && !fields.some((field) => field.key === key))
      if (unknown.length > 0) throw new SellerDeskError('invalid-input', `Seller Desk cannot change “${unknown.join('”, “')}” on the marketplace.`)
      const body = (values: SellRequestValues | undefined) => {
        const json: Record<string, number> = {}
        for (const field of fields) {
          const value = change[field.key] ?? values?.[field.key]
          if (value !== undefined) json[field.wire] = field.toWire(value)
        }
        return json
      }
      const partial = fields.some((field) => change[field.key] === undefined)
      const patch = async (both: boolean) =>
        call('patch', sellRequestPath(id), sellRequestEditFormat, 'sell request', {
          json: body(both ? (typeof current === 'function' ? await current() : current) : undefined),
          ...options
        })
      let answer: Awaited<ReturnType<typeof patch>>
      if (patchNeedsBoth && partial && current) answer = await patch(true)
      else {
        try {
          answer = await patch(false)
        } catch (error) {
          // A refused request changed nothing, so sending it again complete is safe.
          const refused = error instanceof SellerDeskError && (error.status === 400 || error.status === 422)
          if (!(refused && partial && current)) throw error
          answer = await patch(true)
          patchNeedsBoth = true
        }
      }
      const { value, text } = answer
      // The one row sits at $.data; as a rows array: wrap it. (Not a list: read whole, so the text is there.)
      return { sellRequest: value, wire: { json: `[${JSON.stringify((JSON.parse(text!) as { data: unknown }).data)}]`, path: '$' } }
    },

    async deleteSellRequest(id, options = {}) {
      try {
        return (await call('delete', sellRequestPath(id), sellRequestDeleteFormat, 'sell request', { ...options, emptyAnswer: { id } })).value
      } catch (error) {
        // Retried after a 429/503 and now gone: the first attempt deleted it after all.
        if (error instanceof SellerDeskError && error.kind === 'not-found' && error.afterRetry) return { id }
        throw error
      }
    }
  }
}
