import { describe, expect, it } from 'vitest'
import type { ImportProblem } from '@shared/contract'
import { importRowsSentence, importWarningsSentence } from './importSummary'

const problems = (n: number): ImportProblem[] => Array.from({ length: n }, (_, i) => ({ row: i + 2, message: 'Price “abc” is not a number.' }))
const counts = { rows: 0, staged: 0, stagedRows: 0, unchanged: 0, blankValues: 0, problems: problems(0), moreProblems: 0 }

describe('importRowsSentence', () => {
  it('counts rows apart from changes, each row once: the walkthrough’s 11 rows add up', () => {
    expect(importRowsSentence({ ...counts, rows: 11, staged: 2, stagedRows: 1, unchanged: 1, blankValues: 1, problems: problems(8) })).toBe(
      '11 rows read: 1 row staged 2 changes, 1 row already up to date, 1 row with no value to change, 8 rows not used (below).'
    )
  })

  it('leaves out the parts that count no row', () => {
    expect(importRowsSentence({ ...counts, rows: 1, staged: 1, stagedRows: 1 })).toBe('1 row read: 1 row staged 1 change.')
    expect(importRowsSentence({ ...counts, rows: 5, staged: 1, stagedRows: 1, problems: problems(4) })).toBe(
      '5 rows read: 1 row staged 1 change, 4 rows not used (below).'
    )
  })

  it('names the sheet read, of a workbook of several', () => {
    expect(importRowsSentence({ ...counts, rows: 2, staged: 2, stagedRows: 2, sheet: 'Update' })).toBe(
      '2 rows read from sheet “Update”: 2 rows staged 2 changes.'
    )
    expect(importRowsSentence({ ...counts, rows: 2, unchanged: 2, sheet: 'Update' })).toBe(
      '2 rows read from sheet “Update”, nothing staged: 2 rows already up to date.'
    )
  })

  it('says when nothing was staged, then what became of the rows', () => {
    expect(importRowsSentence({ ...counts, rows: 30, unchanged: 30 })).toBe('30 rows read, nothing staged: 30 rows already up to date.')
    expect(importRowsSentence({ ...counts, rows: 3, blankValues: 1, problems: problems(2) })).toBe(
      '3 rows read, nothing staged: 1 row with no value to change, 2 rows not used (below).'
    )
  })

  it('counts the problems beyond those listed as rows not used', () => {
    expect(importRowsSentence({ ...counts, rows: 1_500, staged: 2_600, stagedRows: 1_300, problems: problems(150), moreProblems: 50 })).toBe(
      '1,500 rows read: 1,300 rows staged 2,600 changes, 200 rows not used (below).'
    )
  })
})

describe('importWarningsSentence', () => {
  it('says how many staged changes have warnings, and where to check them; nothing when none has', () => {
    expect(importWarningsSentence(0)).toBe('')
    expect(importWarningsSentence(1)).toBe('1 staged change has a warning: check it in the grid before applying.')
    expect(importWarningsSentence(2)).toBe('2 staged changes have warnings: check them in the grid before applying.')
  })
})
