/**
 * Runs the demo marketplace on its own:
 *
 *   npm run sandbox -- --port 4010 --orders 300 --sell-requests 250 --seed 1 --api-key <key>
 *                      --latency 0 --jitter 0 --error-rate 0 --rate-limit-rate 0 --retry-after 1
 *                      --drop-rate 0 --malformed-rate 0 --fault-seed 0 --host 127.0.0.1 --now <ISO instant>
 *
 * Prints the base URL and the (demo) API key; stops on SIGINT / SIGTERM.
 */
import { parseArgs } from 'node:util'
import { DEFAULT_ORDERS, DEFAULT_SEED, DEFAULT_SELL_REQUESTS, DEMO_API_KEY, startSandbox } from './server'
import { DEFAULT_NOW } from './seed'

const USAGE = `Usage: npm run sandbox -- [options]
  --host <host>               default 127.0.0.1
  --port <n>                  default 4010 (0 = any free port)
  --orders <n>                default ${DEFAULT_ORDERS}
  --sell-requests <n>         default ${DEFAULT_SELL_REQUESTS}
  --seed <n>                  default ${DEFAULT_SEED}
  --now <ISO instant>         the data's "now", default ${DEFAULT_NOW.toISOString()}
  --api-key <key>             default ${DEMO_API_KEY}
  --latency <ms>  --jitter <ms>
  --error-rate <0..1>  --rate-limit-rate <0..1>  --retry-after <s>
  --drop-rate <0..1>  --malformed-rate <0..1>  --fault-seed <n>`

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
        ...Object.fromEntries(NUMBER_OPTIONS.map((name) => [name, { type: 'string' as const }]))
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
  const now = typeof nowText === 'string' ? new Date(nowText) : undefined
  if (now && Number.isNaN(now.getTime())) fail(`--now must be an ISO 8601 instant (got "${String(nowText)}")`)

  const faults = {
    ...(numbers.latency !== undefined ? { latencyMs: numbers.latency } : {}),
    ...(numbers.jitter !== undefined ? { jitterMs: numbers.jitter } : {}),
    ...(numbers['error-rate'] !== undefined ? { errorRate: numbers['error-rate'] } : {}),
    ...(numbers['rate-limit-rate'] !== undefined ? { rateLimitRate: numbers['rate-limit-rate'] } : {}),
    ...(numbers['retry-after'] !== undefined ? { retryAfterSeconds: numbers['retry-after'] } : {}),
    ...(numbers['drop-rate'] !== undefined ? { dropRate: numbers['drop-rate'] } : {}),
    ...(numbers['malformed-rate'] !== undefined ? { malformedRate: numbers['malformed-rate'] } : {}),
    ...(numbers['fault-seed'] !== undefined ? { faultSeed: numbers['fault-seed'] } : {})
  }

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
      ...(now ? { now } : {}),
      faults
    })
  } catch (error) {
    fail(`Could not start the sandbox: ${error instanceof Error ? error.message : String(error)}`)
  }

  const { state } = sandbox
  process.stdout.write(
    `Seller API sandbox listening at ${sandbox.baseUrl}\n` +
      `API key: ${sandbox.apiKey}\n` +
      `${state.orders.length} orders, ${state.sellRequests.length} sell requests (seed ${numbers.seed ?? DEFAULT_SEED}). Ctrl+C to stop.\n`
  )

  const stop = (): void => {
    void sandbox.close().then(() => process.exit(0))
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
}

void main()
