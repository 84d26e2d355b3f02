import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  instantFromZoned,
  instantFromZonedAnyForm,
  instantFromZonelessUtc,
  instantFromZonelessUtcAnyForm,
  zonelessUtcFromInstant,
  clockOffsetWords
} from './time'

describe('time at the edge', () => {
  it('takes zone-less microsecond order dates as UTC', () => {
    expect(instantFromZonelessUtc('2026-11-19T14:03:22.123456')).toBe('2026-11-19T14:03:22.123Z')
    expect(instantFromZonelessUtc('2026-11-19T14:03:22')).toBe('2026-11-19T14:03:22.000Z')
    expect(instantFromZonelessUtc('2026-11-19')).toBe('2026-11-19T00:00:00.000Z')
  })
  it('refuses impossible or zoned dates where a zone-less one is expected', () => {
    expect(instantFromZonelessUtc('2026-02-31T00:00:00')).toBeNull()
    expect(instantFromZonelessUtc('yesterday')).toBeNull()
    expect(instantFromZonelessUtc('2026-11-19T14:03:22Z')).toBeNull()
  })
  it('reads Z timestamps and refuses zone-less ones there', () => {
    expect(instantFromZoned('2026-11-19T14:03:22.123Z')).toBe('2026-11-19T14:03:22.123Z')
    expect(instantFromZoned('2026-11-19T15:03:22.123+01:00')).toBe('2026-11-19T14:03:22.123Z')
    expect(instantFromZoned('2026-11-19T14:03:22.123')).toBeNull()
  })
  it('sends instants zone-less in UTC', () => {
    expect(zonelessUtcFromInstant('2026-11-19T15:03:22.123+01:00')).toBe('2026-11-19T14:03:22.123')
  })

  it('reads the usual forms by hand exactly as the general readers read them, valid or not', () => {
    const digits = (length: number, max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(length, '0'))
    // Near the usual forms: every field may be out of range (month 13, day 31 in a short month, 29
    // February, hour 24, second 60, years below 1000), the fraction any length, the end any of these.
    const text = fc
      .tuple(
        digits(4, 9999),
        digits(2, 13),
        digits(2, 32),
        fc.constantFrom('T', ' ', 't'),
        digits(2, 25),
        digits(2, 61),
        digits(2, 61),
        fc.constantFrom('', '.'),
        fc.stringMatching(/^\d{0,11}$/),
        fc.constantFrom('', 'Z', '+01:00', ' ', 'z')
      )
      .map(([y, mo, d, t, h, mi, s, dot, frac, end]) => `${y}-${mo}-${d}${t}${h}:${mi}:${s}${dot}${frac}${end}`)
    fc.assert(
      fc.property(text, (value) => {
        expect(instantFromZoned(value)).toBe(instantFromZonedAnyForm(value))
        expect(instantFromZonelessUtc(value)).toBe(instantFromZonelessUtcAnyForm(value))
      }),
      { numRuns: 20_000 }
    )
    // The usual forms themselves, in range: read by hand, and valid.
    const usual = fc
      .date({ min: new Date(Date.UTC(1000, 0, 1)), max: new Date(Date.UTC(9999, 11, 31)), noInvalidDate: true })
      .chain((date) => fc.tuple(fc.constant(date.toISOString()), fc.stringMatching(/^\d{0,6}$/)))
    fc.assert(
      fc.property(usual, ([iso, more]) => {
        expect(instantFromZoned(iso)).toBe(iso)
        expect(instantFromZonelessUtc(iso.slice(0, -1) + more)).toBe(iso)
      }),
      { numRuns: 5_000 }
    )
  })

  it('says how far a clock is from UTC in hours and quarters', () => {
    const H = 3_600_000
    expect([5.5 * H, -5 * H, 5.75 * H, -0.25 * H, 12 * H, 14 * H, 0].map(clockOffsetWords)).toEqual([
      'about 5½ h ahead of UTC',
      'about 5 h behind UTC',
      'about 5¾ h ahead of UTC',
      'about ¼ h behind UTC',
      'about 12 h ahead of UTC',
      'about 14 h ahead of UTC',
      'on UTC'
    ])
  })
})
