import { describe, expect, it } from 'vitest'
import { formatTime } from './formatTime'

describe('formatTime', () => {
  it('shows an instant with its year and a zone name', () => {
    const text = formatTime('2026-11-19T13:03:22.123Z')
    expect(text).toContain('2026')
    expect(text).toMatch(/UTC|GMT|[A-Z]{2,5}/)
  })

  it('shows text that is not an instant as sent, and a dash for nothing', () => {
    expect(formatTime('not a date')).toBe('not a date')
    expect(formatTime(null)).toBe('—')
  })
})
