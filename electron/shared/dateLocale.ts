/**
 * The locale the computer writes dates in: its regional format, which is not always the language the
 * app's window speaks (a seller in the UK may run English (US) Windows with UK dates). The window's own
 * `Intl` follows its language, so days typed with numbers ("01/06/2026") are read in this one instead
 * (src/typedDay.ts). Electron's main process asks `app.getSystemLocale()`; the browser preview's host
 * takes its own process's (from LANG / LC_ALL on Linux).
 */

/** The default when the system names none that `Intl` knows. */
const FALLBACK = 'en-US'

/** `named` as a BCP 47 tag `Intl` accepts ("en_GB" → "en-GB"); the fallback for nothing or anything else. */
export function dateLocaleOf(named: string | undefined): string {
  const tag = named?.trim().replace(/@.*$/, '').replace(/\..*$/, '').replace(/_/g, '-')
  if (!tag || tag === 'C' || tag === 'POSIX') return FALLBACK
  try {
    const [canonical] = Intl.getCanonicalLocales(tag)
    return canonical && Intl.DateTimeFormat.supportedLocalesOf(canonical).length > 0 ? canonical : FALLBACK
  } catch {
    return FALLBACK
  }
}
