/**
 * Counts and quantities as the seller reads them, in their locale, wherever they are shown (the
 * renderer, a message from the main side): 1 → "1 order", 1234 → "1,234 orders", 1000000 → "1,000,000".
 * A number the rules refuse (a quantity of 12.5) keeps every decimal it has, so a refusal is not hidden
 * behind a rounded, valid-looking value. Money has its own formatter (money.ts).
 */

import { rememberedFormat } from './rememberedFormat'

const count = new Intl.NumberFormat(undefined, { maximumFractionDigits: 20 })

export const formatNumber: (n: number) => string = rememberedFormat((n) => count.format(n))

export function formatCount(n: number, one: string, many: string): string {
  return `${formatNumber(n)} ${n === 1 ? one : many}`
}
