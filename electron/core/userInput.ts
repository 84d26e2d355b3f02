/**
 * The rules for what a seller may type, as zod schemas. One place, used twice: the renderer validates
 * forms with them and the main side enforces them on every contract call (and, later, on CSV rows).
 */
import { z } from 'zod'
import { centsFromDecimalString } from './money'

/** The highest unit price Seller Desk will send: $1,000,000.00. */
export const MAX_PRICE_CENTS = 100_000_000
/** The highest quantity Seller Desk will send. */
export const MAX_QUANTITY = 1_000_000

export const priceCentsInput = z
  .number({ error: 'Price must be a number.' })
  .refine((n) => Number.isFinite(n), 'Price must be a number.')
  .refine((n) => Number.isInteger(n), 'Price must be whole cents (at most two decimals).')
  .refine((n) => n > 0, 'Price must be more than 0.')
  .refine((n) => n <= MAX_PRICE_CENTS, 'Price must be at most 1,000,000.00.')

export const quantityInput = z
  .number({ error: 'Quantity must be a number.' })
  .refine((n) => Number.isFinite(n), 'Quantity must be a number.')
  .refine((n) => Number.isInteger(n), 'Quantity must be a whole number.')
  .refine((n) => n >= 0, 'Quantity cannot be negative.')
  .refine((n) => n <= MAX_QUANTITY, 'Quantity must be at most 1,000,000.')

/** A price as typed ("129.99", "129", " 129.9 ") → cents. */
export const priceTextInput = z
  .string()
  .trim()
  .min(1, 'Enter a price.')
  .regex(/^\d+(\.\d{1,2})?$/, 'Enter a price like 129.99: digits, at most two decimals.')
  .transform((text) => centsFromDecimalString(text) ?? Number.NaN)
  .pipe(priceCentsInput)

/** A quantity as typed ("12") → 12. */
export const quantityTextInput = z
  .string()
  .trim()
  .min(1, 'Enter a quantity.')
  .regex(/^-?\d+(\.\d+)?$/, 'Enter a whole number, like 12.')
  .transform(Number)
  .pipe(quantityInput)

/** A sell request id as the API issues them (UUID). */
export const sellRequestIdInput = z.guid('That is not a sell request id (expected a UUID).')

/** The first problem zod found, as one sentence for a form field. */
export function firstIssue(error: z.ZodError): string {
  return error.issues[0]?.message ?? 'Invalid value.'
}
