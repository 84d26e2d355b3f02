/**
 * The words an import's report opens with. Rows and changes are different units: a row may stage a
 * price and a quantity. So the rows are said in one list that adds up to the rows read, each row in one
 * part (staged, already up to date, no value to change, not used), and the changes only beside the rows
 * they came from: "11 rows read: 1 row staged 2 changes, 1 row already up to date, 1 row with no value
 * to change, 8 rows not used (below)."
 */
import type { ImportReport } from '@shared/contract'
import { formatCount } from '@shared/formatCount'

type RowCounts = Pick<ImportReport, 'rows' | 'staged' | 'stagedRows' | 'unchanged' | 'blankValues' | 'problems' | 'moreProblems'> &
  Partial<Pick<ImportReport, 'sheet'>>

/** What became of the rows read, every row counted once; the parts that count none are left out. */
export function importRowsSentence(report: RowCounts): string {
  const rows = (n: number) => formatCount(n, 'row', 'rows')
  const notUsed = report.problems.length + report.moreProblems
  const parts = [
    report.unchanged ? `${rows(report.unchanged)} already up to date` : '',
    report.blankValues ? `${rows(report.blankValues)} with no value to change` : '',
    notUsed ? `${rows(notUsed)} not used (below)` : ''
  ].filter(Boolean)
  // Of a workbook of several sheets, which one: the seller may have meant another.
  const read = `${rows(report.rows)} read${report.sheet ? ` from sheet “${report.sheet}”` : ''}`
  if (report.stagedRows === 0) return `${read}, nothing staged${parts.length ? `: ${parts.join(', ')}` : ''}.`
  const staged = `${rows(report.stagedRows)} staged ${formatCount(report.staged, 'change', 'changes')}`
  return `${read}: ${[staged, ...parts].join(', ')}.`
}

/** The staged changes a seller should look at again before applying; '' when none has a warning. */
export function importWarningsSentence(warnings: number): string {
  if (!warnings) return ''
  return `${formatCount(warnings, 'staged change has a warning', 'staged changes have warnings')}: check ${warnings === 1 ? 'it' : 'them'} in the grid before applying.`
}
