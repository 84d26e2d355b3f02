/**
 * Variants: the other choices a spec-following marketplace may make wherever
 * shared/spec/seller-api.md says "not shown" (paging limits, total counts, error bodies, headers,
 * extra fields and statuses, edit rules, data changing between pages, the order of tied rows, bursts
 * of faults).
 *
 * DEFAULT_VARIANT is the sandbox's own choice for each of them; a client that works only against
 * the defaults relies on choices a real marketplace need not share.
 */

export type TotalForm = 'spec' | 'number' | 'string'
export type RetryAfterForm = 'seconds' | 'http-date' | 'absent'
export type ErrorBodyForm = 'json' | 'json-array' | 'text' | 'html' | 'empty'
export type AuthStatus = 401 | 403
export type PatchRequires = 'either' | 'both'
export type PastEnd = 'empty' | 'last' | 'not-found' | 'refused'
export type TakeAboveMax = 'cap' | 'refused'

export interface Variant {
  /** A list answers at most this many rows per page, and pages by that many (skip = (page-1) × min(take, maxTake)). Null: no cap below the sandbox's own limit. */
  maxTake: number | null
  /** `take` is ignored: lists always page by this many rows. Wins over maxTake. */
  fixedTake: number | null
  /**
   * A `take` below this is refused with 400 (a validating API with a smallest page), and a list asked
   * with none pages by it (its own default). Null: any `take` from 1.
   */
  minTake: number | null
  /** A `take` above maxTake: paged by maxTake ('cap'), or refused with 400 ('refused', as a validating API does). */
  takeAboveMax: TakeAboveMax
  /**
   * A page past the last one (page 1 never is): answered with no rows, as the last page again ('last',
   * as a clamping paginator does), or with 404 ('not-found', as Django REST Framework does) or 400 ('refused').
   */
  pastEnd: PastEnd
  /** Share of non-empty list pages that come back short: rows dropped off the end, `total` unchanged. */
  shortPageRate: number
  /** Added to the `total` a list reports (never below 0): negative hides rows from the count, positive counts rows never listed. */
  totalOffset: number
  /** 'spec': orders' total a numeric string, sell requests' an integer; 'number' / 'string': both so. */
  totalForm: TotalForm
  /** `Retry-After` on 429 and 503: delta seconds, an HTTP date by the sandbox's clock, or none. */
  retryAfter: RetryAfterForm
  /** The body of every error answer. */
  errorBody: ErrorBodyForm
  /** The status of a missing or wrong API key. */
  authStatus: AuthStatus
  /** Every answer carries a `Date` header from the sandbox's clock; false: no `Date` header at all. */
  dateHeader: boolean
  /** Fractional-second digits of an order's zone-less `orderDate` (0: no fraction, no dot). */
  orderDateDigits: number
  /**
   * The zone of the zone-less order times (`orderDate`, and `fromDate` / `toDate` as read), as minutes
   * ahead of UTC: the spec names no zone for them, and a marketplace may write its own local time.
   */
  orderTimeOffsetMinutes: number
  /** Rows carry fields, property keys and status values the spec does not name. */
  unknownFields: boolean
  /** 'both': an edit must carry price and quantity; 'either': one of them is enough. */
  patchRequires: PatchRequires
  /** Random changes the marketplace makes after each list answer, so the next page sees them. */
  churnPerList: number
  /**
   * Rows of equal update time come in an order drawn afresh for each list request, as a list sorted by
   * update time alone (the spec names no tie-breaker) comes from SQL; false: tied rows in id order.
   */
  tiesShuffledPerRequest: boolean
  /**
   * Rows of equal update time come in an order drawn from the page asked (its page, take and direction):
   * the same page asked again holds the same rows, a page of another size others. So a SQL planner's
   * sort bounded by OFFSET + LIMIT orders ties (the order depends on the bound, not on the request).
   * Wins over tiesShuffledPerRequest.
   */
  tiesOrderedByPage: boolean
  /** A rate-based fault, once drawn, hits this many API requests in a row. */
  faultBurst: number
  /** Seeds the short-page, churn, tie-order and unknown-field draws. */
  variantSeed: number
}

export const DEFAULT_VARIANT: Readonly<Variant> = Object.freeze({
  maxTake: null,
  fixedTake: null,
  minTake: null,
  takeAboveMax: 'cap',
  pastEnd: 'empty',
  shortPageRate: 0,
  totalOffset: 0,
  totalForm: 'spec',
  retryAfter: 'seconds',
  errorBody: 'json',
  authStatus: 401,
  dateHeader: true,
  orderDateDigits: 6,
  orderTimeOffsetMinutes: 0,
  unknownFields: false,
  patchRequires: 'either',
  churnPerList: 0,
  tiesShuffledPerRequest: false,
  tiesOrderedByPage: false,
  faultBurst: 1,
  variantSeed: 0
})

