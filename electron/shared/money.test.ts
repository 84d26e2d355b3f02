import { describe, expect, it } from 'vitest'
import { centsFromDecimalString, centsFromNumber, decimalStringFromCents, dollarsFromCents, formatMoney, formatMoneyCompact, formatMoneyExact } from './money'

describe('money at the edge', () => {
  it('reads two-decimal strings exactly', () => {
    expect(centsFromDecimalString('1240.00')).toBe(124000)
    expect(centsFromDecimalString('0.10')).toBe(10)
    expect(centsFromDecimalString('19.9')).toBe(1990)
    expect(centsFromDecimalString('7')).toBe(700)
    expect(centsFromDecimalString('-3.05')).toBe(-305)
  })
  it('refuses what is not a decimal with at most two places', () => {
    for (const bad of ['', 'abc', '12.345', '1e3', '12,50', '.5', 'NaN']) expect(centsFromDecimalString(bad)).toBeNull()
  })
  it('rounds JSON numbers to the cent without float noise', () => {
    expect(centsFromNumber(0.1 + 0.2)).toBe(30)
    expect(centsFromNumber(1099.99)).toBe(109999)
    expect(centsFromNumber(Number.NaN)).toBeNull()
    expect(centsFromNumber(Number.POSITIVE_INFINITY)).toBeNull()
  })
  it('writes cents back as dollars', () => {
    expect(dollarsFromCents(109999)).toBe(1099.99)
    expect(decimalStringFromCents(5)).toBe('0.05')
    expect(decimalStringFromCents(-12345)).toBe('-123.45')
  })
})

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

describe('formatMoneyCompact', () => {
  it('shows an axis amount in few characters', () => {
    expect(formatMoneyCompact(12_345_600)).toMatch(/123[.,]5/)
    expect(formatMoneyCompact(12_345_600).length).toBeLessThan(formatMoney(12_345_600).length)
  })
})
