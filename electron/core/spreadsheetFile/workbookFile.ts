/**
 * A sheet as an .xlsx workbook, written a part of its rows at a time: each part's cells become the
 * sheet's XML and are deflated into the zip as the part is added (zipArchive.ts), so a sheet of tens of
 * thousands of rows takes many short steps of the core instead of one long one at the end. What the cells
 * are is sheetFile.ts's to say: text a string cell (in the shared strings, each text once), a number,
 * money a number shown with two decimals, an instant a date cell; the header row bold and frozen, the
 * columns of the widths given.
 */
import { dollarsFromCents } from '../../shared/money'
import { wallClockOfInstant } from '../localCalendar'
import { workbookText, type FormulaGuard } from './formulaGuard'
import type { Cell } from './sheetFile'
import { zipArchive } from './zipArchive'

export interface WorkbookColumns {
  header: string[]
  /** Column widths in characters, one per header. */
  widths: number[]
  guard: FormulaGuard
}

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main'
const RELATIONSHIPS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'
const PACKAGE_RELATIONSHIPS = 'http://schemas.openxmlformats.org/package/2006/relationships'
const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'

const CONTENT_TYPES =
  `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
  '<Default ContentType="application/xml" Extension="xml"/>' +
  '<Default ContentType="application/vnd.openxmlformats-package.relationships+xml" Extension="rels"/>' +
  '<Override ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml" PartName="/xl/workbook.xml"/>' +
  '<Override ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml" PartName="/xl/sharedStrings.xml"/>' +
  '<Override ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml" PartName="/xl/styles.xml"/>' +
  '<Override ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml" PartName="/xl/worksheets/sheet1.xml"/>' +
  '</Types>'
const ROOT_RELS = `${XML}<Relationships xmlns="${PACKAGE_RELATIONSHIPS}"><Relationship Id="rId1" Type="${RELATIONSHIPS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`
const WORKBOOK_RELS =
  `${XML}<Relationships xmlns="${PACKAGE_RELATIONSHIPS}">` +
  `<Relationship Id="rId1" Type="${RELATIONSHIPS}/worksheet" Target="worksheets/sheet1.xml"/>` +
  `<Relationship Id="rId2" Type="${RELATIONSHIPS}/sharedStrings" Target="sharedStrings.xml"/>` +
  `<Relationship Id="rId3" Type="${RELATIONSHIPS}/styles" Target="styles.xml"/>` +
  '</Relationships>'
const WORKBOOK = `${XML}<workbook xmlns="${MAIN}" xmlns:r="${RELATIONSHIPS}"><workbookPr/><bookViews><workbookView/></bookViews><sheets><sheet r:id="rId1" sheetId="1" name="Sheet1"/></sheets><calcPr/></workbook>`

/** The cell styles, by their index in cellXfs: the cells say `s="…"`. */
const BOLD = 1
const DATE_TIME = 2
const MONEY = 3
const STYLES =
  `${XML}<styleSheet xmlns="${MAIN}">` +
  '<numFmts count="2"><numFmt numFmtId="100" formatCode="yyyy-mm-dd hh:mm:ss"/><numFmt numFmtId="101" formatCode="0.00"/></numFmts>' +
  '<fonts count="2"><font><family val="2"/><scheme val="minor"/><color theme="1"/></font><font><family val="2"/><scheme val="minor"/><b/><color theme="1"/></font></fonts>' +
  '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
  '<cellXfs count="4"><xf/><xf fontId="1" applyFont="1"/><xf numFmtId="100" applyNumberFormat="1"/><xf numFmtId="101" applyNumberFormat="1"/></cellXfs>' +
  '</styleSheet>'

/** Days from the spreadsheet epoch (1899-12-30, as Excel counts) to 1970-01-01. */
const DAYS_BEFORE_1970 = 25_569
const DAY_MS = 86_400_000

