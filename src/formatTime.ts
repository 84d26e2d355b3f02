/**
 * Instants on screen: an ISO instant ("2026-11-19T13:03:22.123Z") → the seller's local date and time,
 * with the zone named so a time is never ambiguous ("Nov 19, 2026, 2:03 PM GMT+1").
 */
import { DATE_TIME_WORDS } from '@shared/dateTimeWords'

const dateTime = new Intl.DateTimeFormat(undefined, DATE_TIME_WORDS)

/** Text that is not a valid instant is shown as sent rather than hidden. */
export function formatTime(instant: string | null | undefined): string {
  if (!instant) return '—'
  const ms = Date.parse(instant)
  return Number.isNaN(ms) ? instant : dateTime.format(ms)
}

/**
 * In a column of times the zone is said once, in the header ("Date (your time, UTC)"), not on every row:
 * the rows use this (no zone), the header `localZoneName()`.
 */
const dateTimeInColumn = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' })

export function formatTimeInColumn(instant: string | null | undefined): string {
  if (!instant) return '—'
  const ms = Date.parse(instant)
  return Number.isNaN(ms) ? instant : dateTimeInColumn.format(ms)
}

const dateInColumn = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric' })
const clockInColumn = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' })

/**
 * For a narrow column of times: the date and the time apart ("Nov 19, 2026" and "2:03 PM"), each whole
 * on a line of its own; null for text that is not a valid instant (shown as sent, on one line).
 */
export function dateAndClockInColumn(instant: string | null | undefined): { date: string; clock: string } | null {
  const ms = instant ? Date.parse(instant) : Number.NaN
  return Number.isNaN(ms) ? null : { date: dateInColumn.format(ms), clock: clockInColumn.format(ms) }
}

/** The seller's zone as the times above name it ("UTC", "GMT+1", "EST"); now's, the same on almost every row. */
export function localZoneName(): string {
  return dateTime.formatToParts(Date.now()).find((part) => part.type === 'timeZoneName')?.value ?? ''
}
