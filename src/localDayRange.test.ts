import { describe, expect, it } from 'vitest'
import { instantsOfLocalDays, isAfterToday, lastLocalDays, monthsToPickFrom, thisLocalMonth } from './localDayRange'

describe('local day ranges', () => {
  it('covers the first day from midnight and the last day to its last millisecond, local time', () => {
    const first = new Date(2026, 10, 14, 15, 30).getTime()
    const last = new Date(2026, 10, 20, 0, 0).getTime()
    const { fromDate, toDate } = instantsOfLocalDays(first, last)
    expect(new Date(fromDate).getTime()).toBe(new Date(2026, 10, 14, 0, 0, 0, 0).getTime())
    expect(new Date(toDate).getTime()).toBe(new Date(2026, 10, 20, 23, 59, 59, 999).getTime())
    expect(fromDate).toMatch(/Z$/)
    expect(toDate).toMatch(/Z$/)
  })

  it('last 7 days starts at midnight six calendar days ago and ends now', () => {
    const now = new Date(2026, 10, 20, 9, 41)
    const [start, end] = lastLocalDays(7, now)
    expect(start).toBe(new Date(2026, 10, 14).getTime())
    expect(end).toBe(now.getTime())
    expect(lastLocalDays(1, now)[0]).toBe(new Date(2026, 10, 20).getTime())
  })

  it('a calendar with no range opens on last month and this one, across a new year too', () => {
    expect(monthsToPickFrom(new Date(2026, 11, 2, 16))).toEqual([new Date(2026, 10, 1).getTime(), new Date(2026, 11, 1).getTime()])
    expect(monthsToPickFrom(new Date(2027, 0, 31, 23))).toEqual([new Date(2026, 11, 1).getTime(), new Date(2027, 0, 1).getTime()])
  })

  it('this month starts on the first', () => {
    const now = new Date(2026, 1, 17, 12)
    expect(thisLocalMonth(now)).toEqual([new Date(2026, 1, 1).getTime(), now.getTime()])
  })

  it('a day after today is one the calendar does not offer; today and earlier days are', () => {
    const now = new Date(2026, 10, 28, 1, 52)
    expect(isAfterToday(new Date(2026, 10, 28, 0, 0).getTime(), now)).toBe(false)
    expect(isAfterToday(new Date(2026, 10, 28, 23, 59, 59, 999).getTime(), now)).toBe(false)
    expect(isAfterToday(new Date(2026, 10, 27).getTime(), now)).toBe(false)
    expect(isAfterToday(new Date(2026, 10, 29, 0, 0).getTime(), now)).toBe(true)
    expect(isAfterToday(new Date(2027, 0, 1).getTime(), now)).toBe(true)
  })
})