export const TOTAL_FORMS: readonly TotalForm[] = ['spec', 'number', 'string']
export const RETRY_AFTER_FORMS: readonly RetryAfterForm[] = ['seconds', 'http-date', 'absent']
export const ERROR_BODY_FORMS: readonly ErrorBodyForm[] = ['json', 'json-array', 'text', 'html', 'empty']
export const AUTH_STATUSES: readonly AuthStatus[] = [401, 403]
export const PATCH_REQUIRES: readonly PatchRequires[] = ['either', 'both']
export const PAST_END_FORMS: readonly PastEnd[] = ['empty', 'last', 'not-found', 'refused']
export const TAKE_ABOVE_MAX_FORMS: readonly TakeAboveMax[] = ['cap', 'refused']

const isPositiveInteger = (value: unknown): boolean => typeof value === 'number' && Number.isSafeInteger(value) && value >= 1
const isWholeNumber = (value: unknown): boolean => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0

/**
 * The given settings, checked; keys left undefined are dropped so that they change nothing.
 * Throws RangeError naming the first setting that is out of range or unknown.
 */
export function checkedVariant(change: Partial<Variant>): Partial<Variant> {
  const known = new Set(Object.keys(DEFAULT_VARIANT))
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(change)) {
    if (value === undefined) continue
    if (!known.has(key)) throw new RangeError(`unknown variant setting "${key}"`)
    const problem = problemWith(key as keyof Variant, value)
    if (problem) throw new RangeError(`${key} ${problem} (got ${JSON.stringify(value)})`)
    out[key] = value
  }
  return out as Partial<Variant>
}

function problemWith(key: keyof Variant, value: unknown): string | undefined {
  const oneOf = (allowed: readonly unknown[]): string | undefined =>
    allowed.includes(value) ? undefined : `must be one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}`
  switch (key) {
    case 'maxTake':
    case 'fixedTake':
    case 'minTake':
      return value === null || isPositiveInteger(value) ? undefined : 'must be a whole number ≥ 1, or null'
    case 'shortPageRate':
      return typeof value === 'number' && value >= 0 && value <= 1 ? undefined : 'must be between 0 and 1'
    case 'totalOffset':
      return typeof value === 'number' && Number.isSafeInteger(value) ? undefined : 'must be a whole number (negative allowed)'
    case 'totalForm':
      return oneOf(TOTAL_FORMS)
    case 'retryAfter':
      return oneOf(RETRY_AFTER_FORMS)
    case 'errorBody':
      return oneOf(ERROR_BODY_FORMS)
    case 'authStatus':
      return oneOf(AUTH_STATUSES)
    case 'dateHeader':
    case 'unknownFields':
    case 'tiesShuffledPerRequest':
    case 'tiesOrderedByPage':
      return typeof value === 'boolean' ? undefined : 'must be true or false'
    case 'orderTimeOffsetMinutes':
      return typeof value === 'number' && Number.isSafeInteger(value) && Math.abs(value) <= 14 * 60 ? undefined : 'must be whole minutes from -840 to 840'
    case 'orderDateDigits':
      return isWholeNumber(value) && (value as number) <= 6 ? undefined : 'must be a whole number from 0 to 6'
    case 'patchRequires':
      return oneOf(PATCH_REQUIRES)
    case 'pastEnd':
      return oneOf(PAST_END_FORMS)
    case 'takeAboveMax':
      return oneOf(TAKE_ABOVE_MAX_FORMS)
    case 'churnPerList':
      return isWholeNumber(value) ? undefined : 'must be a whole number ≥ 0'
    case 'faultBurst':
      return isPositiveInteger(value) ? undefined : 'must be a whole number ≥ 1'
    case 'variantSeed':
      return typeof value === 'number' && Number.isFinite(value) ? undefined : 'must be a finite number'
  }
}

/** The rows per page and the paging step a list uses for the `take` asked. */
export function pageSizeFor(take: number, variant: Readonly<Variant>): number {
  if (variant.fixedTake !== null) return variant.fixedTake
  return variant.maxTake !== null ? Math.min(take, variant.maxTake) : take
}

/** The `total` a list reports for `count` matching rows. */
export function reportedTotal(count: number, variant: Readonly<Variant>): number {
  return Math.max(0, count + variant.totalOffset)
}
