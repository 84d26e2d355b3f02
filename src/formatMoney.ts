/**
 * Money on screen: integer cents → the seller's locale currency text ("$1,299.99").
 * The marketplace trades in US dollars; cents are converted here, once, for display only.
 */

const dollars = new Intl.NumberFormat(undefined, { style: 'currency', currency: 'USD' })

export function formatMoney(cents: number | null | undefined): string {
  if (cents === null || cents === undefined || !Number.isFinite(cents)) return '—'
  return dollars.format(cents / 100)
}