/** Characters XML 1.0 does not allow (C0 controls but tab, LF and CR; unpaired surrogates; U+FFFE, U+FFFF) or discourages (C1 controls, noncharacters). */
const NOT_IN_XML =
  /[\0-\x08\x0B\x0C\x0E-\x1F\x7F-\x84\x86-\x9F\uFDD0-\uFDEF\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g
const NEEDS_WORK = /[&<>\0-\x08\x0B\x0C\x0E-\x1F\x7F-\x84\x86-\x9F\uD800-\uDFFF\uFDD0-\uFDEF\uFFFE\uFFFF]/

function xmlText(text: string): string {
  if (!NEEDS_WORK.test(text)) return text
  return text.replace(NOT_IN_XML, '').replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;')
}

/** "A", "B", …, "Z", "AA", … for the 0-based column `index`. */
function columnLetters(index: number): string {
  const letter = String.fromCharCode(65 + (index % 26))
  return index < 26 ? letter : columnLetters(Math.floor(index / 26) - 1) + letter
}

/** An instant as a date cell's number: days since the epoch on the wall clock of its zone, to the whole second (as the CSV writes it: the format shows seconds, and a spreadsheet would round a fraction up into the next one). */
function dateSerial(cell: { at: string; timeZone?: string }): number {
  const ms = Math.floor(Date.parse(cell.at) / 1000) * 1000
  return (cell.timeZone ? wallClockOfInstant(ms, cell.timeZone) : ms) / DAY_MS + DAYS_BEFORE_1970
}

/** The workbook built as rows are added, in order; `done` once, after the last. */
export function workbookWriter({ header, widths, guard }: WorkbookColumns) {
  const zip = zipArchive()
  zip.file('[Content_Types].xml', CONTENT_TYPES)
  zip.file('_rels/.rels', ROOT_RELS)
  zip.file('xl/_rels/workbook.xml.rels', WORKBOOK_RELS)
  zip.file('xl/workbook.xml', WORKBOOK)
  zip.file('xl/styles.xml', STYLES)
  const sheet = zip.stream('xl/worksheets/sheet1.xml')
  const sharedStrings = zip.stream('xl/sharedStrings.xml')

  const letters: string[] = []
  const column = (index: number) => (letters[index] ??= columnLetters(index))
  const stringIds = new Map<string, number>()
  // The shared strings a part brings, written with the part: each write is a trip to zlib's pool.
  let newStrings = ''
  const stringId = (text: string): number => {
    let id = stringIds.get(text)
    if (id === undefined) {
      id = stringIds.size
      stringIds.set(text, id)
      // Leading or trailing spaces are kept only when the text says so.
      newStrings += text.trim().length === text.length ? `<si><t>${xmlText(text)}</t></si>` : `<si><t xml:space="preserve">${xmlText(text)}</t></si>`
    }
    return id
  }

  // A value that is no number (NaN, Infinity, a time that cannot be read) is an empty cell: written as
  // it is, Excel says the file is damaged and offers to repair it.
  const numberCell = (ref: string, value: number, style = ''): string => (Number.isFinite(value) ? `<c r="${ref}"${style}><v>${value}</v></c>` : '')
  const cellXml = (cell: Cell | undefined, ref: string): string => {
    if (cell === null || cell === undefined) return ''
    if (typeof cell === 'string') {
      const text = workbookText(cell, guard)
      return text === '' ? '' : `<c r="${ref}" t="s"><v>${stringId(text)}</v></c>`
    }
    if (typeof cell === 'number') return numberCell(ref, cell)
    if ('cents' in cell) return numberCell(ref, dollarsFromCents(cell.cents), ` s="${MONEY}"`)
    return numberCell(ref, dateSerial(cell), ` s="${DATE_TIME}"`)
  }

  const cols = widths.map((width, index) => (width ? `<col min="${index + 1}" max="${index + 1}" width="${width}" customWidth="1"/>` : '')).join('')
  sheet.write(
    `${XML}<worksheet xmlns="${MAIN}" xmlns:r="${RELATIONSHIPS}">` +
      '<sheetViews><sheetView tabSelected="1" workbookViewId="0"><pane ySplit="1" xSplit="0" topLeftCell="A2" activePane="bottomRight" state="frozen"/></sheetView></sheetViews>' +
      (cols ? `<cols>${cols}</cols>` : '') +
      '<sheetData><row r="1">' +
      header.map((title, index) => `<c r="${column(index)}1" s="${BOLD}" t="s"><v>${stringId(title)}</v></c>`).join('') +
      '</row>'
  )
  sharedStrings.write(`<?xml version="1.0"?><sst xmlns="${MAIN}">${newStrings}`)
  newStrings = ''
  let rowNumber = 1
  let finished = false

  return {
    /** The next rows; resolves once the deflater has room for more. */
    async add(rows: readonly (readonly Cell[])[]): Promise<void> {
      if (finished) throw new Error('The workbook is already written.')
      let xml = ''
      for (const row of rows) {
        rowNumber++
        xml += `<row r="${rowNumber}">`
        for (let index = 0; index < row.length; index++) xml += cellXml(row[index], column(index) + rowNumber)
        xml += '</row>'
      }
      if (xml) sheet.write(xml)
      if (newStrings) sharedStrings.write(newStrings)
      newStrings = ''
      await Promise.all([sheet.drained(), sharedStrings.drained()])
    },
    /** The .xlsx bytes. */
    async done(): Promise<Buffer> {
      if (finished) throw new Error('The workbook is already written.')
      finished = true
      sheet.write('</sheetData></worksheet>')
      sharedStrings.write('</sst>')
      await Promise.all([sheet.end(), sharedStrings.end()])
      return zip.bytes()
    },
    /** Gives the workbook up (its export failed or was stopped): nothing more is written, and `done` is refused. */
    abort(): void {
      finished = true
      zip.abort()
    }
  }
}
