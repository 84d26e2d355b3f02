/**
 * The demo marketplace: a real HTTP server (node:http) answering the four Seller API endpoints of
 * shared/spec/seller-api.md from seeded data, with fault injection and variants (the other choices
 * a marketplace may make where the spec says "not shown", see variant.ts). The embedded default for
 * new users, and the backend of every e2e test and benchmark.
 *
 * Nothing is logged, and the API key is never echoed back.
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { performance } from 'node:perf_hooks'
import { advanceOrders, changeTogether, churn, placeOrders, type ChurnSummary } from './activity'
import { ApiError, errorBody, errorPayload } from './errors'
import { FaultInjector, retryAfterValue, truncatedJson, withWrongTypes, type FaultKind, type Faults } from './faults'
import type { MarketplaceState, OrderPageQuery } from './marketplace'
import { IMAGE_NAME, productImageSvg } from './productImage'
import { Random } from './random'
import { DEFAULT_NOW, generateMarketplace } from './seed'
import { parseOrderListQuery, parseSellRequestChange, parseSellRequestId, parseSellRequestListQuery } from './validation'
import { checkedVariant, DEFAULT_VARIANT, pageSizeFor, reportedTotal, type Variant } from './variant'
import {
  wireOrderList,
  wireSellRequestDeleted,
  wireSellRequestEdited,
  wireSellRequestList,
  withTotalForm,
  type WireOrderList,
  type WireSellRequestList
} from './wire'
import { spoiledRow, type RowFault } from './unreadableRows'

/** The key the demo marketplace accepts unless told otherwise. Not a secret. */
export const DEMO_API_KEY = 'demo-key-seller-desk-sandbox'
export const DEFAULT_SEED = 1
export const DEFAULT_ORDERS = 300
export const DEFAULT_SELL_REQUESTS = 250
/** Largest PATCH body accepted (413 beyond). */
export const MAX_BODY_BYTES = 64 * 1024

export interface SandboxOptions {
  /** Default 127.0.0.1. */
  host?: string
  /** Default 0: a free port chosen by the system. */
  port?: number
  /** Default DEMO_API_KEY. */
  apiKey?: string
  /** Default DEFAULT_SEED. */
  seed?: number
  /** Default DEFAULT_ORDERS. */
  orders?: number
  /** Default DEFAULT_SELL_REQUESTS. */
  sellRequests?: number
  /** Default: a UUID drawn from the seed. */
  sellerId?: string
  /**
   * The marketplace's "now" at start (default DEFAULT_NOW, fixed so data is reproducible).
   * Generated data lies before it; afterwards the sandbox clock runs on from it in real time.
   */
  now?: Date
  faults?: Partial<Faults>
  /** Default DEFAULT_VARIANT: the sandbox's own choice wherever the spec says "not shown". */
  variant?: Partial<Variant>
  /**
   * Numeric fields beyond price and quantity a PATCH may set (by wire name), kept on the listing and
   * sent with it on every read: for tests of a listing field the client adds. Default none (ignored, as
   * any other unknown field of an edit body).
   */
  extraNumericFields?: readonly string[]
}

export interface Sandbox {
  /** E.g. http://127.0.0.1:4321: no trailing slash, ends just before /v1. */
  readonly baseUrl: string
  readonly port: number
  readonly apiKey: string
  /** Live: changed by PATCH, DELETE, addOrders, touchOrders, changeTogether and churn. */
  readonly state: MarketplaceState
  /** The variant in force. */
  readonly variant: Readonly<Variant>
  /** Changes the given variant settings, keeps the others. Throws RangeError on an invalid one and then changes nothing. */
  setVariant(change: Partial<Variant>): void
  /**
   * Makes `n` random changes now, as `churnPerList` does after each list answer: new and updated
   * orders, new, edited and deleted sell requests. Drawn from `variantSeed`. Returns what changed.
   */
  churn(n: number): ChurnSummary
  setFaults(faults: Partial<Faults>): void
  /**
   * The next `count` API requests (not image requests) fail with `kind`, before any rate-based fault.
   * Replaces one-shot faults not yet used; `injectNext(kind, 0)` clears them.
   */
  injectNext(kind: FaultKind, count?: number): void
  /**
   * API requests (`/v1/...`) received so far, including refused and faulted ones; images excluded.
   * With a method ('PATCH'), only those: what a seller's action sent, apart from a sync running meanwhile.
   */
  requestCount(method?: string): number
  /** Simulates `n` new orders arriving now. Returns their ids. */
  addOrders(n: number): string[]
  /** Simulates `n` existing orders (chosen at random) being updated now. Returns their ids. */
  touchOrders(n: number): string[]
  /**
   * Simulates a bulk change on the marketplace's website (a price change across listings, a CSV upload):
   * `n` sell requests or orders, chosen at random, all updated at one instant, `atMs` (default now). A
   * sell request's price is cut by 5%. Returns their ids.
   */
  changeTogether(resource: 'sellRequests' | 'orders', n: number, atMs?: number): string[]
  /**
   * Holds the API requests `picks` chooses (after their latency, before they are answered) until the
   * hold is released: a test keeps a read open for as long as it looks at what the app shows meanwhile,
   * instead of hoping the read outlasts its look. A request whose client gives up meanwhile is not
   * answered; close() ends held requests as it ends hanging ones.
   */
  hold(picks: (request: HeldRequest) => boolean): RequestHold
  /**
   * From now on every list answer sends the rows with these ids spoiled as `fault` says (unreadableRows.ts),
   * among the others as they are; the rows named before for that list are sent whole again. An edit's
   * answer is sent as it is.
   */
  spoilRows(resource: 'orders' | 'sellRequests', ids: readonly string[], fault?: RowFault): void
  /** Stops listening and destroys open connections, including hanging and held requests. */
  close(): Promise<void>
}

