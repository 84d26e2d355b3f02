import { describe, expect, it } from 'vitest'
import { formatMoney } from './formatMoney'

describe('formatMoney', () => {
  it('formats integer cents as US dollars with two decimals', () => {
    expect(formatMoney(12345)).toMatch(/123[.,]45/)
    expect(formatMoney(100_000_000)).toMatch(/1.?000.?000[.,]00/)
    expect(formatMoney(5)).toMatch(/0[.,]05/)
  })

  it('shows a dash when there is no amount', () => {
    expect(formatMoney(null)).toBe('—')
    expect(formatMoney(Number.NaN)).toBe('—')
  })
})
