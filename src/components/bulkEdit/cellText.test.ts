import { describe, expect, it } from 'vitest'
import { formatNumber } from '@shared/formatCount'
import { cellText, priceCellText } from './cellText'

describe('a price cell’s text', () => {
  it('groups thousands and keeps every decimal it holds', () => {
    expect(priceCellText('1299.00', 'en-US')).toBe('1,299.00')
    expect(priceCellText('1000000.00', 'en-US')).toBe('1,000,000.00')
    expect(priceCellText('129.99', 'en-US')).toBe('129.99')
    // An invalid pending price: shown exactly, not rounded to cents.
    expect(priceCellText('1234.565', 'en-US')).toBe('1,234.565')
    expect(priceCellText('-5.00', 'en-US')).toBe('-5.00')
    expect(priceCellText('7', 'en-US')).toBe('7')
  })

  it('follows the locale', () => {
    expect(priceCellText('1299.50', 'de-DE')).toBe('1.299,50')
  })

  it('leaves what is no number as it is', () => {
    expect(priceCellText('', 'en-US')).toBe('')
    expect(priceCellText('abc', 'en-US')).toBe('abc')
  })
})

describe('a cell’s text', () => {
  it('shows a quantity as counts are shown, grouped, and a price’s decimal text as a price cell does', () => {
    expect(cellText(1_000_000)).toBe(formatNumber(1_000_000))
    expect(cellText(1_000_000)).toMatch(/^1\D000\D000$/)
    // An invalid pending quantity: shown exactly, not rounded.
    expect(cellText(12.3456)).toMatch(/^12\D3456$/)
    expect(cellText('1000000.00')).toBe(priceCellText('1000000.00'))
    expect(cellText('')).toBe('')
  })
})