/** An API request as a hold sees it, to pick the ones it holds. */
export interface HeldRequest {
  readonly method: string
  readonly url: URL
}

export interface RequestHold {
  /** API requests this hold has caught so far. */
  readonly caught: number
  /** Lets the requests held go on, each answered as it would have been, and catches no more. */
  release(): void
}

interface Answer {
  status: number
  body: unknown
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const host = options.host ?? '127.0.0.1'
  const apiKey = options.apiKey ?? DEMO_API_KEY
  if (typeof apiKey !== 'string' || apiKey === '') throw new RangeError('apiKey must be a non-empty string')
  const seed = options.seed ?? DEFAULT_SEED
  const now = options.now ?? DEFAULT_NOW

  const state = generateMarketplace({
    seed,
    orders: options.orders ?? DEFAULT_ORDERS,
    sellRequests: options.sellRequests ?? DEFAULT_SELL_REQUESTS,
    now,
    ...(options.sellerId !== undefined ? { sellerId: options.sellerId } : {})
  })
  const faults = new FaultInjector(options.faults)
  const activity = new Random(seed ^ 0x5eed)
  const clock = sandboxClock(now.getTime())
  const keyDigest = digest(apiKey)
  let variant: Variant = { ...DEFAULT_VARIANT, ...checkedVariant(options.variant ?? {}) }
  let variantDraws = variantRandoms(variant.variantSeed)

  let baseUrl = ''
  let apiRequests = 0
  const apiRequestsByMethod = new Map<string, number>()
  let closing: Promise<void> | undefined
  const delays = new Set<NodeJS.Timeout>()
  const holds = new Set<{ picks: (request: HeldRequest) => boolean; waiting: (() => void)[]; caught: number }>()

  const keyMatches = (given: string | string[] | undefined): boolean => typeof given === 'string' && timingSafeEqual(digest(given), keyDigest)

  async function answer(req: IncomingMessage, url: URL): Promise<Answer> {
    if (!keyMatches(req.headers['x-api-key'])) throw new ApiError(variant.authStatus, 'Missing or invalid API key')
    const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname
    const method = req.method ?? 'GET'

    if (path === '/v1/orders/seller' && method === 'GET') {
      const { total, rows } = listPage(inSandboxTime(parseOrderListQuery(listParams(url))), (query) => state.listOrders(query, tieDraws(query)))
      const body = withTotalForm(spoiledList('orders', wireOrderList(reportedTotal(total, variant), shortened(rows), baseUrl, variant)), variant.totalForm)
      afterList()
      return { status: 200, body }
    }
    if (path === '/v1/sell-requests' && method === 'GET') {
      const { total, rows } = listPage(parseSellRequestListQuery(listParams(url)), (query) => state.listSellRequests(query, tieDraws(query)))
      const body = withTotalForm(
        spoiledList('sellRequests', wireSellRequestList(reportedTotal(total, variant), shortened(rows), baseUrl, variant)),
        variant.totalForm
      )
      afterList()
      return { status: 200, body }
    }
    const idSegment = /^\/v1\/sell-requests\/([^/]+)$/.exec(path)?.[1]
    if (idSegment !== undefined && method === 'PATCH') {
      const id = parseSellRequestId(idSegment)
      const change = parseSellRequestChange(req.headers['content-type'], await readBody(req), variant.patchRequires, options.extraNumericFields)
      const edited = state.editSellRequest(id, change, clock.stamp())
      if (!edited) throw new ApiError(404, `Sell request ${id} not found`)
      return { status: 200, body: wireSellRequestEdited(edited, baseUrl, variant) }
    }
    if (idSegment !== undefined && method === 'DELETE') {
      const id = parseSellRequestId(idSegment)
      if (!state.deleteSellRequest(id)) throw new ApiError(404, `Sell request ${id} not found`)
      return { status: 200, body: wireSellRequestDeleted(id) }
    }
    throw new ApiError(404, `Cannot ${method} ${shorten(url.pathname)}`)
  }

