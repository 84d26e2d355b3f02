/**
 * The rules for prices, quantities and percentage changes of prices, one message per problem (a price's and a
 * quantity's problems as data, put into words by valueProblem.ts). One place, used everywhere: the field
 * descriptors (listingFields.ts) check what a seller types, pastes or imports with them, the change set
 * marks staged values with them, and the main side enforces them (as zod schemas) on every contract call.
 */
import { z } from 'zod'
import { problemMessageOrNull, type ValueProblem } from './valueProblem'

/** The highest unit price Seller Desk will send: $1,000,000.00. */
export const MAX_PRICE_CENTS = 100_000_000
/** The highest quantity Seller Desk will send. */
export const MAX_QUANTITY = 1_000_000

/** How a price in cents breaks the rules, or null when it is fine (said in words by valueProblem.ts). */
export function priceRuleProblem(cents: number): ValueProblem | null {
  const label = 'Price'
  if (!Number.isFinite(cents)) return { kind: 'not-finite', label }
  if (cents < 0) return { kind: 'negative', label }
  if (!Number.isInteger(cents)) return { kind: 'too-many-decimals', label }
  if (cents === 0) return { kind: 'not-positive', label }
  if (cents > MAX_PRICE_CENTS) return { kind: 'above-max', label, max: '$1,000,000.00' }
  return null
}

/** How a quantity breaks the rules, or null when it is fine. */
export function quantityRuleProblem(quantity: number): ValueProblem | null {
  const label = 'Quantity'
  if (!Number.isFinite(quantity)) return { kind: 'not-finite', label }
  if (quantity < 0) return { kind: 'negative', label }
  if (!Number.isInteger(quantity)) return { kind: 'not-whole', label }
  if (quantity > MAX_QUANTITY) return { kind: 'above-max', label, max: '1,000,000' }
  return null
}

/** Why a price in cents breaks the rules, or null when it is fine. One message per problem, the same everywhere. */
export const priceProblem = (cents: number): string | null => problemMessageOrNull(priceRuleProblem(cents))

/** Why a quantity breaks the rules, or null when it is fine. */
export const quantityProblem = (quantity: number): string | null => problemMessageOrNull(quantityRuleProblem(quantity))

/** The most "Adjust price by %" may raise prices: +1000%. It lowers them by less than 100% (a price stays above 0). */
export const MAX_PRICE_RISE_PERCENT = 1000

/** More than two decimals in a percentage, as every percentage the seller types is read (parsePercentChange): said, or null. */
const percentDecimalsProblem = (percent: number): string | null => {
  const hundredths = percent * 100
  return Math.abs(hundredths - Math.round(hundredths)) >= 1e-9 ? 'A percentage has at most two decimals.' : null
}

/** Why a percentage change of prices ("Adjust price by %") breaks the rules, or null. */
export function priceChangePercentProblem(percent: number): string | null {
  if (!Number.isFinite(percent)) return 'Enter a percentage.'
  if (percent <= -100) return 'A price cannot go down by 100% or more: it must stay above 0.'
  if (percent > MAX_PRICE_RISE_PERCENT) return `At most +${MAX_PRICE_RISE_PERCENT}%.`
  return percentDecimalsProblem(percent)
}

/**
 * Why the price move that bulk edit warns about (a percentage) breaks the rules, or null. At most two
 * decimals, as the rule compares in hundredths of a percent (listingFields.ts beyondPercent).
 */
export function warningPercentProblem(percent: number): string | null {
  if (!Number.isFinite(percent)) return 'Enter a percentage.'
  if (percent < 1) return 'At least 1%.'
  if (percent > MAX_PRICE_RISE_PERCENT) return `At most ${MAX_PRICE_RISE_PERCENT}%.`
  return percentDecimalsProblem(percent)
}

/** Why the quantity cut that bulk edit warns about (a percentage of the quantity now) breaks the rules, or null; two decimals at most, as above. */
export function quantityCutPercentProblem(percent: number): string | null {
  if (!Number.isFinite(percent)) return 'Enter a percentage.'
  if (percent < 1) return 'At least 1%.'
  if (percent >= 100) return 'Under 100%: a cut to 0 is never warned about.'
  return percentDecimalsProblem(percent)
}

/** A rule as a zod schema (contract inputs), reporting the rule's one message. */
export const ruleSchema = (label: string, problemOf: (n: number) => string | null) =>
  z.number({ error: `${label} must be a number.` }).superRefine((n, ctx) => {
    const problem = problemOf(n)
    if (problem) ctx.addIssue({ code: 'custom', message: problem })
  })

export const priceCentsInput = ruleSchema('Price', priceProblem)
export const quantityInput = ruleSchema('Quantity', quantityProblem)
export const priceChangePercentInput = ruleSchema('A percentage', priceChangePercentProblem)
export const warningPercentInput = ruleSchema('A percentage', warningPercentProblem)
export const quantityCutPercentInput = ruleSchema('A percentage', quantityCutPercentProblem)

/** A sell request id as the API issues them (UUID). */
export const sellRequestIdInput = z.guid('That is not a sell request id (expected a UUID).')

/** The first problem zod found, as one sentence for a form field. */
export function firstIssue(error: z.ZodError): string {
  return error.issues[0]?.message ?? 'Invalid value.'
}
