import { describe, expect, it } from 'vitest'
import { priceCellText } from './priceCell'

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
