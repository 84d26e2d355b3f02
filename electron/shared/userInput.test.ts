import { describe, expect, it } from 'vitest'
import {
  priceCentsInput,
  priceChangePercentInput,
  priceChangePercentProblem,
  quantityCutPercentInput,
  quantityCutPercentProblem,
  priceProblem,
  quantityInput,
  quantityProblem,
  warningPercentProblem
} from './userInput'

describe('the rules for prices and quantities (one message per problem)', () => {
  it('price in cents', () => {
    expect(priceProblem(12999)).toBeNull()
    expect(priceProblem(-500)).toBe('Price cannot be negative.')
    expect(priceProblem(-0.5)).toBe('Price cannot be negative.')
    expect(priceProblem(1234.5)).toBe('Price has more than two decimals.')
    expect(priceProblem(0)).toBe('Price must be more than 0.')
    expect(priceProblem(100_000_001)).toBe('Price must be at most $1,000,000.00.')
    expect(priceProblem(Number.NaN)).toBe('Price must be a number.')
  })

  it('quantity', () => {
    expect(quantityProblem(0)).toBeNull()
    expect(quantityProblem(-3)).toBe('Quantity cannot be negative.')
    expect(quantityProblem(2.5)).toBe('Quantity must be a whole number.')
    expect(quantityProblem(1_000_001)).toBe('Quantity must be at most 1,000,000.')
  })

  it('as zod schemas for the contract: the same single message', () => {
    expect(priceCentsInput.safeParse(-500).error?.issues.map((issue) => issue.message)).toEqual(['Price cannot be negative.'])
    expect(priceCentsInput.safeParse('12').error?.issues[0]?.message).toBe('Price must be a number.')
    expect(priceCentsInput.safeParse(Number.POSITIVE_INFINITY).success).toBe(false)
    expect(quantityInput.safeParse(2.5).error?.issues.map((issue) => issue.message)).toEqual(['Quantity must be a whole number.'])
    expect(quantityInput.parse(7)).toBe(7)
  })
})

describe('the rules for percentages (Adjust price by %, the warning rule)', () => {
  it('a price may fall by at most 100% and rise by at most 1000%, in hundredths of a percent', () => {
    for (const ok of [-99.99, -5, 0, 12.5, 0.01, 1000]) expect(priceChangePercentProblem(ok)).toBeNull()
    // Down by 100% is a price of 0 on every listing: refused as the percentage, not staged invalid on each.
    for (const tooLow of [-100, -100.01]) expect(priceChangePercentProblem(tooLow)).toBe('A price cannot go down by 100% or more: it must stay above 0.')
    expect(priceChangePercentProblem(1000.01)).toBe('At most +1000%.')
    expect(priceChangePercentProblem(1.005)).toBe('A percentage has at most two decimals.')
    expect(priceChangePercentInput.safeParse(1000.5).error?.issues[0]?.message).toBe('At most +1000%.')
  })

  it('the warning rule takes 1% to 1000%, with two decimals at most', () => {
    expect([1, 50, 1000, 4.6, 12.34].map(warningPercentProblem)).toEqual([null, null, null, null, null])
    expect(warningPercentProblem(0.5)).toBe('At least 1%.')
    expect(warningPercentProblem(1001)).toBe('At most 1000%.')
    expect(warningPercentProblem(4.666)).toBe('A percentage has at most two decimals.')
  })

  it('the quantity-cut rule takes 1% to under 100% (a cut to 0 is never warned about), with two decimals at most', () => {
    expect([1, 90, 99.5].map(quantityCutPercentProblem)).toEqual([null, null, null])
    expect(quantityCutPercentProblem(0.5)).toBe('At least 1%.')
    expect(quantityCutPercentProblem(100)).toBe('Under 100%: a cut to 0 is never warned about.')
    expect(quantityCutPercentProblem(33.333)).toBe('A percentage has at most two decimals.')
    expect(quantityCutPercentInput.safeParse(100).error?.issues[0]?.message).toBe('Under 100%: a cut to 0 is never warned about.')
  })
})
