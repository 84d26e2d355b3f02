/**
 * Time at the API edge.
 *
 * - Sell request timestamps arrive as ISO 8601 UTC with milliseconds and `Z`.
 * - Order dates arrive as ISO 8601 with microseconds and NO zone. The spec does not say which zone;
 *   Seller Desk takes them as UTC. This is the one place that decision lives (instantFromZonelessUtc).
 *
 * Inside the app every instant is an ISO string with `Z` (millisecond precision).
 */

const ZONELESS = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?$/
/** The shape of an ISO 8601 timestamp with a zone (`Z` or an offset); the wire format checks with it too. */
export const ZONED = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/
/** A date, optionally with a time, optionally with a zone: how tolerant the order date check is. */
export const ZONELESS_OR_ZONED = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/

/** "2026-11-19T14:03:22.123456" → "2026-11-19T14:03:22.123Z" (taken as UTC). Null when not a valid zone-less timestamp. */
export function instantFromZonelessUtc(text: string): string | null {
  const m = ZONELESS.exec(text.trim())
  if (!m) return null
  const [, y, mo, d, h = '00', mi = '00', s = '00', frac = ''] = m
  const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), Number(frac.padEnd(3, '0').slice(0, 3)))
  const date = new Date(ms)
  // Reject rollovers such as 2026-02-31.
  if (Number.isNaN(ms) || date.getUTCDate() !== Number(d) || date.getUTCMonth() !== Number(mo) - 1) return null
  return date.toISOString()
}

/** "2026-11-19T14:03:22.123Z" → the same instant normalised; null when it has no zone or is invalid. */
const CANONICAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

export function instantFromZoned(text: string): string | null {
  // The usual case, the spec's own form: valid exactly when it survives a round trip (no 2026-02-31).
  if (CANONICAL.test(text)) {
    const ms = Date.parse(text)
    return !Number.isNaN(ms) && new Date(ms).toISOString() === text ? text : null
  }
  if (!ZONED.test(text.trim())) return null
  const [y, mo, d] = text.trim().slice(0, 10).split('-').map(Number) as [number, number, number]
  if (new Date(Date.UTC(y, mo - 1, d)).getUTCDate() !== d) return null // no 2026-02-31
  const ms = Date.parse(text)
  return Number.isNaN(ms) ? null : new Date(ms).toISOString()
}

/** An instant → the zone-less UTC form the API's `fromDate` / `toDate` expect ("2026-11-19T14:03:22.123"). */
export function zonelessUtcFromInstant(instant: string | Date): string {
  const date = typeof instant === 'string' ? new Date(instant) : instant
  return date.toISOString().replace(/Z$/, '')
}
