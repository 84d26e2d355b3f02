import { describe, expect, it } from 'vitest'
import { formatMoney, formatMoneyExact } from './formatMoney'

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

describe('formatMoneyExact', () => {
  it('shows an amount that is not whole cents as it is, not rounded', () => {
    expect(formatMoneyExact(1234.5)).toMatch(/12[.,]345/)
    expect(formatMoneyExact(1234.5)).toContain('$')
    expect(formatMoneyExact(-50.25)).toMatch(/-.*0[.,]5025/)
  })

  it('formats whole cents as formatMoney does', () => {
    expect(formatMoneyExact(12345)).toBe(formatMoney(12345))
  })
})
