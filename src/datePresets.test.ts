import { describe, expect, it } from 'vitest'
import { presetRange } from './datePresets'

describe('date presets', () => {
  it('cover whole local days up to the end of today', () => {
    const now = new Date(2026, 10, 20, 15, 30)
    const today = presetRange('today', now)
    expect(new Date(today.fromDate).getTime()).toBe(new Date(2026, 10, 20).getTime())
    expect(new Date(today.toDate).getTime()).toBe(new Date(2026, 10, 21).getTime() - 1)
    expect(new Date(presetRange('last7', now).fromDate).getTime()).toBe(new Date(2026, 10, 14).getTime())
    expect(new Date(presetRange('last30', now).fromDate).getTime()).toBe(new Date(2026, 9, 22).getTime())
    expect(new Date(presetRange('thisMonth', now).fromDate).getTime()).toBe(new Date(2026, 10, 1).getTime())
  })
})
