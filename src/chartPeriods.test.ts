import { describe, expect, it } from 'vitest'
import { chartPeriods, chartUnit, MAX_DAILY_POINTS, MAX_WEEKLY_POINTS } from './chartPeriods'

/** `n` consecutive days ending 2026-11-21, each with `i + 1` orders and (i + 1) × $1. */
function days(n: number) {
  const end = Date.parse('2026-11-21T00:00:00Z')
  return Array.from({ length: n }, (_, i) => {
    const start = end - (n - 1 - i) * 86_400_000
    const date = new Date(start).toISOString().slice(0, 10)
    return { date, fromDate: new Date(start).toISOString(), toDate: new Date(start + 86_399_999).toISOString(), orders: i + 1, revenueCents: (i + 1) * 100 }
  })
}
const total = (list: { orders: number; revenueCents: number }[]) => [list.reduce((s, d) => s + d.orders, 0), list.reduce((s, d) => s + d.revenueCents, 0)]

describe('chartPeriods', () => {
  it('keeps one point per day up to four months', () => {
    const input = days(MAX_DAILY_POINTS)
    const periods = chartPeriods(input)
    expect(periods).toHaveLength(MAX_DAILY_POINTS)
    expect(periods[5]).toMatchObject({ ...input[5], lastDate: input[5]!.date, unit: 'day' })
  })

  it('sums whole weeks ending today beyond that, covering every day exactly once', () => {
    const input = days(365)
    const periods = chartPeriods(input)
    expect(periods).toHaveLength(53)
    expect(periods.every((p) => p.unit === 'week')).toBe(true)
    expect(periods.at(-1)).toMatchObject({ date: '2026-11-15', lastDate: '2026-11-21', toDate: input.at(-1)!.toDate })
    expect(periods[0]).toMatchObject({ date: input[0]!.date, lastDate: input[0]!.date, fromDate: input[0]!.fromDate }) // the one odd day
    expect(total(periods)).toEqual(total(input))
    for (let i = 1; i < periods.length; i++) expect(Date.parse(periods[i]!.fromDate)).toBe(Date.parse(periods[i - 1]!.toDate) + 1)
  })

  it('sums calendar months for windows of years', () => {
    const input = days(3650)
    const periods = chartPeriods(input)
    expect(periods.every((p) => p.unit === 'month' && p.date.slice(0, 7) === p.lastDate.slice(0, 7))).toBe(true)
    expect(periods.at(-1)).toMatchObject({ date: '2026-11-01', lastDate: '2026-11-21' })
    expect(periods.length).toBeLessThanOrEqual(122)
    expect(total(periods)).toEqual(total(input))
  })
})

describe('chartUnit', () => {
  it('is what one point of chartPeriods is, so the chart says "per week" when its points are weeks', () => {
    for (const count of [1, MAX_DAILY_POINTS, MAX_DAILY_POINTS + 1, MAX_WEEKLY_POINTS * 7, MAX_WEEKLY_POINTS * 7 + 1]) {
      expect(chartUnit(count), String(count)).toBe(chartPeriods(days(count))[0]!.unit)
    }
    expect(chartUnit(401)).toBe('week')
  })
})
