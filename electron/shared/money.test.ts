import { describe, expect, it } from 'vitest'
import { centsFromDecimalString, centsFromNumber, decimalStringFromCents, dollarsFromCents } from './money'

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
