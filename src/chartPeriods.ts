/**
 * The dashboard chart's points: one per day for up to four months, then one per week (7 days, the last
 * one ending today), then one per calendar month. A long synced window stays readable, and the chart
 * draws a few hundred points at most instead of one per day of years (too many to draw at once without
 * a visible pause).
 */
import type { Dashboard } from '@shared/contract'

type Day = Dashboard['days'][number]

export interface ChartPeriod extends Day {
  /** `date` is the first day; this is the last. */
  lastDate: string
  unit: 'day' | 'week' | 'month'
}

export const MAX_DAILY_POINTS = 120
export const MAX_WEEKLY_POINTS = 120

function merge(days: Day[], unit: ChartPeriod['unit']): ChartPeriod {
  const first = days[0]!
  const last = days[days.length - 1]!
  return {
    date: first.date,
    lastDate: last.date,
    fromDate: first.fromDate,
    toDate: last.toDate,
    orders: days.reduce((sum, day) => sum + day.orders, 0),
    revenueCents: days.reduce((sum, day) => sum + day.revenueCents, 0),
    unit
  }
}

/** What one point of the chart is for this many days. */
export function chartUnit(dayCount: number): ChartPeriod['unit'] {
  return dayCount <= MAX_DAILY_POINTS ? 'day' : dayCount <= MAX_WEEKLY_POINTS * 7 ? 'week' : 'month'
}

export function chartPeriods(days: Day[]): ChartPeriod[] {
  const unit = chartUnit(days.length)
  if (unit === 'day') return days.map((day) => merge([day], 'day'))
  const groups: Day[][] = []
  if (unit === 'week') {
    // Weeks counted back from the last day, so the newest point is a whole week ending today.
    for (let end = days.length; end > 0; end -= 7) groups.unshift(days.slice(Math.max(0, end - 7), end))
    return groups.map((group) => merge(group, 'week'))
  }
  for (const day of days) {
    const current = groups[groups.length - 1]
    if (current && current[0]!.date.slice(0, 7) === day.date.slice(0, 7)) current.push(day)
    else groups.push([day])
  }
  return groups.map((group) => merge(group, 'month'))
}
