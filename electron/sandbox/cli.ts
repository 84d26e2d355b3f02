/**
 * Runs the demo marketplace on its own:
 *
 *   npm run sandbox -- --port 4010 --orders 300 --sell-requests 250 --seed 1 --api-key <key>
 *                      --latency 0 --jitter 0 --error-rate 0 --rate-limit-rate 0 --retry-after 1
 *                      --drop-rate 0 --malformed-rate 0 --unavailable-rate 0 --drop-after-handling-rate 0
 *                      --fault-seed 0
 *                      --host 127.0.0.1 --now <ISO instant>  [variant flags, see USAGE]
 *
 * Prints the base URL and the (demo) API key; stops on SIGINT / SIGTERM.
 */
import { parseArgs } from 'node:util'
import { DEFAULT_ORDERS, DEFAULT_SEED, DEFAULT_SELL_REQUESTS, DEMO_API_KEY, startSandbox } from './server'
import { DEFAULT_NOW } from './seed'
import { checkedVariant, DEFAULT_VARIANT, type Variant } from './variant'

const USAGE = `Usage: npm run sandbox -- [options]
  --host <host>               default 127.0.0.1
  --port <n>                  default 4010 (0 = any free port)
  --orders <n>                default ${DEFAULT_ORDERS}
  --sell-requests <n>         default ${DEFAULT_SELL_REQUESTS}
  --seed <n>                  default ${DEFAULT_SEED}
  --now <ISO instant>         the data's "now", default the moment it starts (so today has
                              orders); give one, e.g. ${DEFAULT_NOW.toISOString()}, for the same data each run
  --api-key <key>             default ${DEMO_API_KEY}
  --latency <ms>  --jitter <ms>
  --error-rate <0..1>  --rate-limit-rate <0..1>  --retry-after <s>
  --drop-rate <0..1>  --malformed-rate <0..1>  --fault-seed <n>
  --unavailable-rate <0..1>   share of requests answered 503 with Retry-After
  --drop-after-handling-rate <0..1>
                              share of requests handled (an edit or delete made), then dropped unanswered
Variants (what a spec-following marketplace may do differently; default: the sandbox's own choice):
  --max-take <n>              at most n rows per page, paging by that many
  --fixed-take <n>            ignore take, always page by n rows
  --min-take <n>              refuse a take below n with 400 (asked with none, page by n)
  --take-above-max <f>        cap | refused: a take above --max-take paged by it, or refused with 400
  --past-end <f>              empty | last | not-found | refused: a page past the last one answered
                              empty, as the last page again, 404 or 400
  --short-page-rate <0..1>    share of pages cut short at the end, total unchanged
  --total-offset <n>          the reported total is off by n (--total-offset=-5 for fewer)
  --total-form <f>            spec | number | string: the JSON type of both lists' total
  --retry-after-form <f>      seconds | http-date | absent: Retry-After on 429 and 503
  --error-body <f>            json | json-array | text | html | empty: the body of error answers
  --auth-status <n>           401 | 403: the status of a missing or wrong key
  --no-date-header            answers carry no Date header (default: the sandbox's clock)
  --order-date-digits <0..6>  fractional-second digits of orderDate, default 6
  --order-time-offset <min>   order times (orderDate, fromDate, toDate) in a zone this many minutes
                              ahead of UTC (--order-time-offset=-300 for UTC-5), default 0
  --unknown-fields            rows carry fields, property keys and statuses the spec does not name
  --patch-requires <r>        either | both: whether an edit must carry price and quantity
  --churn <n>                 random changes (orders, sell requests) after each list answer
  --ties-shuffled             rows of equal update time in a new order on each list request
  --ties-by-page              rows of equal update time in an order set by the page asked (its size
                              and place): the same page holds the same rows, pages of another size others
  --fault-burst <n>           a drawn rate-based fault hits n requests in a row, default 1
  --variant-seed <n>          seeds short pages, churn, tie order and unknown fields, default 0`

/** Variant settings given as a number on the command line. */
const VARIANT_NUMBERS = {
  'max-take': 'maxTake',
  'fixed-take': 'fixedTake',
  'min-take': 'minTake',
  'short-page-rate': 'shortPageRate',
  'total-offset': 'totalOffset',
  'auth-status': 'authStatus',
  'order-date-digits': 'orderDateDigits',
  'order-time-offset': 'orderTimeOffsetMinutes',
  churn: 'churnPerList',
  'fault-burst': 'faultBurst',
  'variant-seed': 'variantSeed'
} as const satisfies Record<string, keyof Variant>

/** Variant settings given as a word on the command line. */
const VARIANT_WORDS = {
  'total-form': 'totalForm',
  'retry-after-form': 'retryAfter',
  'error-body': 'errorBody',
  'patch-requires': 'patchRequires',
  'take-above-max': 'takeAboveMax',
  'past-end': 'pastEnd'
} as const satisfies Record<string, keyof Variant>

const NUMBER_OPTIONS = [
  'port',
  'orders',
  'sell-requests',
  'seed',
  'latency',
  'jitter',
  'error-rate',
  'rate-limit-rate',
  'retry-after',
  'drop-rate',
  'malformed-rate',
  'unavailable-rate',
  'drop-after-handling-rate',
  'fault-seed'
] as const

function fail(message: string): never {
  process.stderr.write(`${message}\n\n${USAGE}\n`)
  process.exit(2)
}

