/**
 * What the demo marketplace accepts from a client: list query parameters, sell request ids and
 * the edit body. Anything else is refused with 400 and a message naming the parameter.
 * Strict on purpose: the sandbox exists to catch client mistakes before a real marketplace does.
 */
import { ApiError } from './errors'
import type { OrderPageQuery, PageQuery, SortDir } from './marketplace'
import type { PatchRequires } from './variant'

export const MAX_TAKE = 1000

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const WHOLE_NUMBER = /^\d+$/
const ZONELESS = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?$/

function badRequest(message: string): ApiError {
  return new ApiError(400, message)
}

/** The single value of a query parameter; a parameter given twice is refused. */
function single(params: URLSearchParams, name: string): string | undefined {
  const values = params.getAll(name)
  if (values.length > 1) throw badRequest(`${name} must be given at most once`)
  return values[0]
}

function integerParam(params: URLSearchParams, name: string, fallback: number, min: number, max: number): number {
  const text = single(params, name)
  if (text === undefined) return fallback
  const value = WHOLE_NUMBER.test(text) ? Number(text) : NaN
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw badRequest(
      max === Number.MAX_SAFE_INTEGER
        ? `${name} must be an integer ≥ ${min} (got "${text}")`
        : `${name} must be an integer from ${min} to ${max} (got "${text}")`
    )
  }
  return value
}

function sortDirParam(params: URLSearchParams): SortDir {
  const text = single(params, 'sortDir')
  if (text === undefined) return 'DESC'
  if (text === 'ASC' || text === 'asc') return 'ASC'
  if (text === 'DESC' || text === 'desc') return 'DESC'
  throw badRequest(`sortDir must be ASC or DESC (got "${text}")`)
}

/** page, take, searchTerm, sortDir: the parameters both lists share. Unknown parameters are ignored. */
export function parsePageQuery(params: URLSearchParams): PageQuery {
  const page = integerParam(params, 'page', 1, 1, Number.MAX_SAFE_INTEGER)
  const take = integerParam(params, 'take', 10, 1, MAX_TAKE)
  const sortDir = sortDirParam(params)
  const searchTerm = single(params, 'searchTerm')?.trim() ?? ''
  return searchTerm === '' ? { page, take, sortDir } : { page, take, sortDir, searchTerm }
}

/** The sell request list query. `fromDate` and `toDate` do not apply to it and are ignored. */
export function parseSellRequestListQuery(params: URLSearchParams): PageQuery {
  return parsePageQuery(params)
}

/** The order list query: the shared parameters plus the inclusive `fromDate` / `toDate` (zone-less, UTC). */
export function parseOrderListQuery(params: URLSearchParams): OrderPageQuery {
  const query: OrderPageQuery = parsePageQuery(params)
  for (const name of ['fromDate', 'toDate'] as const) {
    const text = single(params, name)
    if (text === undefined) continue
    const micros = microsFromZoneless(text)
    if (micros === null) {
      throw badRequest(`${name} must be an ISO 8601 date-time without zone, taken as UTC, e.g. 2026-11-19T14:03:22.123456 (got "${text}")`)
    }
    if (name === 'fromDate') query.fromMicros = micros
    else query.toMicros = micros
  }
  return query
}

/**
 * "2026-11-19T14:03:22.123456" (UTC, no zone) → epoch microseconds. Also accepts a date alone
 * (midnight) and seconds or fractions left out; digits past microseconds are dropped.
 * Null for anything else, including a zone suffix or an impossible date such as 2026-02-31.
 */
export function microsFromZoneless(text: string): number | null {
  const match = ZONELESS.exec(text)
  if (!match) return null
  const [, year, month, day, hour = '0', minute = '0', second = '0', fraction = ''] = match
  const y = Number(year)
  const mo = Number(month)
  const d = Number(day)
  const h = Number(hour)
  const mi = Number(minute)
  const s = Number(second)
  if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59) return null
  const date = new Date(0)
  date.setUTCFullYear(y, mo - 1, d)
  date.setUTCHours(h, mi, s, 0)
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return null
  return date.getTime() * 1000 + Number(fraction.padEnd(6, '0').slice(0, 6))
}

/** The `:id` path segment: a UUID, compared in lower case. */
export function parseSellRequestId(segment: string): string {
  if (!UUID.test(segment)) throw badRequest(`id must be a UUID (got "${segment.slice(0, 80)}")`)
  return segment.toLowerCase()
}

export interface SellRequestChange {
  quantity?: number
  priceCents?: number
  /** Values of the extra numeric fields the sandbox was started with, by wire name. */
  extra?: Record<string, number>
}

/**
 * The edit body `{ quantity?, price? }`: at least one of them, or both when `requires` is 'both';
 * quantity a whole number ≥ 0, price a number of dollars > 0 with at most two decimals. Other
 * fields are ignored.
 */
export function parseSellRequestChange(
  contentType: string | undefined,
  body: string,
  requires: PatchRequires = 'either',
  extraFields: readonly string[] = []
): SellRequestChange {
  const mediaType = contentType?.split(';')[0]?.trim().toLowerCase()
  if (mediaType !== 'application/json') throw badRequest('Content-Type must be application/json')

  let parsed: unknown
  try {
    parsed = JSON.parse(body)
  } catch {
    throw badRequest('body must be valid JSON')
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw badRequest('body must be a JSON object with quantity and/or price')
  }

  const fields = parsed as Record<string, unknown>
  if (requires === 'both') {
    const missing = (['price', 'quantity'] as const).filter((name) => !(name in fields)).map((name) => `${name} must be given`)
    if (missing.length > 0) throw new ApiError(400, `body must contain both price and quantity: ${missing.join('; ')}`, missing)
  }
  const change: SellRequestChange = {}
  if ('quantity' in fields) {
    const quantity = fields['quantity']
    if (typeof quantity !== 'number' || !Number.isSafeInteger(quantity) || quantity < 0) {
      throw badRequest(`quantity must be a whole number ≥ 0 (got ${describe(quantity)})`)
    }
    change.quantity = quantity
  }
  if ('price' in fields) {
    const price = fields['price']
    if (typeof price !== 'number' || !Number.isFinite(price) || price <= 0) {
      throw badRequest(`price must be a number greater than 0 (got ${describe(price)})`)
    }
    const cents = Math.round(price * 100)
    if (Math.abs(price * 100 - cents) > 1e-6 || !Number.isSafeInteger(cents)) {
      throw badRequest(`price must be in US dollars with at most 2 decimal places (got ${describe(price)})`)
    }
    change.priceCents = cents
  }
  for (const name of extraFields) {
    if (!(name in fields)) continue
    const value = fields[name]
    if (typeof value !== 'number' || !Number.isFinite(value)) throw badRequest(`${name} must be a number (got ${describe(value)})`)
    change.extra = { ...change.extra, [name]: value }
  }
  if (change.quantity === undefined && change.priceCents === undefined && change.extra === undefined) {
    throw badRequest('body must contain quantity or price')
  }
  return change
}

function describe(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 40 ? `${text.slice(0, 40)}…` : text
}
