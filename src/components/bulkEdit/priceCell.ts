/**
 * How a price cell shows the decimal text it holds ("1299.00" → "1,299.00"), in the seller's locale,
 * with every decimal it has: a pending price with three decimals (invalid, marked) is shown exactly, not
 * rounded. The cell keeps its text as it is for the editor and the clipboard, so a copied column pastes
 * into a spreadsheet as plain numbers. A text that is no number (a row not read yet is '') is shown as
 * it is.
 */
const formats = new Map<string, Intl.NumberFormat>()

export function priceCellText(text: string, locale?: string): string {
  if (!/^-?\d+(\.\d+)?$/.test(text)) return text
  const decimals = text.split('.')[1]?.length ?? 0
  const key = `${locale ?? ''} ${decimals}`
  let format = formats.get(key)
  if (!format) formats.set(key, (format = new Intl.NumberFormat(locale, { minimumFractionDigits: decimals, maximumFractionDigits: decimals })))
  return format.format(Number(text))
}