  /** The list query as the server reads it: one that pages by a fixed size never looks at `take`. */
  function listParams(url: URL): URLSearchParams {
    const given = url.searchParams.get('take')
    if (variant.minTake !== null && given !== null && Number(given) < variant.minTake) throw new ApiError(400, `take must not be less than ${variant.minTake}`)
    if (variant.fixedTake === null && (variant.minTake === null || given !== null)) return url.searchParams
    const params = new URLSearchParams(url.searchParams)
    // Its own page size (fixedTake), or, asked with none, its smallest.
    if (variant.fixedTake !== null) params.delete('take')
    else params.set('take', String(variant.minTake))
    return params
  }

  /** An order query's zone-less times, read in the variant's zone (orderTimeOffsetMinutes), as UTC. */
  function inSandboxTime(query: OrderPageQuery): OrderPageQuery {
    const shift = variant.orderTimeOffsetMinutes * 60_000_000
    if (shift === 0) return query
    return {
      ...query,
      ...(query.fromMicros !== undefined ? { fromMicros: query.fromMicros - shift } : {}),
      ...(query.toMicros !== undefined ? { toMicros: query.toMicros - shift } : {})
    }
  }

  /**
   * A list's page at the variant's page size: a `take` above its cap refused when the variant refuses it,
   * and a page past the last one answered as the variant says (pastEnd).
   */
  function listPage<Query extends { page: number; take: number }, Row>(
    query: Query,
    list: (query: Query) => { total: number; rows: Row[] }
  ): { total: number; rows: Row[] } {
    if (variant.fixedTake === null && variant.maxTake !== null && variant.takeAboveMax === 'refused' && query.take > variant.maxTake) {
      throw new ApiError(400, `take must not be greater than ${variant.maxTake}`)
    }
    const take = pageSizeFor(query.take, variant)
    const answer = list({ ...query, take })
    const pages = Math.max(1, Math.ceil(answer.total / take))
    if (query.page <= pages || variant.pastEnd === 'empty') return answer
    if (variant.pastEnd === 'last') return list({ ...query, take, page: pages })
    throw new ApiError(variant.pastEnd === 'not-found' ? 404 : 400, 'Invalid page.')
  }

  /** The rows spoiled in every list answer, by list and id (spoilRows). */
  const spoiled = { orders: new Map<string, RowFault>(), sellRequests: new Map<string, RowFault>() }

  /** A list answer with its rows named in `spoiled` spoiled. */
  function spoiledList<List extends WireOrderList | WireSellRequestList>(resource: 'orders' | 'sellRequests', list: List): List {
    const faults = spoiled[resource]
    if (faults.size === 0) return list
    const spoil = <Row extends { id: string }>(rows: Row[]) =>
      rows.map((row) => {
        const fault = faults.get(row.id)
        return fault ? (spoiledRow(resource, row, fault) as unknown as Row) : row
      })
    if ('total' in list) return { ...list, data: spoil(list.data) }
    return { ...list, data: { ...list.data, data: spoil(list.data.data) } }
  }

  /** A page cut short (rows dropped off its end) for the `shortPageRate` share of non-empty pages. */
  function shortened<T>(rows: T[]): T[] {
    if (variant.shortPageRate <= 0 || rows.length === 0 || !variantDraws.shortPages.chance(variant.shortPageRate)) return rows
    return rows.slice(0, rows.length - variantDraws.shortPages.int(1, Math.max(1, rows.length - 1)))
  }

  /** Where tied rows get their order for one list request (`query`, the page asked): none when they come in id order. */
  function tieDraws(query: { page: number; take: number; sortDir: string }): Random | undefined {
    if (variant.tiesOrderedByPage)
      return new Random(createHash('sha256').update(`${variant.variantSeed}|${query.page}|${query.take}|${query.sortDir}`).digest().readUInt32LE(0))
    return variant.tiesShuffledPerRequest ? variantDraws.ties : undefined
  }

