/**
 * Calendars and wall clocks in a time zone (an IANA name, e.g. "Europe/Berlin"): the seller's own, which
 * the renderer sends (which local date an instant falls on, the instant a local date starts), and the
 * marketplace's, where the seller named the zone it writes order times in (the instant a wall-clock time
 * names). Days are taken from the zone's rules, so a day across a daylight-saving change is 23 or 25
 * hours long, as it is for the seller.
 */

const partsFormatters = new Map<string, Intl.DateTimeFormat>()

/** Null when the zone is not one this runtime knows. */
function formatterFor(timeZone: string): Intl.DateTimeFormat | null {
  let formatter = partsFormatters.get(timeZone)
  if (!formatter) {
    try {
      formatter = new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit'
      })
    } catch {
      return null
    }
    partsFormatters.set(timeZone, formatter)
  }
  return formatter
}

export function isKnownTimeZone(timeZone: string): boolean {
  return formatterFor(timeZone) !== null
}

function wallClock(ms: number, timeZone: string): { year: number; month: number; day: number; hour: number; minute: number; second: number } {
  const formatter = formatterFor(timeZone)
  if (!formatter) throw new RangeError(`Unknown time zone: ${timeZone}`)
  const parts: Record<string, number> = {}
  for (const part of formatter.formatToParts(ms)) if (part.type !== 'literal') parts[part.type] = Number(part.value)
  return { year: parts['year']!, month: parts['month']!, day: parts['day']!, hour: parts['hour']! % 24, minute: parts['minute']!, second: parts['second']! }
}

/** How far the zone's wall clock is ahead of UTC at an instant (ms; negative west of Greenwich). */
export function zoneOffsetMs(ms: number, timeZone: string): number {
  const c = wallClock(ms, timeZone)
  return Date.UTC(c.year, c.month - 1, c.day, c.hour, c.minute, c.second) - (ms - (((ms % 1000) + 1000) % 1000))
}

/**
 * The instant a wall-clock time in the zone names, the wall clock given as the instant its fields would
 * name in UTC. A time a clock change repeats is taken at its first occurrence; one it skips (02:30 as
 * clocks go from 02:00 to 03:00) is read at the offset before the change, as the clock would have shown
 * it (03:30 after the change).
 */
export function instantOfWallClock(wallMs: number, timeZone: string): number {
  // No zone changes its offset twice within two days: the offsets a day either side are the candidates.
  const offsetBefore = offsetAt(wallMs - DAY_MS, timeZone)
  const offsetAfter = offsetAt(wallMs + DAY_MS, timeZone)
  // Nearly always: no change of offset within a day either side, so the one offset is the time's.
  if (offsetBefore === offsetAfter) return wallMs - offsetBefore
  const before = wallMs - offsetBefore
  const after = wallMs - offsetAfter
  const beforeShows = wallClockOfInstant(before, timeZone) === wallMs
  const afterShows = wallClockOfInstant(after, timeZone) === wallMs
  if (beforeShows && afterShows) return Math.min(before, after)
  return afterShows ? after : before
}

/** The zone's wall clock at an instant, as the instant its fields would name in UTC (instantOfWallClock's reverse). */
export const wallClockOfInstant = (ms: number, timeZone: string): number => ms + offsetAt(ms, timeZone)

/** Offsets are looked up in stretches of this length (about a year), each read from the zone's rules once. */
const STRETCH_MS = 2 ** 35
/** A zone's offsets over one stretch (offsetSpans), by zone and stretch; a few hundred at most. */
const stretches = new Map<string, OffsetSpan[]>()
const STRETCHES_KEPT = 2_000
let lastStretch: { timeZone: string; stretch: number; spans: OffsetSpan[] } | null = null

/**
 * zoneOffsetMs, from the zone's offsets over the stretch around `ms`, found once: a sync or a list reads
 * thousands of order times in the marketplace's zone, and each zoneOffsetMs asks Intl to format a date.
 */
function offsetAt(ms: number, timeZone: string): number {
  const stretch = Math.floor(ms / STRETCH_MS)
  let spans: OffsetSpan[] | undefined
  // The stretch asked last is nearly always asked again (a page of orders placed days apart).
  if (lastStretch !== null && lastStretch.stretch === stretch && lastStretch.timeZone === timeZone) spans = lastStretch.spans
  else {
    const key = `${timeZone} ${stretch}`
    spans = stretches.get(key)
    if (!spans) {
      if (stretches.size >= STRETCHES_KEPT) stretches.clear()
      spans = offsetSpans(stretch * STRETCH_MS, (stretch + 1) * STRETCH_MS, timeZone)
      stretches.set(key, spans)
    }
    lastStretch = { timeZone, stretch, spans }
  }
  for (const span of spans) if (ms < span.endMs) return span.offsetMs
  return spans[spans.length - 1]!.offsetMs
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0')

/** The local date ("2026-11-19") an instant falls on. */
export function localDateOf(ms: number, timeZone: string): string {
  const c = wallClock(ms, timeZone)
  return `${pad(c.year, 4)}-${pad(c.month)}-${pad(c.day)}`
}

/** The local date `days` after (or before) another: plain calendar arithmetic. */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number]
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10)
}

