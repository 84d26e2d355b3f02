/**
 * A day as a seller types it into a date field. The date picker reads only its own display format
 * ("Jun 1, 2026") and drops anything else without a word; sellers type dates as they are used to:
 * ISO ("2026-06-01"), the locale's numbers in its order ("6/1/2026" in the US, "01/06/2026" in the UK,
 * "1.6.2026" in Germany), or the month by name before or after the day ("June 1 2026", "1 Jun 2026",
 * "Sept 1st 2026", "1 de junio de 2026", "1 июня 2026 г."), a year in the locale's calendar included.
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

/** How a locale names its months and what else it writes around a day, made once per locale. */
interface DayWords {
  /** Month names as typed (lower case, no dots) → month (1–12). */
  months: Map<string, number>
  /** Each month's long names (as above), for a name typed short its own way ("Sept" in the US). */
  longNames: [name: string, month: number][]
  /** Words the locale writes between a day's parts ("de" in "1 de junio de 2026", "г" after a Russian year). */
  fillers: Set<string>
  /** What the locale's calendar adds to the year (543 in the Thai Buddhist calendar). */
  yearOffset: number
}

const dayWordsOf = new Map<string | undefined, DayWords>()

/** Calendars with the common one's months (their years may differ: 2569 in the Thai Buddhist calendar). */
const GREGORIAN_MONTHS = new Set(['gregory', 'iso8601', 'buddhist', 'roc', 'japanese'])

/** Lower case, without dots: how a typed word and a name are compared. */
const comparable = (word: string) => word.toLowerCase().replace(/\./g, '')

/**
 * The locale's month names, short and long, standing alone and in a date (where some languages bend
 * them: "января" in "1 января"), and the English ones too; the words its long dates hold besides.
 */
function dayWords(locale: string | undefined): DayWords {
  const made = dayWordsOf.get(locale)
  if (made) return made
  const months = new Map<string, number>()
  const longNames: DayWords['longNames'] = []
  const fillers = new Set<string>(['of'])
  // A calendar whose months are not the common one's (Persian, Hebrew, Islamic) names no month a day of
  // which is read here: only the English names then, and its years are no years here either.
  const sameMonths = GREGORIAN_MONTHS.has(new Intl.DateTimeFormat(locale).resolvedOptions().calendar)
  for (const at of sameMonths ? [locale, 'en-US'] : ['en-US'])
    for (const month of ['short', 'long'] as const)
      for (const inDate of [false, true]) {
        const format = new Intl.DateTimeFormat(at, inDate ? { day: 'numeric', month } : { month })
        for (let m = 0; m < 12; m++) {
          const part = format.formatToParts(new Date(2026, m, 1)).find((each) => each.type === 'month')
          const name = comparable(part?.value ?? '')
          // Some locales' short month is its number ("01"): no name to find it by.
          if (name === '' || /^\d+$/.test(name)) continue
          months.set(name, m + 1)
          if (month === 'long') longNames.push([name, m + 1])
        }
      }
  const long = new Intl.DateTimeFormat(locale, { dateStyle: 'long' })
  for (const part of long.formatToParts(new Date(2026, 5, 1)))
    if (part.type === 'literal') for (const word of part.value.split(/[\s,/-]+/)) if (/\p{L}/u.test(word)) fillers.add(comparable(word))
  const calendarYear = Number(
    new Intl.DateTimeFormat(locale, { year: 'numeric' }).formatToParts(new Date(2026, 5, 1)).find((part) => part.type === 'year')?.value
  )
  // Only a calendar whose years run ahead of the common one's by centuries (the Buddhist) is told apart by
  // them; eras that count from a recent year (Japan's, the Republic of China's) are not read.
  const offset = Number.isFinite(calendarYear) ? calendarYear - 2026 : 0
  const words = { months, longNames, fillers, yearOffset: sameMonths && offset > 0 ? offset : 0 }
  dayWordsOf.set(locale, words)
  return words
}

/** The month a typed word names: a name of it, or the start (three letters or more) of one month's long name alone. */
function monthNamed(word: string, words: DayWords): number | undefined {
  const typed = comparable(word)
  const named = words.months.get(typed)
  if (named !== undefined || typed.length < 3) return named
  const found = new Set(words.longNames.filter(([name]) => name.startsWith(typed)).map(([, month]) => month))
  return found.size === 1 ? [...found][0] : undefined
}

export function readTypedDay(text: string, locale?: string): TypedDay {
  const typed = text.trim()
  if (typed === '') return 'blank'
  const read = (day: number | null): TypedDay => day ?? 'unreadable'

  const iso = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/.exec(typed)
  if (iso) return read(dayOf(Number(iso[1]), Number(iso[2]), Number(iso[3])))

  const words = dayWords(locale)
  /** A year typed in the locale's calendar (2569 in Thailand) or the common one (2026). */
  const yearOf = (digits: string) => {
    // Two digits in a calendar of its own could be either calendar's year.
    if (words.yearOffset !== 0 && digits.length !== 4) return null
    const year = fullYear(digits)
    if (year === null || words.yearOffset === 0) return year
    return year - words.yearOffset >= FIRST_YEAR ? year - words.yearOffset : year
  }

  const numbers = /^(\d{1,4})[-/. ]+(\d{1,2})[-/. ]+(\d{1,4})\.?$/.exec(typed)
  if (numbers) {
    // Dots are day.month.year wherever they are typed; other separators follow the locale's order.
    const order = /^\d+\.\s*\d+\./.test(typed) ? (['day', 'month', 'year'] as const) : numericOrder(locale)
    if (order.length !== 3) return 'unreadable'
    const at = (type: 'day' | 'month' | 'year') => numbers[order.indexOf(type) + 1]!
    return read(dayOf(yearOf(at('year')), Number(at('month')), Number(at('day'))))
  }

  // The month by name: the two numbers beside it are the day and the year (the year has four digits,
  // or comes last). Words the locale writes between them ("de") are passed over, and so is an English
  // day's ending ("1st").
  const parts = typed
    .split(/[\s,/-]+/)
    .map((word) => word.replace(/\.$/, '').replace(/^(\d{1,2})(st|nd|rd|th)$/i, '$1'))
    .filter((word) => word !== '' && !words.fillers.has(comparable(word)))
  if (parts.length !== 3) return 'unreadable'
  const monthAt = parts.findIndex((word) => monthNamed(word, words) !== undefined)
  if (monthAt < 0) return 'unreadable'
  const rest = parts.filter((_, i) => i !== monthAt)
  if (!rest.every((word) => /^\d{1,4}$/.test(word))) return 'unreadable'
  // The year in four digits: "Jun 1, 20" is a year typed halfway, not 2020.
  const yearAt = rest.findIndex((word) => word.length === 4)
  if (yearAt < 0) return 'unreadable'
  return read(dayOf(yearOf(rest[yearAt]!), monthNamed(parts[monthAt]!, words)!, Number(rest[1 - yearAt])))
}