  /** The marketplace moves on between one page and the next. */
  function afterList(): void {
    if (variant.churnPerList > 0) churn(state, variantDraws.churn, variant.churnPerList, clock.stamp)
  }

  /** Every answer goes out here: the `Date` header is the sandbox clock's, or absent. */
  function send(res: ServerResponse, status: number, contentType: string | undefined, text: string, headers: Record<string, string> = {}): void {
    if (res.headersSent || res.destroyed) return
    res.sendDate = false
    const date: Record<string, string> = variant.dateHeader ? { Date: new Date(clock.read()).toUTCString() } : {}
    const type: Record<string, string> = contentType !== undefined ? { 'Content-Type': contentType } : {}
    res.writeHead(status, { ...headers, ...date, ...type, 'Content-Length': String(Buffer.byteLength(text)) })
    res.end(res.req.method === 'HEAD' ? undefined : text)
  }

  function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    send(res, status, 'application/json; charset=utf-8', JSON.stringify(body), headers)
  }

  /** Every error answer goes out here, in the body form of the variant in force. */
  function sendError(res: ServerResponse, error: ApiError, headers: Record<string, string> = {}): void {
    const { contentType, text } = errorPayload(variant.errorBody, error)
    send(res, error.statusCode, contentType, text, headers)
  }

  function serveImage(req: IncomingMessage, res: ServerResponse, path: string): void {
    const name = path.endsWith('.svg') ? path.slice('/img/'.length, -'.svg'.length) : ''
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !IMAGE_NAME.test(name)) {
      return sendError(res, new ApiError(404, `Cannot ${req.method ?? 'GET'} ${shorten(path)}`))
    }
    send(res, 200, 'image/svg+xml; charset=utf-8', productImageSvg(name), {
      'Cache-Control': 'public, max-age=86400',
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
      'X-Content-Type-Options': 'nosniff'
    })
  }

  async function serveApi(req: IncomingMessage, res: ServerResponse, url: URL, fault: FaultKind | undefined): Promise<void> {
    switch (fault) {
      case 'hang':
        return // Never answered; close() destroys the connection.
      case 'drop':
        req.socket.destroy()
        return
      case 'server-error':
        return sendError(res, new ApiError(500, 'Internal server error'), { 'X-Sandbox-Fault': fault })
      case 'rate-limit':
      case 'unavailable': {
        const seconds = Math.ceil(faults.current.retryAfterSeconds)
        const status = fault === 'rate-limit' ? 429 : 503
        const message = fault === 'rate-limit' ? `Rate limit exceeded, retry after ${seconds} s` : `Service temporarily unavailable, retry after ${seconds} s`
        const retryAfter = retryAfterValue(seconds, variant.retryAfter, clock.read())
        return sendError(res, new ApiError(status, message), { ...(retryAfter !== undefined ? { 'Retry-After': retryAfter } : {}), 'X-Sandbox-Fault': fault })
      }
    }

    let result: Answer | ApiError
    try {
      result = await answer(req, url)
    } catch (error) {
      if (req.socket.destroyed) return
      result = error instanceof ApiError ? error : new ApiError(500, 'Internal server error')
    }
    // Handled (an edit or delete made), and no answer at all: as a connection lost on the way back.
    if (fault === 'drop-after-handling') {
      req.socket.destroy()
      return
    }
    // A garbled answer is garbled JSON whatever the marketplace's error bodies look like.
    const body = result instanceof ApiError ? errorBody(result.statusCode, result.message) : result.body
    if (fault === 'malformed') {
      return send(res, 200, 'application/json; charset=utf-8', truncatedJson(JSON.stringify(body)), { 'X-Sandbox-Fault': fault })
    }
    if (fault === 'wrong-types') return sendJson(res, 200, withWrongTypes(body), { 'X-Sandbox-Fault': fault })
    if (result instanceof ApiError) return sendError(res, result)
    sendJson(res, result.status, result.body)
  }

  function onRequest(req: IncomingMessage, res: ServerResponse): void {
    let url: URL
    try {
      url = new URL(req.url ?? '/', 'http://sandbox.invalid')
    } catch {
      return sendError(res, new ApiError(400, 'Malformed request URL'))
    }
    const path = url.pathname

    if (path.startsWith('/img/')) return serveImage(req, res, path)
    if (path !== '/v1' && !path.startsWith('/v1/')) {
      return sendError(res, new ApiError(404, `Cannot ${req.method ?? 'GET'} ${shorten(path)}`))
    }

    apiRequests++
    const method = req.method ?? 'GET'
    apiRequestsByMethod.set(method, (apiRequestsByMethod.get(method) ?? 0) + 1)
    const plan = faults.plan(variant.faultBurst)
    const go = (): void => {
      if (closing || req.socket.destroyed) return
      const hold = [...holds].find((candidate) => candidate.picks({ method, url }))
      if (hold) {
        hold.caught++
        hold.waiting.push(go)
        return
      }
      serveApi(req, res, url, plan.fault).catch(() => {
        if (!res.headersSent && !req.socket.destroyed) sendError(res, new ApiError(500, 'Internal server error'))
      })
    }
    if (plan.delayMs <= 0) return go()
    const timer = setTimeout(() => {
      delays.delete(timer)
      go()
    }, plan.delayMs)
    delays.add(timer)
  }

  const server = createServer({ keepAlive: true }, onRequest)
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const port = (server.address() as AddressInfo).port
  baseUrl = `http://${urlHost(host)}:${port}`

  return {
    baseUrl,
    port,
    apiKey,
    state,
    get variant() {
      return { ...variant }
    },
    setVariant: (change) => {
      const checked = checkedVariant(change)
      if (checked.variantSeed !== undefined) variantDraws = variantRandoms(checked.variantSeed)
      variant = { ...variant, ...checked }
    },
    churn: (n) => churn(state, variantDraws.churn, wholeNumber(n, 'n'), clock.stamp),
    setFaults: (change) => faults.set(change),
    injectNext: (kind, count = 1) => faults.injectNext(kind, count),
    requestCount: (method) => (method === undefined ? apiRequests : (apiRequestsByMethod.get(method.toUpperCase()) ?? 0)),
    addOrders: (n) => placeOrders(state, activity, wholeNumber(n, 'n'), clock.stamp),
    touchOrders: (n) => advanceOrders(state, activity, wholeNumber(n, 'n'), clock.stamp),
    changeTogether: (resource, n, atMs) => changeTogether(state, activity, resource, wholeNumber(n, 'n'), atMs ?? clock.stamp()),
    spoilRows: (resource, ids, fault = 'value') => {
      spoiled[resource] = new Map(ids.map((id) => [id, fault]))
    },
    hold: (picks) => {
      const hold = { picks, waiting: [] as (() => void)[], caught: 0 }
      holds.add(hold)
      return {
        get caught() {
          return hold.caught
        },
        release: () => {
          holds.delete(hold)
          for (const go of hold.waiting.splice(0)) go()
        }
      }
    },
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        for (const timer of delays) clearTimeout(timer)
        delays.clear()
        holds.clear()
        server.close(() => resolve())
        server.closeAllConnections()
      })
      return closing
    }
  }
}

