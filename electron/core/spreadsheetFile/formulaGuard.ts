/**
 * The one guard against spreadsheet formulas in exported text, for every export (orders, listings,
 * failed changes). A spreadsheet runs a CSV cell that starts with = + - @ tab or CR as a formula, so
 * such text gets a leading apostrophe and opening a file never executes anything a buyer or the
 * marketplace typed. An XLSX string cell never runs, so there text needs no prefix.
 *
 * Files that Seller Desk's import reads back (the bulk-edit exports: `roundTrip`) differ in two ways,
 * so that the import, which removes one apostrophe (withoutFormulaEscape), gets every text back exactly:
 * number-like text ("-12.50" as an SKU) is prefixed too, so the spreadsheet keeps it text instead of
 * reading the number -12.5, and text that already begins with apostrophes before such a character gets
 * one more, in CSV and XLSX alike. Files only people read (orders) leave a plain number such as "-12.50"
 * as it is: no spreadsheet runs it, and a stray apostrophe would only be in the reader's way.
 */

export interface FormulaGuard {
  /** Seller Desk's import reads the file back, so every escape must come off exactly. */
  roundTrip: boolean
}

const FORMULA_START = /^[=+\-@\t\r]/
const ESCAPED_FORMULA_START = /^'+[=+\-@\t\r]/
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/

/** CSV: text a spreadsheet would take for a formula, made plain text with a leading `'`. */
export function neutralizeFormula(text: string, { roundTrip }: FormulaGuard): string {
  if (roundTrip) return FORMULA_START.test(text) || ESCAPED_FORMULA_START.test(text) ? `'${text}` : text
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text
}

/** XLSX: a string cell never runs; only text the import would take for an escaped formula gets one more `'`. */
export function workbookText(text: string, { roundTrip }: FormulaGuard): string {
  return roundTrip && ESCAPED_FORMULA_START.test(text) ? `'${text}` : text
}

/** Import: undoes a `roundTrip` escape (one leading `'` before a formula character), in CSV and XLSX. */
export function withoutFormulaEscape(text: string): string {
  return text.charCodeAt(0) === 0x27 && ESCAPED_FORMULA_START.test(text) ? text.slice(1) : text
}
