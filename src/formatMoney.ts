/**
 * Money on screen: integer cents → the seller's locale currency text ("$1,299.99").
 * The marketplace trades in US dollars; cents are converted here, once, for display only.
 */

const dollars = new Intl.NumberFormat(undefined, { style: 'currency', currency: 'USD' })

export function formatMoney(cents: number | null | undefined): string {
  if (cents === null || cents === undefined || !Number.isFinite(cents)) return '—'
  return dollars.format(cents / 100)
}

/**
 * Money that may not be whole cents (a value the rules refuse, such as 12.345): shown exactly, so a
 * refusal is not hidden behind a rounded, valid-looking amount.
 */
const exactDollars = new Intl.NumberFormat(undefined, { style: 'currency', currency: 'USD', maximumFractionDigits: 6 })

export function formatMoneyExact(cents: number): string {
  return Number.isInteger(cents) ? formatMoney(cents) : exactDollars.format(cents / 100)
}
