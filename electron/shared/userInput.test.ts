import { describe, expect, it } from 'vitest'
import { priceCentsInput, priceProblem, quantityInput, quantityProblem } from './userInput'

describe('the rules for prices and quantities (one message per problem)', () => {
  it('price in cents', () => {
    expect(priceProblem(12999)).toBeNull()
    expect(priceProblem(-500)).toBe('Price cannot be negative.')
    expect(priceProblem(-0.5)).toBe('Price cannot be negative.')
    expect(priceProblem(1234.5)).toBe('Price has more than two decimals.')
    expect(priceProblem(0)).toBe('Price must be more than 0.')
    expect(priceProblem(100_000_001)).toBe('Price must be at most 1,000,000.00.')
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