/** The first instant of a local date (where midnight is skipped by a clock change: the first instant that exists). */
export function startOfLocalDate(date: string, timeZone: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number]
  const wallMidnight = Date.UTC(y, m - 1, d)
  const guess = wallMidnight - zoneOffsetMs(wallMidnight, timeZone)
  let start = wallMidnight - zoneOffsetMs(guess, timeZone)
  // Clocks jumped over midnight: step forward to the first instant on this date.
  for (let hop = 0; hop < 4 && localDateOf(start, timeZone) < date; hop++) start += 30 * 60 * 1000
  return start
}

export interface LocalDay {
  /** "2026-11-19" */
  date: string
  /** First instant of the day (ms). */
  startMs: number
  /** First instant of the next day (ms): the day is [startMs, endMs). */
  endMs: number
}

/** A stretch of time over which the zone's offset from UTC does not change: [startMs, endMs). */
export interface OffsetSpan {
  startMs: number
  endMs: number
  offsetMs: number
}

const DAY_MS = 86_400_000
/** Offsets are sampled this far apart; clock changes are found between samples by bisection. */
const SAMPLE_MS = 7 * DAY_MS

/**
 * The zone's offsets over [fromMs, toMs): a handful of spans, split at each clock change. Clocks change
 * at most a few times a year, so sampling weekly and bisecting where the offset differs finds every
 * change to the minute at a cost of a few hundred lookups for ten years.
 */
export function offsetSpans(fromMs: number, toMs: number, timeZone: string): OffsetSpan[] {
  const spans: OffsetSpan[] = []
  let spanStart = fromMs
  let offset = zoneOffsetMs(fromMs, timeZone)
  for (let at = fromMs; at < toMs;) {
    const next = Math.min(at + SAMPLE_MS, toMs)
    const nextOffset = zoneOffsetMs(next, timeZone)
    if (nextOffset !== offset) {
      // The change lies in (at, next]: narrow it to the minute.
      let before = at
      let after = next
      while (after - before > 60_000) {
        const middle = before + Math.floor((after - before) / 2)
        if (zoneOffsetMs(middle, timeZone) === offset) before = middle
        else after = middle
      }
      const change = after - (after % 60_000)
      spans.push({ startMs: spanStart, endMs: change, offsetMs: offset })
      spanStart = change
      offset = zoneOffsetMs(change, timeZone)
    }
    at = next
  }
  spans.push({ startMs: spanStart, endMs: toMs, offsetMs: offset })
  return spans.filter((span) => span.endMs > span.startMs)
}

/** The local date number (days since 1970-01-01 on the local calendar) → "2026-11-19". */
export const dateOfDayNumber = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10)

/** The first instant of a local date, given the spans around it (where midnight is skipped: the clock change). */
function dayStartIn(wallMidnightMs: number, spans: OffsetSpan[]): number {
  for (const span of spans) {
    const at = wallMidnightMs - span.offsetMs
    if (at < span.startMs) return span.startMs // midnight fell in the gap before this span
    if (at < span.endMs) return at
  }
  return wallMidnightMs - spans[spans.length - 1]!.offsetMs
}

/** Every local day from the one holding `fromMs` to the one holding `toMs`, in order. */
export function localDaysBetween(fromMs: number, toMs: number, timeZone: string): LocalDay[] {
  const first = localDateOf(fromMs, timeZone)
  const last = localDateOf(toMs, timeZone)
  const spans = offsetSpans(startOfLocalDate(first, timeZone), startOfLocalDate(addDays(last, 1), timeZone) + 1, timeZone)
  const firstDay = Date.parse(`${first}T00:00:00Z`) / DAY_MS
  const lastDay = Date.parse(`${last}T00:00:00Z`) / DAY_MS
  const days: LocalDay[] = []
  let startMs = dayStartIn(firstDay * DAY_MS, spans)
  for (let day = firstDay; day <= lastDay; day++) {
    const endMs = dayStartIn((day + 1) * DAY_MS, spans)
    days.push({ date: dateOfDayNumber(day), startMs, endMs })
    startMs = endMs
  }
  return days
}

/**
 * An instant as local ISO 8601 with its offset: "2026-11-19T14:03:22+01:00". From the zone's offsets
 * found once per stretch (offsetAt), not Intl's formatting of each date: an export writes thousands of
 * order times.
 */
export function localIsoWithOffset(ms: number, timeZone: string): string {
  const offsetMs = offsetAt(ms, timeZone)
  const wall = new Date(ms + offsetMs).toISOString().slice(0, 19)
  const offsetMinutes = Math.round(offsetMs / 60_000)
  const sign = offsetMinutes < 0 ? '-' : '+'
  const abs = Math.abs(offsetMinutes)
  return `${wall}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`
}
