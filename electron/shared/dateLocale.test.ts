import { describe, expect, it } from 'vitest'
import { dateLocaleOf } from './dateLocale'

describe('the locale the computer writes dates in', () => {
  it('takes a tag as the system names it, in BCP 47', () => {
    expect(dateLocaleOf('en-GB')).toBe('en-GB')
    expect(dateLocaleOf('en_GB')).toBe('en-GB')
    expect(dateLocaleOf('de_DE.UTF-8')).toBe('de-DE')
    expect(dateLocaleOf('sr_RS.UTF-8@latin')).toBe('sr-RS')
    expect(dateLocaleOf(' fr-ca ')).toBe('fr-CA')
  })

  it('falls back to US English for nothing, the C locale, or what is no locale', () => {
    for (const named of [undefined, '', 'C', 'POSIX', 'not a locale', '12-34', 'en-GB-x-']) expect(dateLocaleOf(named), String(named)).toBe('en-US')
  })
})
