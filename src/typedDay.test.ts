import { describe, expect, it } from 'vitest'
import { readTypedDay } from './typedDay'

const day = (year: number, month: number, date: number) => new Date(year, month - 1, date).getTime()

describe('a day as a seller types it', () => {
  it('reads the picker’s own form, ISO, and the month by name before or after the day', () => {
    for (const typed of ['Jun 1, 2026', '2026-06-01', '2026/6/1', 'June 1 2026', '1 Jun 2026', '1. June 2026', ' jun 1, 2026 '])
      expect(readTypedDay(typed, 'en-US'), typed).toBe(day(2026, 6, 1))
  })

  it('reads numbers in the locale’s order', () => {
    expect(readTypedDay('6/1/2026', 'en-US')).toBe(day(2026, 6, 1))
    expect(readTypedDay('06-01-26', 'en-US')).toBe(day(2026, 6, 1))
    expect(readTypedDay('01/06/2026', 'en-GB')).toBe(day(2026, 6, 1))
    expect(readTypedDay('1.6.2026', 'de-DE')).toBe(day(2026, 6, 1))
    expect(readTypedDay('1. Juni 2026', 'de-DE')).toBe(day(2026, 6, 1))
    // Dots are day.month.year, in the US too.
    expect(readTypedDay('01.06.2026', 'en-US')).toBe(day(2026, 6, 1))
    // A locale whose short months are numbers: they name no month.
    expect(readTypedDay('06, 01, 2026', 'bg-BG')).toBe('unreadable')
  })

  it('says blank for nothing, and unreadable for what is no day, a day that does not exist included', () => {
    expect(readTypedDay('  ', 'en-US')).toBe('blank')
    for (const typed of [
      'abc',
      '2026-02-30',
      '13/1/2026',
      'Feb 30, 2026',
      'Jun 2026',
      '1 2 3 4',
      'Jun 1, 1492',
      '2026-06',
      '6/1/2',
      '6/1/202',
      'Jun 1, 20',
      'Jun 1 2'
    ])
      expect(readTypedDay(typed, 'en-US'), typed).toBe('unreadable')
  })
})
