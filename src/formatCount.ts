/** A count with its noun in the seller's locale: 1 → "1 order", 1234 → "1,234 orders". */

const count = new Intl.NumberFormat(undefined)

export function formatCount(n: number, one: string, many: string): string {
  return `${count.format(n)} ${n === 1 ? one : many}`
}
