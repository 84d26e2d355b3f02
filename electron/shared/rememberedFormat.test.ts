import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { rememberedFormat } from './rememberedFormat'

describe('rememberedFormat', () => {
  const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' })
  const plain = (cents: number) => dollars.format(cents / 100)

  it('gives the text the formatter gives, asked once or again, past its limit, for 0 and -0 each their own', () => {
    const remembered = rememberedFormat(plain, 3)
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.integer({ min: -5, max: 5 }), fc.constant(-0), fc.integer())), (values) => {
        for (const cents of values) expect(remembered(cents)).toBe(plain(cents))
      })
    )
    expect(remembered(0)).toBe('$0.00')
    expect(remembered(-0)).toBe('-$0.00')
    expect(remembered(0)).toBe('$0.00')
  })

  it('formats a value once while it is kept', () => {
    const formats: number[] = []
    const remembered = rememberedFormat((cents) => (formats.push(cents), plain(cents)), 3)
    for (const cents of [105, 205, 105, 105, 205]) remembered(cents)
    expect(formats).toEqual([105, 205])
    // Past the limit they start over: each is formatted again, once.
    for (const cents of [305, 405, 105, 105]) remembered(cents)
    expect(formats).toEqual([105, 205, 305, 405, 105])
  })
})