/** The sandbox's time, epoch ms: starts at the `now` option and runs on in real time. */
interface SandboxClock {
  /**
   * A fresh instant for a change. Strictly increasing, so every change gets its own instant and
   * update order is never a tie.
   */
  stamp(): number
  /** The time now, for headers: never before the last stamp, and takes no instant of its own. */
  read(): number
}

function sandboxClock(startMs: number): SandboxClock {
  const origin = performance.now()
  let last = startMs - 1
  const running = (): number => startMs + Math.floor(performance.now() - origin)
  return {
    stamp: () => (last = Math.max(last + 1, running())),
    read: () => Math.max(last, running())
  }
}

/** The generators of the variant draws, each its own so that one option's draws do not shift another's. */
function variantRandoms(variantSeed: number): { shortPages: Random; churn: Random; ties: Random } {
  return { shortPages: new Random(variantSeed), churn: new Random(variantSeed ^ 0xc0ffee), ties: new Random(variantSeed ^ 0x71e5) }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    let tooLarge = false
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_BODY_BYTES) tooLarge = true
      else chunks.push(chunk)
    })
    req.on('end', () => {
      if (tooLarge) reject(new ApiError(413, `body must be at most ${MAX_BODY_BYTES} bytes`))
      else resolve(Buffer.concat(chunks).toString('utf8'))
    })
    req.on('error', reject)
  })
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest()
}

function shorten(path: string): string {
  return path.length > 200 ? `${path.slice(0, 200)}…` : path
}

function wholeNumber(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be a whole number ≥ 0`)
  return value
}

/** The host as it goes in a URL; a wildcard address becomes the loopback one. */
function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1'
  if (host === '::') return '[::1]'
  return host.includes(':') ? `[${host}]` : host
}
