/**
 * Reading order times in the marketplace's own zone (Settings → Order times) against reading them as UTC:
 * `npx tsx bench/orderTimes.bench.ts`. 50,000 zone-less order times ten minutes apart across a year
 * (BENCH_ORDER_TIMES), read with instantOfOrderTime in UTC (the floor: parsing and writing the time alone),
 * America/New_York (offsets that change twice a year) and Asia/Kolkata; CPU time of each pass, median of
 * 3 runs after one warm-up run. A sync, a list and a zone change read every stored order's time so.
 */
import { instantOfOrderTime } from '../electron/core/sellerApi/orderTime'
import { ms, percentile, report } from './stats'

const COUNT = Number(process.env['BENCH_ORDER_TIMES'] ?? 50_000)
const RUNS = 3
const start = Date.parse('2026-01-01T00:00:00Z')
const times = Array.from({ length: COUNT }, (_, i) => new Date(start + i * 600_000 + 123).toISOString().slice(0, -1) + '456')

function cpuMs(zone: string | null): number {
  const before = process.cpuUsage()
  for (const time of times) if (instantOfOrderTime(time, zone) === null) throw new Error(`${time} not read`)
  const used = process.cpuUsage(before)
  return (used.user + used.system) / 1000
}

const zones = [null, 'America/New_York', 'Asia/Kolkata'] as const
const medians = new Map<string | null, number>()
for (const zone of zones) {
  cpuMs(zone)
  medians.set(
    zone,
    percentile(
      Array.from({ length: RUNS }, () => cpuMs(zone)),
      50
    )
  )
}
const floor = medians.get(null)!
console.log(`\n${COUNT.toLocaleString('en-US')} order times read, CPU, median of ${RUNS} runs\n`)
report(zones.map((zone) => [zone ?? 'UTC (floor)', ms(medians.get(zone)!), zone === null ? '' : `${(medians.get(zone)! / floor).toFixed(2)}× the floor`]))