async function main(): Promise<void> {
  let values: Record<string, string | boolean | undefined>
  try {
    values = parseArgs({
      options: {
        host: { type: 'string' },
        now: { type: 'string' },
        'api-key': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        'no-date-header': { type: 'boolean' },
        'unknown-fields': { type: 'boolean' },
        'ties-shuffled': { type: 'boolean' },
        'ties-by-page': { type: 'boolean' },
        ...Object.fromEntries(
          [...NUMBER_OPTIONS, ...Object.keys(VARIANT_NUMBERS), ...Object.keys(VARIANT_WORDS)].map((name) => [name, { type: 'string' as const }])
        )
      },
      strict: true,
      allowPositionals: false
    }).values
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error))
  }
  if (values['help']) {
    process.stdout.write(`${USAGE}\n`)
    return
  }

  const numbers: Partial<Record<(typeof NUMBER_OPTIONS)[number], number>> = {}
  for (const name of NUMBER_OPTIONS) {
    const text = values[name]
    if (typeof text !== 'string') continue
    const value = Number(text)
    if (text.trim() === '' || !Number.isFinite(value)) fail(`--${name} must be a number (got "${text}")`)
    numbers[name] = value
  }
  const nowText = values['now']
  // Run by hand, the data is of today: a seller trying the app sees today's orders as they would.
  const now = typeof nowText === 'string' ? new Date(nowText) : new Date()
  if (Number.isNaN(now.getTime())) fail(`--now must be an ISO 8601 instant (got "${String(nowText)}")`)

  const faults = {
    ...(numbers.latency !== undefined ? { latencyMs: numbers.latency } : {}),
    ...(numbers.jitter !== undefined ? { jitterMs: numbers.jitter } : {}),
    ...(numbers['error-rate'] !== undefined ? { errorRate: numbers['error-rate'] } : {}),
    ...(numbers['rate-limit-rate'] !== undefined ? { rateLimitRate: numbers['rate-limit-rate'] } : {}),
    ...(numbers['retry-after'] !== undefined ? { retryAfterSeconds: numbers['retry-after'] } : {}),
    ...(numbers['drop-rate'] !== undefined ? { dropRate: numbers['drop-rate'] } : {}),
    ...(numbers['malformed-rate'] !== undefined ? { malformedRate: numbers['malformed-rate'] } : {}),
    ...(numbers['unavailable-rate'] !== undefined ? { unavailableRate: numbers['unavailable-rate'] } : {}),
    ...(numbers['drop-after-handling-rate'] !== undefined ? { dropAfterHandlingRate: numbers['drop-after-handling-rate'] } : {}),
    ...(numbers['fault-seed'] !== undefined ? { faultSeed: numbers['fault-seed'] } : {})
  }

  const variant = variantOf(values)

  const host = values['host']
  const apiKey = values['api-key']
  let sandbox
  try {
    sandbox = await startSandbox({
      port: numbers.port ?? 4010,
      ...(typeof host === 'string' ? { host } : {}),
      ...(typeof apiKey === 'string' ? { apiKey } : {}),
      ...(numbers.seed !== undefined ? { seed: numbers.seed } : {}),
      ...(numbers.orders !== undefined ? { orders: numbers.orders } : {}),
      ...(numbers['sell-requests'] !== undefined ? { sellRequests: numbers['sell-requests'] } : {}),
      now,
      faults,
      variant
    })
  } catch (error) {
    fail(`Could not start the sandbox: ${error instanceof Error ? error.message : String(error)}`)
  }

  const { state } = sandbox
  const changed = Object.entries(variant).map(([key, value]) => `${key}=${String(value)}`)
  process.stdout.write(
    `Seller API sandbox listening at ${sandbox.baseUrl}\n` +
      `API key: ${sandbox.apiKey}\n` +
      `${state.orders.length} orders, ${state.sellRequests.length} sell requests (seed ${numbers.seed ?? DEFAULT_SEED}). Ctrl+C to stop.\n` +
      (changed.length > 0 ? `Variant: ${changed.join(', ')}\n` : '')
  )

  const stop = (): void => {
    void sandbox.close().then(() => process.exit(0))
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
}

/** The variant flags given, checked one by one so that a bad value is reported by its flag. */
function variantOf(values: Record<string, string | boolean | undefined>): Partial<Variant> {
  const given: [string, keyof Variant, unknown][] = []
  for (const [flag, key] of Object.entries(VARIANT_NUMBERS)) {
    const text = values[flag]
    if (typeof text !== 'string') continue
    const value = Number(text)
    if (text.trim() === '' || !Number.isFinite(value)) fail(`--${flag} must be a number (got "${text}")`)
    given.push([flag, key, value])
  }
  for (const [flag, key] of Object.entries(VARIANT_WORDS)) {
    const text = values[flag]
    if (typeof text === 'string') given.push([flag, key, text])
  }
  if (values['no-date-header']) given.push(['no-date-header', 'dateHeader', false])
  if (values['unknown-fields']) given.push(['unknown-fields', 'unknownFields', true])
  if (values['ties-shuffled']) given.push(['ties-shuffled', 'tiesShuffledPerRequest', true])
  if (values['ties-by-page']) given.push(['ties-by-page', 'tiesOrderedByPage', true])

  const variant: Partial<Record<keyof Variant, unknown>> = {}
  for (const [flag, key, value] of given) {
    try {
      checkedVariant({ [key]: value })
    } catch (error) {
      const problem = error instanceof Error ? error.message.slice(key.length).trim() : String(error)
      fail(`--${flag} ${problem}`)
    }
    if (value !== DEFAULT_VARIANT[key]) variant[key] = value
  }
  return variant as Partial<Variant>
}

void main()
