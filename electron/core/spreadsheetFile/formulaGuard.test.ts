/**
 * The formula guard of every export: text a spreadsheet would run is made plain text; a file the import
 * reads back (roundTrip) comes back exactly as it was written, in CSV and XLSX.
 */
import { describe, expect, it } from 'vitest'
import { neutralizeFormula, withoutFormulaEscape, workbookText } from './formulaGuard'

const forPeople = { roundTrip: false }
const forImport = { roundTrip: true }

describe('a file people read (orders)', () => {
  it('neutralises formulas in text, not plain numbers', () => {
    for (const [cell, safe] of [
      ['=1+1', "'=1+1"],
      ['+SUM(A1)', "'+SUM(A1)"],
      ['-2+3', "'-2+3"],
      ['@cmd', "'@cmd"],
      ['\tx', "'\tx"],
      ['\rx', "'\rx"],
      ['-12.50', '-12.50'],
      ['plain', 'plain']
    ]) {
      expect(neutralizeFormula(cell!, forPeople)).toBe(safe)
    }
  })

  it('writes text into a workbook as it is (a string cell never runs)', () => {
    for (const text of ['=1+1', "'=1+1", '-12.50', '@cmd', 'plain']) expect(workbookText(text, forPeople)).toBe(text)
  })
})

describe('a file the import reads back (bulk edit)', () => {
  it('neutralises text a spreadsheet would run as a formula', () => {
    for (const text of ['=HYPERLINK("x")', '+1', '-2', '@SUM(A1)', '\tx', '\rx']) expect(neutralizeFormula(text, forImport)).toBe(`'${text}`)
    expect(neutralizeFormula('iPhone 13', forImport)).toBe('iPhone 13')
  })

  it('reads its own neutralised text back as it was, exactly', () => {
    for (const text of ['-ABC', '=1+1', '+44', '@home', "'-ABC", "''=x", "'plain", 'plain', "it's", '']) {
      expect(withoutFormulaEscape(neutralizeFormula(text, forImport)), text).toBe(text)
      expect(withoutFormulaEscape(workbookText(text, forImport)), `${text} (XLSX)`).toBe(text)
    }
    expect(withoutFormulaEscape("'-ABC")).toBe('-ABC')
    expect(withoutFormulaEscape("'plain")).toBe("'plain")
  })

  it('keeps number-like text text: "-12.50" is escaped, and comes back as "-12.50"', () => {
    expect(neutralizeFormula('-12.50', forImport)).toBe("'-12.50")
    expect(withoutFormulaEscape("'-12.50")).toBe('-12.50')
  })
})
