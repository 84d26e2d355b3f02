/**
 * The marketplace's order times, which the spec gives no zone (`orderDate` as it writes them, `fromDate`
 * / `toDate` as it reads them): the wall clock of the zone the seller named for the marketplace
 * (Settings → Order times; null: UTC, as time.ts takes them). This is the one place that says which
 * instant such a time names and which such time names an instant; wire.ts, client.ts and the snapshot's
 * order table read and write them through it.
 */
import { instantFromZoned, instantFromZonelessUtc, zonelessUtcFromInstant } from '../../shared/time'
import { instantOfWallClock, wallClockOfInstant } from '../localCalendar'

/**
 * An order time as the marketplace writes it ("2026-11-19T14:03:22.123456") → the instant it names in
 * `zone` ("2026-11-19T08:33:22.123Z" in Asia/Kolkata). A time with a zone, if a server sends one, is
 * taken at its own. Null when it is not a real date and time.
 */
export function instantOfOrderTime(text: string, zone: string | null): string | null {
  const wall = instantFromZonelessUtc(text)
  if (wall === null) return instantFromZoned(text)
  return zone === null ? wall : new Date(instantOfWallClock(Date.parse(wall), zone)).toISOString()
}

/** An instant (ms) → the marketplace's wall clock then, as the instant its fields would name in UTC (ms). */
export const orderWallClockOf = (ms: number, zone: string | null): number => (zone === null ? ms : wallClockOfInstant(ms, zone))

/** An instant → the zone-less order time `fromDate` / `toDate` take ("2026-11-19T14:03:22.123"), on the marketplace's wall clock. */
export const orderTimeOf = (instant: string, zone: string | null): string =>
  zonelessUtcFromInstant(zone === null ? instant : new Date(orderWallClockOf(Date.parse(instant), zone)))
