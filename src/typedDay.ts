/**
 * A day as a seller types it into a date field. The date picker reads only its own display format
 * ("Jun 1, 2026") and drops anything else without a word; sellers type dates as they are used to:
 * ISO ("2026-06-01"), the locale's numbers in its order ("6/1/2026" in the US, "01/06/2026" in the UK,
 * "1.6.2026" in Germany), or the month by name before or after the day ("June 1 2026", "1 Jun 2026").
 * A day that does not exist ("Feb 30") is not read as another, nor a year typed halfway ("6/1/2").
 * Numbers with slashes or dashes are read in the locale's order, as nothing else tells which is the
 * month; with dots they are day.month.year, as wherever dots are written.
 */

/** Local midnight of the day (ms), `blank` for nothing typed, `unreadable` for what is no day. */
export type TypedDay = number | 'blank' | 'unreadable'

const FIRST_YEAR = 1900
const LAST_YEAR = 2199

/** Local midnight of year-month-day, or null when there is no such day. */
function dayOf(year: number | null, month: number, day: number): number | null {
  if (year === null || year < FIRST_YEAR || year > LAST_YEAR || month < 1 || month > 12 || day < 1) return null
  const date = new Date(year, month - 1, day)
  return date.getMonth() === month - 1 && date.getDate() === day ? date.getTime() : null
}

/** A year as typed: four digits, or two for this century's ("26" → 2026); null for any other (a year typed halfway). */
const fullYear = (digits: string) => (digits.length === 4 ? Number(digits) : digits.length === 2 ? 2000 + Number(digits) : null)

/** The order the locale writes a numeric date in ("month", "day", "year" for en-US). */
function numericOrder(locale: string | undefined): ('day' | 'month' | 'year')[] {
  const parts = new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'numeric', day: 'numeric' }).formatToParts(new Date(2026, 10, 23))
  return parts.flatMap((part) => (part.type === 'day' || part.type === 'month' || part.type === 'year' ? [part.type] : []))
}

/** Month names by locale, made once each (a field read on every blur needs the same ones again). */
const monthNamesOf = new Map<string | undefined, Map<string, number>>()

/** Month names as typed (lower case, no dots): the locale's short and long ones, and English ones too. */
function monthNames(locale: string | undefined): Map<string, number> {
  const made = monthNamesOf.get(locale)
  if (made) return made
  const names = new Map<string, number>()
  monthNamesOf.set(locale, names)
  for (const at of [locale, 'en-US'])
    for (const month of ['short', 'long'] as const) {
      const format = new Intl.DateTimeFormat(at, { month })
      for (let m = 0; m < 12; m++) {
        const name = format
          .format(new Date(2026, m, 1))
          .toLowerCase()
          .replace(/\./g, '')
        // Some locales' short month is its number ("01"): no name to find it by.
        if (!/^\d+$/.test(name)) names.set(name, m + 1)
      }
    }
  return names
}

export function readTypedDay(text: string, locale?: string): TypedDay {
  const typed = text.trim()
  if (typed === '') return 'blank'
  const read = (day: number | null): TypedDay => day ?? 'unreadable'

  const iso = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/.exec(typed)
  if (iso) return read(dayOf(Number(iso[1]), Number(iso[2]), Number(iso[3])))

  const numbers = /^(\d{1,4})[-/. ]+(\d{1,2})[-/. ]+(\d{1,4})\.?$/.exec(typed)
  if (numbers) {
    // Dots are day.month.year wherever they are typed; other separators follow the locale's order.
    const order = /^\d+\.\s*\d+\./.test(typed) ? (['day', 'month', 'year'] as const) : numericOrder(locale)
    if (order.length !== 3) return 'unreadable'
    const at = (type: 'day' | 'month' | 'year') => numbers[order.indexOf(type) + 1]!
    return read(dayOf(fullYear(at('year')), Number(at('month')), Number(at('day'))))
  }

  // The month by name: the two numbers beside it are the day and the year (the year has four digits,
  // or comes last).
  const words = typed
    .toLowerCase()
    .split(/[\s,/-]+/)
    .map((word) => word.replace(/\.$/, ''))
    .filter((word) => word !== '')
  if (words.length !== 3) return 'unreadable'
  const names = monthNames(locale)
  const monthAt = words.findIndex((word) => names.has(word.replace(/\./g, '')))
  if (monthAt < 0) return 'unreadable'
  const rest = words.filter((_, i) => i !== monthAt)
  if (!rest.every((word) => /^\d{1,4}$/.test(word))) return 'unreadable'
  // The year in four digits: "Jun 1, 20" is a year typed halfway, not 2020.
  const yearAt = rest.findIndex((word) => word.length === 4)
  if (yearAt < 0) return 'unreadable'
  return read(dayOf(fullYear(rest[yearAt]!), names.get(words[monthAt]!.replace(/\./g, ''))!, Number(rest[1 - yearAt])))
}
