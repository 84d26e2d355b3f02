import { describe, expect, it } from 'vitest'
import { formatRelativeTime } from './formatRelativeTime'

const now = Date.parse('2026-11-20T12:00:00.000Z')
const ago = (ms: number) => new Date(now - ms).toISOString()
const MINUTE = 60_000

describe('formatRelativeTime', () => {
  it('says "just now" for the last few seconds and for a clock slightly ahead', () => {
    expect(formatRelativeTime(ago(10_000), now, 'en-US')).toBe('just now')
    expect(formatRelativeTime(ago(-5_000), now, 'en-US')).toBe('just now')
  })

  it('counts minutes, hours and days', () => {
    expect(formatRelativeTime(ago(50_000), now, 'en-US')).toBe('1 minute ago')
    expect(formatRelativeTime(ago(3 * MINUTE), now, 'en-US')).toBe('3 minutes ago')
    expect(formatRelativeTime(ago(50 * MINUTE), now, 'en-US')).toBe('1 hour ago')
    expect(formatRelativeTime(ago(5 * 60 * MINUTE), now, 'en-US')).toBe('5 hours ago')
    expect(formatRelativeTime(ago(26 * 60 * MINUTE), now, 'en-US')).toBe('yesterday')
    expect(formatRelativeTime(ago(3 * 24 * 60 * MINUTE), now, 'en-US')).toBe('3 days ago')
  })

  it('names the date for anything older than a week', () => {
    expect(formatRelativeTime('2026-10-01T12:00:00.000Z', now, 'en-US')).toBe('on Oct 1, 2026')
  })

  it('shows text that is not an instant as sent', () => {
    expect(formatRelativeTime('soon', now, 'en-US')).toBe('soon')
  })
})
