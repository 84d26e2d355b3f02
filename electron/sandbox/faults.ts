/**
 * Fault injection for the demo marketplace: slow, failing, rate-limited, cut-off, garbled and
 * hanging answers, so the client's retries, timeouts and error messages can be exercised.
 *
 * Faults apply to API requests (`/v1/...`) only, never to product images. For each request:
 * 1. the latency (`latencyMs` plus up to `jitterMs`) is waited first;
 * 2. a queued one-shot fault (`injectNext`, which replaces any not yet used) is taken, if any;
 * 3. otherwise a burst under way (see `burst`) goes on, if any;
 * 4. otherwise each rate is tried in turn: drop, server error, rate limit, unavailable, malformed,
 *    drop after handling.
 * With the same `faultSeed` and the same sequence of requests, the same requests fail.
 *
 * Faults decided before the request is handled (server-error, rate-limit, unavailable, drop, hang)
 * leave the marketplace unchanged; malformed and wrong-types garble the answer of a request that
 * was handled, so an edit or delete has taken effect even though its answer is unreadable; and
 * drop-after-handling closes the connection of a request that was handled, so an edit or delete has
 * taken effect though no answer comes at all.
 */
import { Random } from './random'
import type { RetryAfterForm } from './variant'

export interface Faults {
  /** Added to every API request. */
  latencyMs: number
  /** A further random delay, uniform in [0, jitterMs]. */
  jitterMs: number
  /** Share of requests answered 500. */
  errorRate: number
  /** Share of requests answered 429 with `Retry-After`. */
  rateLimitRate: number
  /** Share of requests answered 503 with `Retry-After`. */
  unavailableRate: number
  /** `Retry-After` of 429 and 503 answers. */
  retryAfterSeconds: number
  /** Share of requests whose connection is destroyed without an answer, before they are handled. */
  dropRate: number
  /** Share of requests answered 200 with a truncated, unparseable JSON body. */
  malformedRate: number
  /** Share of requests handled (an edit or delete made) whose connection is then destroyed without an answer. */
  dropAfterHandlingRate: number
  /** Seeds the draws of rates and jitter; setting it restarts them. */
  faultSeed?: number
}

export type FaultKind =
  | 'server-error' // 500
  | 'rate-limit' // 429 + Retry-After
  | 'unavailable' // 503 + Retry-After
  | 'drop' // socket destroyed, no answer, the request not handled
  | 'drop-after-handling' // the request handled, then the socket destroyed, no answer
  | 'malformed' // 200, truncated JSON
  | 'wrong-types' // 200, valid JSON whose fields have the wrong types
  | 'hang' // accepted, never answered

export const FAULT_KINDS: readonly FaultKind[] = [
  'server-error',
  'rate-limit',
  'unavailable',
  'drop',
  'drop-after-handling',
  'malformed',
  'wrong-types',
  'hang'
]

export const NO_FAULTS: Readonly<Faults> = {
  latencyMs: 0,
  jitterMs: 0,
  errorRate: 0,
  rateLimitRate: 0,
  unavailableRate: 0,
  retryAfterSeconds: 1,
  dropRate: 0,
  malformedRate: 0,
  dropAfterHandlingRate: 0
}

/** What happens to one API request. */
export interface FaultPlan {
  delayMs: number
  fault: FaultKind | undefined
}

const RATES = ['errorRate', 'rateLimitRate', 'unavailableRate', 'dropRate', 'malformedRate', 'dropAfterHandlingRate'] as const
const DURATIONS = ['latencyMs', 'jitterMs', 'retryAfterSeconds'] as const

export class FaultInjector {
  private faults: Faults = { ...NO_FAULTS }
  private readonly queue: FaultKind[] = []
  private draws = new Random(0)
  private jitter = new Random(1)
  // Their own generators, so that the older rates fail the same requests for a seed as before they existed.
  private unavailableDraws = new Random(2)
  private droppedAfterDraws = new Random(3)
  private burstKind: FaultKind | undefined
  private burstLeft = 0

  constructor(initial?: Partial<Faults>) {
    if (initial) this.set(initial)
  }

  get current(): Readonly<Faults> {
    return { ...this.faults }
  }

