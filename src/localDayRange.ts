/**
 * A range of whole days on the seller's calendar (local time) as the two instants the marketplace
 * filters by: the start of the first day and the last millisecond of the last day.
 */

export interface InstantRange {
  fromDate: string
  toDate: string
}

function startOfLocalDay(ms: number): Date {
  const d = new Date(ms)
  d.setHours(0, 0, 0, 0)
  return d
}

function endOfLocalDay(ms: number): Date {
  const d = new Date(ms)
  d.setHours(23, 59, 59, 999)
  return d
}

/** Any times within the first and last day → ISO instants covering those days entirely. */
export function instantsOfLocalDays(firstDay: number, lastDay: number): InstantRange {
  return { fromDate: startOfLocalDay(firstDay).toISOString(), toDate: endOfLocalDay(lastDay).toISOString() }
}

/** The last `days` calendar days including today, as [start of first day, now] (calendar arithmetic: DST-safe). */
export function lastLocalDays(days: number, now: Date = new Date()): [number, number] {
  const first = new Date(now.getTime())
  first.setDate(first.getDate() - (days - 1))
  return [startOfLocalDay(first.getTime()).getTime(), now.getTime()]
}

/** From the first of this month to now. */
export function thisLocalMonth(now: Date = new Date()): [number, number] {
  return [new Date(now.getFullYear(), now.getMonth(), 1).getTime(), now.getTime()]
}

/**
 * The months a range calendar opens on when no range is in force: last month and this one, where every
 * day can be picked (this month and the next would show a month of days to come, none of them offered).
 */
export function monthsToPickFrom(now: Date = new Date()): [number, number] {
  return [new Date(now.getFullYear(), now.getMonth() - 1, 1).getTime(), new Date(now.getFullYear(), now.getMonth(), 1).getTime()]
}

/** A day after today on the seller's calendar: no order is placed on it yet, so the calendar does not offer it. */
export function isAfterToday(day: number, now: Date = new Date()): boolean {
  return day > endOfLocalDay(now.getTime()).getTime()
}
