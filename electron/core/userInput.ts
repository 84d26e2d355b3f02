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
  // As a spreadsheet shows it too: "$1,299.99" (the same forms the bulk-edit grid reads, see gridCellValue).
  .regex(/^\$?(\d{1,3}(,\d{3})+|\d+)(\.\d{1,2})?$/, 'Enter a price like 129.99: digits, at most two decimals, a point before the cents.')
  .transform((text) => centsFromDecimalString(text.replace(/^\$/, '').replaceAll(',', '')) ?? Number.NaN)
  .pipe(priceCentsInput)

/** A quantity as typed ("12", "1,200") → 12, 1200. */
export const quantityTextInput = z
  .string()
  .trim()
  .min(1, 'Enter a quantity.')
  .regex(/^-?(\d{1,3}(,\d{3})+|\d+)(\.\d+)?$/, 'Enter a whole number, like 12.')
  .transform((text) => Number(text.replaceAll(',', '')))
  .pipe(quantityInput)

/** A sell request id as the API issues them (UUID). */
export const sellRequestIdInput = z.guid('That is not a sell request id (expected a UUID).')

/** The first problem zod found, as one sentence for a form field. */
export function firstIssue(error: z.ZodError): string {
  return error.issues[0]?.message ?? 'Invalid value.'
}

/** Text copied from a spreadsheet may carry a dollar sign and thousands separators ("$1,299.99"). */
const SPREADSHEET_NUMBER = /^(-?)\$?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?$/

/**
 * A grid cell as typed, pasted or filled → the value to stage, in the field's unit (cents for a price).
 * Numbers that break a rule (negative, 0, three decimals, a fraction of a unit) are returned as they
 * are, so the change set marks the cell invalid with its reason; text that is no number at all is
 * refused here with a message. Blank means "leave unchanged" (null).
 */
export function gridCellValue(field: 'priceCents' | 'quantity', text: string): { value: number } | { error: string } | null {
  const trimmed = text.trim()
  if (trimmed === '') return null
  const match = SPREADSHEET_NUMBER.exec(trimmed)
  const what = field === 'priceCents' ? 'a price' : 'a quantity'
  if (!match) return { error: `“${trimmed.length > 30 ? `${trimmed.slice(0, 30)}…` : trimmed}” is not ${what}.` }
  const [, sign, grouped = '0', fraction = ''] = match
  const whole = grouped.replaceAll(',', '')
  // Exact for up to two decimals; more decimals give a fraction of a cent, which the rules refuse.
  const value = field === 'priceCents'
    ? Number(`${whole}${fraction.padEnd(2, '0').slice(0, 2)}.${fraction.slice(2) || '0'}`)
    : Number(`${whole}.${fraction || '0'}`)
  if (!Number.isFinite(value) || Math.abs(value) > Number.MAX_SAFE_INTEGER) return { error: `“${trimmed.slice(0, 30)}” is too large for ${what}.` }
  return { value: sign === '-' ? -value : value }
}
