/**
 * A demo marketplace in its own process for benchmarks (so the app side and the server do not share a
 * core). Prints `{"baseUrl","apiKey"}` on its first line, then takes commands on stdin, one per line:
 * `touch N` (N orders updated now), `add N` (N new orders), `latency MS`, `variant JSON` (e.g.
 * `variant {"maxTake":50}`, see electron/sandbox/variant.ts); answers `ok` to each.
 * argv: <orders> <sell requests> [latency ms]
 */
import { createInterface } from 'node:readline'
import { startSandbox } from '../electron/sandbox'

const [orders = '20000', sellRequests = '20000', latency = '0'] = process.argv.slice(2)
const sandbox = await startSandbox({
  apiKey: 'bench-key',
  orders: Number(orders),
  sellRequests: Number(sellRequests),
  now: new Date(),
  faults: { latencyMs: Number(latency) }
})
process.stdout.write(`${JSON.stringify({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey })}\n`)
for await (const line of createInterface({ input: process.stdin })) {
  const [command, value = '0'] = line.trim().split(/\s+/)
  if (command === 'touch') sandbox.touchOrders(Number(value))
  else if (command === 'add') sandbox.addOrders(Number(value))
  else if (command === 'latency') sandbox.setFaults({ latencyMs: Number(value) })
  else if (command === 'variant') sandbox.setVariant(JSON.parse(line.trim().slice('variant'.length)) as Parameters<typeof sandbox.setVariant>[0])
  process.stdout.write('ok\n')
}
await sandbox.close()
