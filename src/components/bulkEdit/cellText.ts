/**
 * How the bulk-edit grid shows the value a cell holds, in the seller's locale: a price's decimal text
 * ("1299.00" → "1,299.00"), a quantity as counts are shown (1000000 → "1,000,000"). The cell keeps its
 * value as it is for the editor and the clipboard, so editing starts from plain digits and a copied
 * column pastes into a spreadsheet as plain numbers. The status line says a cell's values the same way.
 */
import { formatNumber } from '@shared/formatCount'

const formats = new Map<string, Intl.NumberFormat>()

/**
 * A price cell's decimal text with every decimal it has: a pending price with three decimals (invalid,
 * marked) is shown exactly, not rounded. A text that is no number (a row not read yet is '') is shown
 * as it is.
 */
export function priceCellText(text: string, locale?: string): string {
  if (!/^-?\d+(\.\d+)?$/.test(text)) return text
  const decimals = text.split('.')[1]?.length ?? 0
  const key = `${locale ?? ''} ${decimals}`
  let format = formats.get(key)
  if (!format) formats.set(key, (format = new Intl.NumberFormat(locale, { minimumFractionDigits: decimals, maximumFractionDigits: decimals })))
  return format.format(Number(text))
}

/** A cell's value as the grid shows it: a price's decimal text, or a quantity. */
export const cellText = (value: string | number): string => (typeof value === 'number' ? formatNumber(value) : priceCellText(value))
