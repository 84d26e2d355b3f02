import { describe, expect, it } from 'vitest'
import { instantFromZoned, instantFromZonelessUtc, zonelessUtcFromInstant } from './time'

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
})
