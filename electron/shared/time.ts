/**
 * Time at the API edge.
 *
 * - Sell request timestamps arrive as ISO 8601 UTC with milliseconds and `Z`.
 * - Order dates arrive as ISO 8601 with microseconds and NO zone. The spec does not say which zone;
 *   Seller Desk takes them as UTC here (instantFromZonelessUtc), unless the seller named the zone the
 *   marketplace writes them in (Settings → Order times): core/sellerApi/orderTime.ts then reads them in it.
 *
 * Inside the app every instant is an ISO string with `Z` (millisecond precision).
 */

const ZONELESS = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?$/
/** The shape of an ISO 8601 timestamp with a zone (`Z` or an offset); the wire format checks with it too. */
export const ZONED = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/
/** A date, optionally with a time, optionally with a zone: how tolerant the order date check is. */
export const ZONELESS_OR_ZONED = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/

const digitAt = (text: string, i: number) => {
  const c = text.charCodeAt(i)
  return c >= 48 && c <= 57
}
const twoDigitsAt = (text: string, i: number) => (text.charCodeAt(i) - 48) * 10 + text.charCodeAt(i + 1) - 48
const DATE_TIME_DIGITS = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18]
const DATE_TIME_SEPARATORS: readonly (readonly [number, string])[] = [
  [4, '-'],
  [7, '-'],
  [10, 'T'],
  [13, ':'],
  [16, ':']
]

/**
 * `text` starts "YYYY-MM-DDTHH:MM:SS." with every field in range (years from 1000 to 9999) and goes on with
 * 3 to 9 digits up to `end`: the form the marketplace sends, checked by hand (a sync reads tens of
 * thousands). False sends the text the long way (instantFromZonedAnyForm, instantFromZonelessUtcAnyForm),
 * which reads the same texts the same way and every other form too.
 */
function usualForm(text: string, end: number): boolean {
  if (end - 20 < 3 || end - 20 > 9 || text.charAt(19) !== '.') return false
  for (const i of DATE_TIME_DIGITS) if (!digitAt(text, i)) return false
  for (let i = 20; i < end; i++) if (!digitAt(text, i)) return false
  for (const [i, separator] of DATE_TIME_SEPARATORS) if (text.charAt(i) !== separator) return false
  const year = twoDigitsAt(text, 0) * 100 + twoDigitsAt(text, 2)
  const month = twoDigitsAt(text, 5)
  const day = twoDigitsAt(text, 8)
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
  const days = month === 2 ? (leap ? 29 : 28) : month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31
  return (
    year >= 1000 &&
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= days &&
    twoDigitsAt(text, 11) <= 23 &&
    twoDigitsAt(text, 14) <= 59 &&
    twoDigitsAt(text, 17) <= 59
  )
}

/** "2026-11-19T14:03:22.123456" → "2026-11-19T14:03:22.123Z" (taken as UTC). Null when not a valid zone-less timestamp. */
export function instantFromZonelessUtc(text: string): string | null {
  return usualForm(text, text.length) ? `${text.slice(0, 23)}Z` : instantFromZonelessUtcAnyForm(text)
}

/** instantFromZonelessUtc for every form it takes (the usual one included). */
export function instantFromZonelessUtcAnyForm(text: string): string | null {
  const m = ZONELESS.exec(text.trim())
  if (!m) return null
  const [, y, mo, d, h = '00', mi = '00', s = '00', frac = ''] = m
  const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), Number(frac.padEnd(3, '0').slice(0, 3)))
  const date = new Date(ms)
  // Reject rollovers such as 2026-02-31.
  if (Number.isNaN(ms) || date.getUTCDate() !== Number(d) || date.getUTCMonth() !== Number(mo) - 1) return null
  return date.toISOString()
}

const CANONICAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

/** "2026-11-19T14:03:22.123Z" → the same instant normalised; null when it has no zone or is invalid. */
export function instantFromZoned(text: string): string | null {
  return text.length === 24 && text.charAt(23) === 'Z' && usualForm(text, 23) ? text : instantFromZonedAnyForm(text)
}

/** instantFromZoned for every form it takes (the usual one included). */
export function instantFromZonedAnyForm(text: string): string | null {
  // The spec's own form: valid exactly when it survives a round trip (no 2026-02-31).
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

const QUARTERS = ['', '¼', '½', '¾']

/**
 * How far a clock is ahead of UTC (ms, rounded to the quarter hour), in words that follow "its clock":
 * "about 5½ h ahead of UTC", "about 5 h behind UTC", "on UTC". Said of the marketplace's clock for order
 * times, by the core and Settings.
 */
export function clockOffsetWords(offsetMs: number): string {
  const quarters = Math.round(Math.abs(offsetMs) / 900_000)
  if (quarters === 0) return 'on UTC'
  const hours = Math.floor(quarters / 4)
  return `about ${hours === 0 ? '' : hours}${QUARTERS[quarters % 4]} h ${offsetMs > 0 ? 'ahead of' : 'behind'} UTC`
}
