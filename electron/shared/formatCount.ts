/** A count in the seller's locale, with or without its noun: 1 → "1 order", 1234 → "1,234 orders", "1,234". */

const count = new Intl.NumberFormat(undefined)

export const formatNumber = (n: number): string => count.format(n)

export function formatCount(n: number, one: string, many: string): string {
  return `${count.format(n)} ${n === 1 ? one : many}`
}
