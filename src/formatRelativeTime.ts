/**
 * How long ago something happened, to read after a verb ("Synced 3 minutes ago", "synced yesterday",
 * "synced on Nov 12, 2026"). Coarse on purpose: it is refreshed every half minute, not every second.
 */

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

export function formatRelativeTime(instant: string, nowMs: number, locale?: string): string {
  const ms = Date.parse(instant)
  if (Number.isNaN(ms)) return instant
  const ago = nowMs - ms
  // A clock a little ahead of ours is still "just now".
  if (ago < 45_000) return 'just now'
  const relative = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' })
  if (ago < 45 * MINUTE) return relative.format(-Math.max(1, Math.round(ago / MINUTE)), 'minute')
  if (ago < 22 * HOUR) return relative.format(-Math.max(1, Math.round(ago / HOUR)), 'hour')
  if (ago < 7 * DAY) return relative.format(-Math.max(1, Math.round(ago / DAY)), 'day')
  return `on ${new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }).format(ms)}`
}
