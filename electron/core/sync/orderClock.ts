/**
 * What new orders tell of the clock the marketplace writes its zone-less order times by. An order new to
 * the snapshot, created after `createdAfterMs` and listed by an answer whose Date header says
 * `cursorMs`, was placed between the two, by UTC: its time as written, against that stretch, says whether
 * the times are read right (in UTC, or in the zone the seller named) and how far the marketplace's wall
 * clock runs ahead of UTC.
 */
import { orderWallClockOf } from '../sellerApi/orderTime'

const HALF_HOUR_MS = 1_800_000
/** Every zone's offset from UTC is a whole number of quarter hours. */
const QUARTER_HOUR_MS = 900_000
/**
 * The widest stretch of offsets the new orders may leave for an estimate to be given: two hours (the
 * stretch between two syncs, a few minutes when the app runs) keeps "about" honest; after a day away,
 * the new orders could have been placed at any hour of it and say nothing of the offset.
 */
const WIDEST_ESTIMATE_MS = 2 * 3_600_000

export interface OrderClockReading {
  /**
   * The times are read right (a new order dated within the stretch, and less than half an hour from its
   * ends: no zone is nearer UTC than that but UTC itself), read wrong (one dated half an hour or more
   * outside it), or not told (null).
   */
  readRight: boolean | null
  /**
   * Read wrong: how far the marketplace's wall clock is ahead of UTC (ms, a whole number of quarter
   * hours; negative behind), where the orders pin it, or the offset known before where they are too
   * spread to pin one but allow it; else null (the offset known before, if any, is no longer told).
   */
  clockOffsetMs: number | null
}

/**
 * `placedMs`: the new orders' times as read, in `zone` (the zone the seller named; null: UTC). An
 * order's time as written is its wall clock in that zone. `knownOffsetMs`: the offset earlier new
 * orders told (null: none).
 */
export function readOrderClock(
  placedMs: Iterable<number>,
  zone: string | null,
  createdAfterMs: number,
  cursorMs: number,
  knownOffsetMs: number | null = null
): OrderClockReading {
  let readRight: boolean | null = null
  let earliestWallMs = Number.POSITIVE_INFINITY
  let latestWallMs = Number.NEGATIVE_INFINITY
  for (const placed of placedMs) {
    if (Number.isNaN(placed)) continue
    const wallMs = orderWallClockOf(placed, zone)
    earliestWallMs = Math.min(earliestWallMs, wallMs)
    latestWallMs = Math.max(latestWallMs, wallMs)
    if (readRight === false) continue
    if (placed >= cursorMs + HALF_HOUR_MS || placed <= createdAfterMs - HALF_HOUR_MS) readRight = false
    else if (placed > cursorMs - HALF_HOUR_MS && placed < createdAfterMs + HALF_HOUR_MS) readRight = true
  }
  if (readRight !== false) return { readRight, clockOffsetMs: null }
  // Each order's wall clock less its true time, which lies in [createdAfterMs, cursorMs]: the offsets
  // every new order allows.
  const fewestMs = latestWallMs - cursorMs
  const mostMs = earliestWallMs - createdAfterMs
  if (mostMs < fewestMs) return { readRight, clockOffsetMs: null }
  if (mostMs - fewestMs > WIDEST_ESTIMATE_MS) {
    // Too spread to estimate from, yet enough to tell an offset known before is still possible or is not.
    const agrees = knownOffsetMs !== null && knownOffsetMs >= fewestMs && knownOffsetMs <= mostMs
    return { readRight, clockOffsetMs: agrees ? knownOffsetMs : null }
  }
  // (+ 0: an offset of none is 0, never -0.)
  return { readRight, clockOffsetMs: Math.round((fewestMs + mostMs) / 2 / QUARTER_HOUR_MS) * QUARTER_HOUR_MS + 0 }
}
