/**
 * Debian's Python with openpyxl: a writer and reader of workbooks that shares no code with the app's, for
 * tests of what other spreadsheets make of our files and what we make of theirs. Tests that need it skip
 * where it is not installed.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export const PYTHON = '/usr/bin/python3'

export const hasOpenpyxl = (() => {
  try {
    execFileSync(PYTHON, ['-c', 'import openpyxl'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
})()

/** A cell as openpyxl reads it: what it makes of the value, the number format, and the cell's XLSX type ("s" a string). */
export interface ReadCell {
  kind: 'date' | 'number' | 'text' | 'empty'
  value: string | number | null
  format: string
  type: string
}

export interface ReadWorkbook {
  /** The top-left cell of the part that scrolls ("A2": the header row frozen). */
  freeze: string | null
  /** Each header column's width. */
  widths: (number | null)[]
  /** How many formulas the sheets hold. */
  formulas: number
  rows: ReadCell[][]
}

const READ_WORKBOOK = `
import json, sys, datetime, warnings, zipfile, openpyxl
warnings.simplefilter('ignore')
ws = openpyxl.load_workbook(sys.argv[1]).worksheets[0]
def cell(c):
    v = c.value
    kind = 'date' if isinstance(v, datetime.datetime) else 'number' if isinstance(v, (int, float)) else 'text' if isinstance(v, str) else 'empty'
    return {'kind': kind, 'value': v.isoformat() if kind == 'date' else v, 'format': c.number_format, 'type': c.data_type}
with zipfile.ZipFile(sys.argv[1]) as z:
    sheets = [z.read(n).decode('utf8') for n in z.namelist() if n.startswith('xl/worksheets/')]
letters = [c.column_letter for c in ws[1]]
print(json.dumps({
  'freeze': ws.freeze_panes,
  'widths': [ws.column_dimensions[l].width for l in letters],
  'formulas': sum(s.count('<f>') + s.count('<f ') for s in sheets),
  'rows': [[cell(c) for c in row] for row in ws.iter_rows()],
}))
`

/** The first sheet of a workbook (its bytes, or base64 as an export carries them) as openpyxl reads it. */
export function readWorkbook(file: Buffer | string): ReadWorkbook {
  const dir = mkdtempSync(join(tmpdir(), 'sd-openpyxl-'))
  try {
    const path = join(dir, 'book.xlsx')
    writeFileSync(path, typeof file === 'string' ? Buffer.from(file, 'base64') : file)
    return JSON.parse(execFileSync(PYTHON, ['-c', READ_WORKBOOK, path], { encoding: 'utf8', maxBuffer: 1 << 30 })) as ReadWorkbook
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
