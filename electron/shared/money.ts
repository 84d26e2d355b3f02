/**
 * Money is carried as integer cents everywhere inside Seller Desk.
 * The Seller API sends dollars as two-decimal strings ("123.45") or as numbers (123.45);
 * both are converted here, once, at the edge. Money shown to the seller is formatted here too, by
 * formatMoney, wherever it is shown (the renderer, an OS notification).
 */

import { rememberedFormat } from './rememberedFormat'

const DECIMAL_STRING = /^(-?)(\d+)(?:\.(\d{1,2}))?$/

/** "123.45" → 12345. Exact (no float arithmetic). Returns null when the text is not a decimal with ≤ 2 places. */
export function centsFromDecimalString(text: string): number | null {
  const match = DECIMAL_STRING.exec(text.trim())
  if (!match) return null
  const [, sign, whole = '0', fraction = ''] = match
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, '0'))
  if (!Number.isSafeInteger(cents)) return null
  return sign === '-' ? -cents : cents
}

/** 123.45 → 12345. A number from JSON is rounded to the nearest cent (float noise such as 0.1 + 0.2). */
export function centsFromNumber(amount: number): number | null {
  if (!Number.isFinite(amount)) return null
  const cents = Math.round(amount * 100)
  return Number.isSafeInteger(cents) ? cents : null
}

/** 12345 → 123.45, the number the API expects in request bodies. */
export function dollarsFromCents(cents: number): number {
  return Math.round(cents) / 100
}

/** 12345 → "123.45" (no currency sign, no grouping): for CSV and input fields. */
export function decimalStringFromCents(cents: number): string {
  const sign = cents < 0 ? '-' : ''
  const abs = Math.abs(Math.round(cents))
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`
}

/** The marketplace trades in US dollars: shown in the seller's locale ("$1,299.99"). */
const dollars = new Intl.NumberFormat(undefined, { style: 'currency', currency: 'USD' })
const dollarsOfCents = rememberedFormat((cents) => dollars.format(cents / 100))

/** Cents as the seller reads money ("$1,299.99"); a dash when there is no amount. */
export function formatMoney(cents: number | null | undefined): string {
  if (cents === null || cents === undefined || !Number.isFinite(cents)) return '—'
  return dollarsOfCents(cents)
}

const compactDollars = new Intl.NumberFormat(undefined, { style: 'currency', currency: 'USD', notation: 'compact', maximumFractionDigits: 1 })

/** Cents in few characters, for a chart's axis ("$1.2K", "$3M"). */
export function formatMoneyCompact(cents: number): string {
  return compactDollars.format(cents / 100)
}

/**
 * Money that may not be whole cents (a value the rules refuse, such as 12.345): shown exactly, so a
 * refusal is not hidden behind a rounded, valid-looking amount.
 */
const exactDollars = new Intl.NumberFormat(undefined, { style: 'currency', currency: 'USD', maximumFractionDigits: 6 })

export function formatMoneyExact(cents: number): string {
  return Number.isInteger(cents) ? formatMoney(cents) : exactDollars.format(cents / 100)
}
