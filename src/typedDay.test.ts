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

  it('reads month names as sellers write them: bent in a date, begun, and among the words a locale writes around a day', () => {
    expect(readTypedDay('Sept 1, 2026', 'en-US')).toBe(day(2026, 9, 1))
    expect(readTypedDay('1 Sept 2026', 'en-GB')).toBe(day(2026, 9, 1))
    expect(readTypedDay('Septem 1 2026', 'en-US')).toBe(day(2026, 9, 1))
    expect(readTypedDay('June 1st, 2026', 'en-US')).toBe(day(2026, 6, 1))
    expect(readTypedDay('the 2nd of June 2026', 'en-GB')).toBe('unreadable')
    expect(readTypedDay('2nd of June 2026', 'en-GB')).toBe(day(2026, 6, 2))
    expect(readTypedDay('1 de junio de 2026', 'es-ES')).toBe(day(2026, 6, 1))
    expect(readTypedDay('1 января 2026', 'ru-RU')).toBe(day(2026, 1, 1))
    expect(readTypedDay('1 июня 2026 г.', 'ru-RU')).toBe(day(2026, 6, 1))
    expect(readTypedDay('1 czerwca 2026', 'pl-PL')).toBe(day(2026, 6, 1))
    // The locale's own names and English ones: "juin" in France, "June" anywhere.
    expect(readTypedDay('1 juin 2026', 'fr-FR')).toBe(day(2026, 6, 1))
    expect(readTypedDay('1 June 2026', 'fr-FR')).toBe(day(2026, 6, 1))
    // Begun too little to tell, or begun like two months: no month.
    expect(readTypedDay('Ju 1 2026', 'en-US')).toBe('unreadable')
    expect(readTypedDay('1 jui 2026', 'fr-FR')).toBe('unreadable')
    // A word the locale does not write around a day is no filler.
    expect(readTypedDay('1 de junio de 2026', 'en-US')).toBe('unreadable')
  })

  it('reads a year in the locale’s calendar, and the common one', () => {
    expect(readTypedDay('1/6/2569', 'th-TH')).toBe(day(2026, 6, 1))
    expect(readTypedDay('1/6/2026', 'th-TH')).toBe(day(2026, 6, 1))
    expect(readTypedDay('1 มิถุนายน 2569', 'th-TH')).toBe(day(2026, 6, 1))
    // ISO is the common calendar's; two digits could be either calendar's year.
    expect(readTypedDay('2569-06-01', 'th-TH')).toBe('unreadable')
    expect(readTypedDay('1/6/69', 'th-TH')).toBe('unreadable')
    // An era counted from a recent year is not read as a year, and the common year still is.
    expect(readTypedDay('Jun 1, 2026', 'ja-JP-u-ca-japanese')).toBe(day(2026, 6, 1))
    expect(readTypedDay('2026/6/1', 'zh-TW-u-ca-roc')).toBe(day(2026, 6, 1))
    // A calendar with months of its own (Persian): its days are not read as another, the common ones are.
    expect(readTypedDay('11 خرداد 1405', 'fa-IR')).toBe('unreadable')
    expect(readTypedDay('11 خرداد 2026', 'fa-IR')).toBe('unreadable')
    expect(readTypedDay('1405/3/11', 'fa-IR')).toBe('unreadable')
    expect(readTypedDay('2026-06-01', 'fa-IR')).toBe(day(2026, 6, 1))
    expect(readTypedDay('1 June 2026', 'fa-IR')).toBe(day(2026, 6, 1))
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