  /** Changes the given settings, keeps the others. Throws RangeError on a rate outside [0, 1] or a negative duration. */
  set(change: Partial<Faults>): void {
    for (const name of RATES) {
      const value = change[name]
      if (value !== undefined && !(value >= 0 && value <= 1)) throw new RangeError(`${name} must be between 0 and 1`)
    }
    for (const name of DURATIONS) {
      const value = change[name]
      if (value !== undefined && !(value >= 0 && Number.isFinite(value))) throw new RangeError(`${name} must be a finite number ≥ 0`)
    }
    if (change.faultSeed !== undefined && !Number.isFinite(change.faultSeed)) throw new RangeError('faultSeed must be a finite number')
    const defined = Object.fromEntries(Object.entries(change).filter(([, value]) => value !== undefined)) as Partial<Faults>
    this.faults = { ...this.faults, ...defined }
    if (change.faultSeed !== undefined) {
      this.draws = new Random(change.faultSeed)
      this.jitter = new Random(change.faultSeed + 1)
      this.unavailableDraws = new Random(change.faultSeed + 2)
      this.droppedAfterDraws = new Random(change.faultSeed + 3)
      this.burstLeft = 0
    }
  }

  /**
   * Makes the next `count` API requests fail with `kind`, ahead of any rate-based fault. Replaces
   * one-shot faults not yet used, so `injectNext(kind, 0)` clears them.
   */
  injectNext(kind: FaultKind, count = 1): void {
    if (!FAULT_KINDS.includes(kind)) throw new RangeError(`unknown fault kind "${String(kind)}"`)
    if (!Number.isSafeInteger(count) || count < 0) throw new RangeError('count must be a whole number ≥ 0')
    this.queue.length = 0
    for (let i = 0; i < count; i++) this.queue.push(kind)
  }

  /** Queued one-shot faults not yet used. */
  get pending(): readonly FaultKind[] {
    return [...this.queue]
  }

  /**
   * Decides the fate of the next API request. A rate-based fault drawn here also hits the next
   * `burst - 1` requests, as an overloaded server or a flaky link fails several requests in a row.
   */
  plan(burst = 1): FaultPlan {
    const { latencyMs, jitterMs } = this.faults
    const delayMs = latencyMs + (jitterMs > 0 ? this.jitter.next() * jitterMs : 0)
    const queued = this.queue.shift()
    if (queued) return { delayMs, fault: queued }
    // Always the same draws, so which requests fail does not depend on which rates are set.
    const drop = this.draws.next() < this.faults.dropRate
    const error = this.draws.next() < this.faults.errorRate
    const limited = this.draws.next() < this.faults.rateLimitRate
    const malformed = this.draws.next() < this.faults.malformedRate
    const unavailable = this.unavailableDraws.next() < this.faults.unavailableRate
    const droppedAfter = this.droppedAfterDraws.next() < this.faults.dropAfterHandlingRate
    if (this.burstLeft > 0) {
      this.burstLeft--
      return { delayMs, fault: this.burstKind }
    }
    const fault = drop
      ? 'drop'
      : error
        ? 'server-error'
        : limited
          ? 'rate-limit'
          : unavailable
            ? 'unavailable'
            : malformed
              ? 'malformed'
              : droppedAfter
                ? 'drop-after-handling'
                : undefined
    if (fault) {
      this.burstKind = fault
      this.burstLeft = burst - 1
    }
    return { delayMs, fault }
  }
}

/**
 * The `Retry-After` value of a 429 or 503 in the given form (undefined: no header). An HTTP date
 * is reckoned from the marketplace's own clock, `nowMs`, as a server stamps it.
 */
export function retryAfterValue(seconds: number, form: RetryAfterForm, nowMs: number): string | undefined {
  const whole = Math.ceil(seconds)
  if (form === 'absent') return undefined
  if (form === 'http-date') return new Date(nowMs + whole * 1000).toUTCString()
  return String(whole)
}

/** A JSON body cut off halfway: what a garbled 200 carries. Never parses. */
export function truncatedJson(json: string): string {
  const cut = json.slice(0, Math.max(1, Math.floor(json.length / 2)))
  // A cut that happens to end on a complete value (e.g. "1" of "12") must still fail to parse.
  return cut.startsWith('{') || cut.startsWith('[') ? cut : `{${cut}`
}

/** Money, counts and ids in the answer get the wrong JSON types (e.g. totalPrice: {}, total: "abc"). */
const RETYPED_KEYS = new Set([
  'total',
  'totalPrice',
  'amountPaid',
  'quantity',
  'products',
  'price',
  'msrp',
  'margin',
  'minQuantity',
  'id',
  'orderDate',
  'updatedAt',
  'statusCode'
])

export function withWrongTypes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withWrongTypes)
  if (typeof value !== 'object' || value === null) return value
  const out: Record<string, unknown> = {}
  for (const [key, field] of Object.entries(value)) {
    if (RETYPED_KEYS.has(key) && typeof field === 'string') out[key] = {}
    else if (RETYPED_KEYS.has(key) && typeof field === 'number') out[key] = 'abc'
    else out[key] = withWrongTypes(field)
  }
  return out
}
