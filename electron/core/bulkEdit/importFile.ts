/**
 * Importing prices and quantities from a file the seller picked (CSV or XLSX), in main: the file is
 * checked as a whole (size, binary or wrong encoding, the columns it needs), then row by row (in a CSV,
 * as many fields as the header; a known listing by `id` or `sku`, each listing once, values by the same
 * rules as a single edit). Ids and SKUs are compared in any letter case and SKUs without the spaces
 * around them; a SKU written exactly as a listing's finds that one first (see listingFinder). A row with a problem stages nothing and is reported with its row number; a
 * blank cell leaves that value unchanged.
 * Importing only proposes changes for the change set; it never applies anything.
 *
 * The header is the first row naming an id or SKU column, so a title or a note may stand above it; a
 * column is known by a few names (see COLUMN_NAMES). A workbook's data may be on any sheet a seller sees:
 * the one it opens on, else the first with such a header. A hidden sheet is never read, and the report
 * names the sheet read.
 *
 * Against what is already staged, a file's value for a cell:
 * - the same as the pending one: nothing to do;
 * - the listing's current value while a change is pending there: the pending change is kept (a sheet
 *   exported before the seller staged it says "as it is now", not "undo my change") and counted as kept;
 * - anything else: staged, and where it replaces a pending change, counted as replaced.
 * So an import never removes a pending change, and every pending change it replaces is reported.
 */
import Papa from 'papaparse'
import { noPause, stepStartsAt, type Pause } from '../eventLoopTurns'
import { BULK_IMPORT_MAX_BYTES, type BulkField, type ImportProblem } from '../../shared/contract'
import { SellerDeskError } from '../../shared/errors'
import { LISTING_FIELD_SET, numberStyleOf, type FieldSet, type NumberStyle } from '../../shared/listingFields'
import { valueProblemSentence } from '../../shared/valueProblem'
import { fieldValue, proposedChange, type ProposedChange } from './changeSet'
import type { ImportListing } from './currentListings'
import { withoutFormulaEscape } from '../spreadsheetFile/formulaGuard'
import { checkWorkbookArchive } from './workbookArchive'

/** Problems listed in a report; more are counted. */
export const MAX_LISTED_PROBLEMS = 200

/** The file's cells, as text, with each record's row number in the file (row 1 is its first row, the header or a title above it). */
export interface ImportTable {
  format: 'csv' | 'xlsx'
  /** The header row's cells as the file writes them (trimmed): messages name the columns so; matching ignores case (columnName). */
  header: string[]
  records: { row: number; cells: string[] }[]
  /** Rows the reader itself could not read. */
  problems: ImportProblem[]
  /** XLSX: the cells holding a formula, as `row:column` (row in the file, column index from 0). */
  formulaCells?: Set<string>
  /** XLSX of more than one sheet: the sheets read (in the order tried), the one the table is from, and the hidden ones (never read). */
  sheets?: { read: string[]; used: string; hidden: string[] }
  /** How the file writes numbers; undefined for a semicolon CSV, whose cells tell (see numberStyleOf). */
  numbers?: NumberStyle
}

export interface ImportOptions {
  /** Gives the thread back between parts of a large file (see eventLoopTurns.ts). */
  pause?: Pause
  /** How the file writes numbers, when the seller says so; otherwise a semicolon CSV's cells decide. */
  numbers?: NumberStyle
}

/**
 * What an import found, every row read counted once: `rows` = `stagedRows` + `unchanged` + `blankValues` +
 * the rows with problems (`problems`, one per row), so a report can say what became of each row.
 */
export interface ImportResult {
  format: 'csv' | 'xlsx'
  /** A workbook of more than one sheet: the sheet read (ImportReport.sheet). */
  sheet: string | null
  rows: number
  /** Changes to stage: each one changes what is staged. */
  proposed: ProposedChange[]
  /** Rows (without problems) that propose at least one change: a row may propose one per field. */
  stagedRows: number
  /** Rows (without problems) whose every value is the listing's current one (a pending change there is kept) or the pending one. */
  unchanged: number
  /** Rows (without problems) with no value to change: every field's cell is blank. */
  blankValues: number
  /** Of `proposed`, those replacing a pending change to the same cell. */
  replaced: number
  /** Pending changes kept where the file has the listing's current value. */
  kept: number
  problems: ImportProblem[]
}

/** The value a pending change sets on a listing's field, or undefined when none is pending there. */
export type PendingValue = (sellRequestId: string, field: BulkField) => number | undefined

const fileError = (fileName: string, message: string) => new SellerDeskError('invalid-input', `${fileName}: ${message}`)

const startsWith = (bytes: Uint8Array, ...prefix: number[]) => prefix.every((byte, i) => bytes[i] === byte)

/** Text in UTF-16 without a BOM: in its first bytes, every other byte is zero (ASCII characters), and only those. */
function looksLikeUtf16(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, 512) & ~1
  if (n < 4) return false
  for (const zeroAt of [0, 1]) {
    let zeros = 0
    let others = 0
    for (let i = 0; i < n; i += 2) {
      if (bytes[i + zeroAt] === 0) zeros++
      if (bytes[i + 1 - zeroAt] === 0) others++
    }
    if (zeros >= (n / 2) * 0.9 && others === 0) return true
  }
  return false
}

/** Control characters other than tab, CR and LF, and the replacement character: what text from a binary file holds. */
const CONTROL = /[\0-\x08\x0B\x0C\x0E-\x1F\uFFFD]/g

/** How many control characters `text` holds, counted up to one past `limit` (a regex finds them faster than a loop over the text). */
function controlCharacters(text: string, limit: number): number {
  CONTROL.lastIndex = 0
  let count = 0
  while (count <= limit && CONTROL.exec(text)) count++
  return count
}

/** Bytes of a CSV file decoded (or looked through for a zero) at a time, and characters looked through for control characters: a pause between parts. */
const TEXT_PART = 256 * 1024

/**
 * The text of a CSV file: UTF-8 (BOM optional) or UTF-16 with BOM; anything binary is refused. Read a
 * part at a time (a file may be as large as BULK_IMPORT_MAX_BYTES), with a pause between parts.
 */
async function csvText(fileName: string, bytes: Uint8Array, pause: Pause): Promise<string> {
  const parts: string[] = []
  try {
    let decoder: InstanceType<typeof TextDecoder>
    let body = bytes
    if (startsWith(bytes, 0xff, 0xfe)) [decoder, body] = [new TextDecoder('utf-16le', { fatal: true }), bytes.subarray(2)]
    else if (startsWith(bytes, 0xfe, 0xff)) [decoder, body] = [new TextDecoder('utf-16be', { fatal: true }), bytes.subarray(2)]
    else {
      if (looksLikeUtf16(bytes))
        throw fileError(
          fileName,
          'the text is UTF-16 without a byte-order mark, which Seller Desk cannot tell apart from binary data. In Excel choose “CSV UTF-8 (Comma delimited)”, or save the file as XLSX, and import it again.'
        )
      // A zero anywhere says binary before any part is decoded: binary data is not reported as a wrong encoding.
      for (let at = 0; at < bytes.length; at += TEXT_PART) {
        if (at > 0) await pause()
        if (bytes.subarray(at, at + TEXT_PART).includes(0))
          throw fileError(fileName, 'this is not a text file (it contains binary data). Export your sheet as CSV (UTF-8) or XLSX and pick that file.')
      }
      decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false })
    }
    // Streamed: a character cut between two parts is decoded whole, and a BOM is taken off the first.
    for (let at = 0; at < body.length; at += TEXT_PART) {
      await pause()
      parts.push(decoder.decode(body.subarray(at, at + TEXT_PART), { stream: true }))
    }
    parts.push(decoder.decode())
  } catch (error) {
    if (error instanceof SellerDeskError) throw error
    throw fileError(fileName, 'the text is not UTF-8. In Excel choose “CSV UTF-8 (Comma delimited)”, or save the file as XLSX, and import it again.')
  }
  const text = parts.join('')
  const allowed = Math.max(2, text.length / 1000)
  let control = 0
  for (let at = 0; at < text.length && control <= allowed; at += TEXT_PART) {
    await pause()
    control += controlCharacters(text.slice(at, at + TEXT_PART), allowed - control)
  }
  if (control > allowed)
    throw fileError(fileName, 'this does not look like a CSV file (it contains binary data). Export your sheet as CSV (UTF-8) or XLSX and pick that file.')
  return text
}

/**
 * A cell as text; text our export kept from running as a formula (a leading ') reads back as it was.
 * A workbook's number as the spreadsheet shows it at most: 15 significant digits. A value computed and
 * pasted as a value keeps the leftovers of binary fractions beyond those digits, and they are no decimals
 * the seller typed. A date as its day (and time, when it has one).
 */
function cellText(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'number') return String(Number(value.toPrecision(15)))
  if (value instanceof Date) {
    // To the minute: a workbook's time is a fraction of a day, read back a hair short (14:29:59.999).
    const iso = new Date(Math.round(value.getTime() / 60_000) * 60_000).toISOString()
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${iso.slice(11, 16)}`
  }
  return withoutFormulaEscape(String(value).trim())
}

/** How many rows holding something may stand above the header (a title, a date, a note to whoever fills it in). */
const HEADER_SEARCH_ROWS = 10

/** A header row's cells as the table keeps them: without a BOM, trimmed, in the file's letter case (messages name them as the seller wrote them). */
const headerCells = (cells: string[]) => cells.map((name) => name.replace(/^\uFEFF/, '').trim())

/**
 * Where a sheet's header is: the first of its first rows holding something that names an id or SKU
 * column; when none does, the first row holding something, whose columns the error then names. -1: none.
 */
function headerRow(rows: string[][]): { index: number; named: boolean } {
  let first = -1
  for (let i = 0, seen = 0; i < rows.length && seen < HEADER_SEARCH_ROWS; i++) {
    const cells = rows[i]!
    if (!cells.some((cell) => cell !== '')) continue
    if (first < 0) first = i
    if (namesListings(headerCells(cells))) return { index: i, named: true }
    seen++
  }
  return { index: first, named: false }
}

/** The start of a CSV the delimiter is guessed from (its first 100 lines that hold something). */
const SAMPLE_CHARS = 64 * 1024

/** Characters of CSV text parsed at a time: a small step, so the pause decides where a turn ends. */
const CSV_PART_CHARS = 16 * 1024

/** Whitespace as String.prototype.trim sees it (Papa's test for what may stand between a closing quote and what follows). */
const WHITESPACE = /\s/

/**
 * Where a part of `text` may end at or after `from`: before a line break that ends a row, read as Papa
 * reads a file, from `start`, where a row begins. A quote opens a field only at its start; "" inside is
 * a quote; a quote closes the field when, past nothing but whitespace (any that trim removes, a tab or a
 * CR too), the nearest delimiter or line break follows, or when it is the text's last character;
 * otherwise it is part of the field. Answers the end and the break's length (0: the text's end).
 */
function partEnd(text: string, start: number, from: number, delimiter: string, newline: string, firstQuote: number): [end: number, breakLength: number] {
  // No quote (`firstQuote`: the first at or after `start`, -1: none) before the first line break at or
  // after `from`: no field up to it is quoted, so that break ends a row, found without reading the part
  // a character at a time.
  const lineBreak = text.indexOf(newline, from)
  if (firstQuote < 0 || (lineBreak >= 0 && firstQuote > lineBreak)) return lineBreak < 0 ? [text.length, 0] : [lineBreak, newline.length]
  let quoted = false
  let fieldStart = true
  // The nearest delimiter and line break at or after a closing quote's next character, kept between
  // quotes (as Papa keeps them) so a file of many quoted fields is not searched to its end each time.
  let nextDelimiter = 0
  let nextNewline = 0
  /** How many whitespace characters stand between `from` and `to` when nothing else does, else 0. */
  const whitespaceBefore = (from: number, to: number) => {
    if (to < 0) return 0
    for (let i = from; i < to; i++) if (!WHITESPACE.test(text[i]!)) return 0
    return to - from
  }
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (quoted) {
      if (c !== 0x22) continue
      if (i === text.length - 1) return [text.length, 0]
      if (text.charCodeAt(i + 1) === 0x22) {
        i++
        continue
      }
      if (nextDelimiter !== -1 && nextDelimiter <= i) nextDelimiter = text.indexOf(delimiter, i + 1)
      if (nextNewline !== -1 && nextNewline <= i) nextNewline = text.indexOf(newline, i + 1)
      const nearest = nextNewline === -1 ? nextDelimiter : Math.min(nextDelimiter, nextNewline)
      const toDelimiter = i + 1 + whitespaceBefore(i + 1, nearest)
      if (text.startsWith(delimiter, toDelimiter)) {
        quoted = false
        fieldStart = true
        i = toDelimiter + delimiter.length - 1
        continue
      }
      const toNewline = i + 1 + whitespaceBefore(i + 1, nextNewline)
      if (text.startsWith(newline, toNewline)) {
        quoted = false
        fieldStart = false
        i = toNewline - 1
      }
    } else if (c === 0x22 && fieldStart) {
      quoted = true
      fieldStart = false
    } else if (text.startsWith(newline, i)) {
      if (i >= from) return [i, newline.length]
      i += newline.length - 1
      fieldStart = true
    } else if (text.startsWith(delimiter, i)) {
      i += delimiter.length - 1
      fieldStart = true
    } else fieldStart = false
  }
  return [text.length, 0]
}

/** The start of a CSV Papa guesses the line break from (see lineBreakOf). */
const LINE_BREAK_SAMPLE_CHARS = 1024 * 1024

/**
 * The line break Papa guesses for `text` (guessLineEndings), read a part at a time with a pause between
 * parts: at once its guess goes over the first megabyte several times and cuts it into an array a line
 * each, one long turn. Papa guesses from that megabyte without its quoted stretches (a quote up to the
 * next one; a last quote without a pair stays, and so does what follows it): “\n” when it holds no CR or
 * an LF comes before the first CR; else “\r\n” when at least half of the pieces between its CRs (the
 * first one, before any, too) start with an LF; else “\r”.
 */
export async function lineBreakOf(text: string, pause: Pause, partChars = CSV_PART_CHARS): Promise<'\r' | '\n' | '\r\n'> {
  const end = Math.min(text.length, LINE_BREAK_SAMPLE_CHARS)
  // Counted on the text outside quoted stretches, as if they were cut out: its length so far, where its
  // first CR and first LF are, how many CRs and LFs, how many pieces start with an LF, and its last character.
  let length = 0
  let firstCr = -1
  let firstLf = -1
  let crs = 0
  let lfs = 0
  let startingWithLf = 0
  let last = ''
  const outside = (from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const c = text[i]!
      if (c === '\r') {
        if (firstCr < 0) firstCr = length
        crs++
      } else if (c === '\n') {
        if (firstLf < 0) firstLf = length
        lfs++
        if (length === 0 || last === '\r') startingWithLf++
      }
      last = c
      length++
    }
  }
  // Where the quoted stretch being read began (-1: none is).
  let openQuote = -1
  for (let start = 0; start < end; start += partChars) {
    if (start > 0) await pause()
    const to = Math.min(end, start + partChars)
    for (let i = start; i < to;) {
      const quote = text.indexOf('"', i)
      const at = quote < 0 || quote >= to ? to : quote
      if (openQuote < 0) outside(i, at)
      if (at === to) break
      openQuote = openQuote < 0 ? at : -1
      i = at + 1
    }
  }
  // A last quote without a pair is not taken out: it and what follows count as outside.
  if (openQuote >= 0)
    for (let from = openQuote; from < end; from += partChars) {
      await pause()
      outside(from, Math.min(end, from + partChars))
    }
  const pieces = crs + 1
  const lfFirst = lfs > 0 && firstLf < (firstCr < 0 ? length : firstCr)
  if (crs === 0 || lfFirst) return '\n'
  return startingWithLf >= pieces / 2 ? '\r\n' : '\r'
}

/**
 * Papa's parse of `text`, a part of lines at a time with a pause between parts: each part ends with a
 * line break outside quotes, so the rows, and the rows the errors name, are those of one whole parse.
 * The break stays in its part: Papa reads a closing quote by what follows it up to the next line break
 * (`"a" ` then a break closes the field; `"a" ` then the end does not).
 */
export async function parseCsvInParts(
  text: string,
  delimiter: string,
  pause: Pause,
  partChars = CSV_PART_CHARS
): Promise<{ data: string[][]; errors: Papa.ParseError[] }> {
  const data: string[][] = []
  const errors: Papa.ParseError[] = []
  // The line break a whole parse would find (Papa guesses it from the start of the text), for every part.
  const newline = await lineBreakOf(text, pause, partChars)
  await pause()
  // The first quote at or after the part's start (-1: none): looked for again only once a part has gone
  // past it, so a file with few quotes is not searched to its end for every part.
  let nextQuote = text.indexOf('"')
  for (let start = 0; ;) {
    if (nextQuote >= 0 && nextQuote < start) nextQuote = text.indexOf('"', start)
    const [end, breakLength] = partEnd(text, start, start + partChars, delimiter, newline, nextQuote)
    const slice = text.slice(start, end + breakLength)
    // A text ending with a break ends with a row of one empty cell, as in a whole parse (Papa reads an empty text as none).
    if (slice === '' && start > 0) data.push([''])
    else {
      const part = Papa.parse<string[]>(slice, { delimiter, newline, skipEmptyLines: false })
      // A part ending with a break ends with the empty row Papa reads after it: the next part's first row.
      if (breakLength > 0) part.data.pop()
      for (const error of part.errors) errors.push(error.row === undefined ? error : { ...error, row: error.row + data.length })
      for (const row of part.data) data.push(row)
    }
    if (breakLength === 0) return { data, errors }
    start = end + breakLength
    await pause()
  }
}

/** How sellers call a CSV's delimiter. */
const DELIMITER_NAMES: Record<string, string> = { ',': 'comma', ';': 'semicolon', '\t': 'tab', '|': 'vertical bar (|)' }

/**
 * The CSV rows whose values may not stand under their columns, each with why. A row with more fields
 * than the header, or fewer, has its values under the wrong columns (an unquoted 1,299.00 is two fields;
 * a value deleted with its delimiter moves every later one left), and which value went where cannot be
 * told, so the row is reported rather than read.
 *
 * Only one difference is taken as the writer's way and not the row's: empty fields past the header's
 * end on most rows (a writer ending each row, but not the header, with a delimiter); those rows are then
 * the measure. Otherwise even an extra empty field at a row's end, or a missing one, is reported:
 * `id,1,299.00,` is as likely an unquoted price before an empty quantity as a price and quantity before
 * a stray comma, and a row without its last empty cells looks like one with a value deleted.
 */
async function fieldCountProblems(
  records: ImportTable['records'],
  header: string[],
  delimiter: string,
  skip: Set<number>,
  pause: Pause
): Promise<ImportProblem[]> {
  const onlyEmptyFrom = (cells: string[], from: number) => {
    for (let i = from; i < cells.length; i++) if (cells[i] !== '') return false
    return true
  }
  // Rows by field count, of those longer than the header by empty fields only.
  const longer = new Map<number, number>()
  let counted = 0
  for (const { cells } of records) {
    if (stepStartsAt(counted++)) await pause()
    if (cells.length > header.length && onlyEmptyFrom(cells, header.length)) longer.set(cells.length, (longer.get(cells.length) ?? 0) + 1)
  }
  let fields = header.length
  for (const [count, rows] of longer) if (rows * 2 > records.length) fields = count
  const measure = fields === header.length ? 'the header has' : 'most rows have'
  const name = DELIMITER_NAMES[delimiter] ?? `“${delimiter}”`
  const problems: ImportProblem[] = []
  let i = 0
  for (const { row, cells } of records) {
    if (stepStartsAt(i++)) await pause()
    if (cells.length === fields || skip.has(row)) continue
    const counts = `This row has ${cells.length} fields but ${measure} ${fields}, so its values may be under the wrong columns.`
    const quotes = `a value with a ${name} in it needs quotes around it${delimiter === ',' ? ' ("1,299.00")' : ''}.`
    problems.push({
      row,
      message:
        cells.length < fields
          ? `${counts} A value may have been deleted together with its ${name}: to leave a value unchanged, empty it and keep its ${name}.`
          : onlyEmptyFrom(cells, fields)
            ? `${counts} If it ends with an extra ${name}, remove that; ${quotes}`
            : `${counts} ${quotes.charAt(0).toUpperCase()}${quotes.slice(1)}`
    })
  }
  return problems
}

/** Reads a file into rows of text cells. Throws a SellerDeskError naming the file when it cannot be read. */
export async function readImportTable(fileName: string, bytes: Uint8Array, options: ImportOptions = {}): Promise<ImportTable> {
  if (bytes.length > BULK_IMPORT_MAX_BYTES)
    throw fileError(fileName, `the file is larger than ${BULK_IMPORT_MAX_BYTES / 1024 / 1024} MB. Split it into smaller files.`)
  if (bytes.length === 0) throw fileError(fileName, 'the file is empty.')
  const isZip = startsWith(bytes, 0x50, 0x4b, 0x03, 0x04)
  if (startsWith(bytes, 0xd0, 0xcf, 0x11, 0xe0)) throw fileError(fileName, 'this is an old Excel (.xls) file. Save it as .xlsx or CSV and import it again.')

  let rows: string[][]
  const problems: ImportProblem[] = []
  let format: 'csv' | 'xlsx'
  let formulaCells: Set<string> | undefined
  let sheets: ImportTable['sheets']
  // XLSX holds numbers as numbers (read here as 1299.5), and a comma CSV cannot use decimal commas.
  let numbers: NumberStyle | undefined = options.numbers ?? 'point'
  const pause = options.pause ?? noPause
  // CSV: what separates its fields, for the field-count check below.
  let csvDelimiter: string | undefined
  if (isZip) {
    format = 'xlsx'
    // Sizes and entries are checked before the reader unpacks anything (a small file may unpack to gigabytes).
    const check = checkWorkbookArchive(bytes)
    if (!check.ok) throw fileError(fileName, check.problem)
    formulaCells = check.formulaCells
    // Loaded with the first workbook read, not at every start of the core: most sellers never import one.
    const { readSheet } = await import('read-excel-file/node')
    const input = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    // The sheets a seller sees, the one the workbook opens on first, then the others in its order, until
    // one has a header naming an id or SKU column. A hidden sheet is never read: its values are not the
    // ones the seller looked at.
    const visible = check.sheets.filter((sheet) => !sheet.hidden)
    const hidden = check.sheets.filter((sheet) => sheet.hidden).map((sheet) => sheet.name)
    if (visible.length === 0)
      throw fileError(
        fileName,
        'every sheet of this workbook is hidden. Unhide the sheet with your changes (in Excel: right-click a sheet tab, Unhide), save it, and import it again.'
      )
    const order = [...visible.filter((sheet) => sheet.name === check.activeSheet), ...visible.filter((sheet) => sheet.name !== check.activeSheet)]
    const read: { name: string; rows: string[][] }[] = []
    try {
      if (check.sheets.length === 1) read.push({ name: order[0]!.name, rows: (await readSheet(input)).map((row) => row.map(cellText)) })
      else
        for (const sheet of order) {
          read.push({ name: sheet.name, rows: (await readSheet(input, sheet.name)).map((row) => row.map(cellText)) })
          if (headerRow(read[read.length - 1]!.rows).named) break
        }
    } catch {
      throw fileError(fileName, 'this file could not be read as an Excel workbook (.xlsx). Open it in Excel, save it again, or export it as CSV.')
    }
    // None with a header: the first holding something, so the error names its columns.
    const used = read.find((sheet) => headerRow(sheet.rows).named) ?? read.find((sheet) => headerRow(sheet.rows).index >= 0) ?? read[0]!
    rows = used.rows
    if (check.sheets.length > 1) {
      sheets = { read: read.map((sheet) => sheet.name), used: used.name, hidden }
      // This sheet's formulas, as the archive check noted them; a sheet it did not find by that name is not read unchecked.
      const usedFormulas = check.formulaCellsBySheet.get(used.name)
      if (!usedFormulas)
        throw fileError(fileName, `the sheet “${used.name}” could not be checked for formulas. Move its rows to the first sheet, or export it as CSV.`)
      formulaCells = usedFormulas
    }
  } else {
    if (/\.xlsx$/i.test(fileName)) throw fileError(fileName, 'this is not an Excel workbook (.xlsx), although its name says so.')
    format = 'csv'
    const text = await csvText(fileName, bytes, pause)
    // Decoding and checking the text, guessing its delimiter, guessing its line break: a pause after each,
    // which may end a turn there (together they go over the whole text and then some).
    await pause()
    // The delimiter is guessed from the lines that hold something: Papa counts a blank line (the one after
    // the last newline) as a row of one field, which would hide a two-column file's semicolons.
    const head = text.length > SAMPLE_CHARS ? text.slice(0, SAMPLE_CHARS).split(/\r?\n/).slice(0, -1) : text.split(/\r?\n/)
    const sample = head
      .filter((line) => line.trim() !== '')
      .slice(0, 100)
      .join('\n')
    const delimiter = Papa.parse<string[]>(sample, { delimitersToGuess: [',', ';', '\t', '|'] }).meta.delimiter
    csvDelimiter = delimiter
    await pause()
    const parsed = await parseCsvInParts(text, delimiter, pause)
    // Each row's cells as text in place: a copy of 50,000 rows would be as many more arrays for the collector to move.
    rows = parsed.data
    for (let r = 0; r < rows.length; r++) {
      if (stepStartsAt(r)) await pause()
      const row = rows[r]!
      for (let i = 0; i < row.length; i++) row[i] = cellText(row[i])
    }
    // A spreadsheet saves a semicolon CSV where the comma is the decimal mark (Excel and LibreOffice in
    // European locales: 1299,99 and 1.299,50), but not only there: its cells decide (importChanges).
    if (!options.numbers && delimiter === ';') numbers = undefined
    for (const error of parsed.errors) {
      if (error.type === 'Quotes' && error.row !== undefined)
        problems.push({ row: error.row + 1, message: 'A quote (") is not closed on this row; the rest of the file may be read wrongly.' })
    }
  }

  const { index: headerIndex, named } = headerRow(rows)
  if (headerIndex < 0) throw fileError(fileName, 'the file has no rows.')
  const header = headerCells(rows[headerIndex]!)
  const records: ImportTable['records'] = []
  for (let i = headerIndex + 1; i < rows.length; i++) {
    if (stepStartsAt(i)) await pause()
    const cells = rows[i]!
    if (cells.some((cell) => cell !== '')) records.push({ row: i + 1, cells })
  }
  if (csvDelimiter !== undefined) {
    // A row the reader already could not read (an open quote) is not reported twice.
    const unread = new Set(problems.map((problem) => problem.row))
    for (const problem of await fieldCountProblems(records, header, csvDelimiter, unread, pause)) problems.push(problem)
  }
  // A header without an id or SKU column is left to columnsOf, whose message names the columns found.
  if (named && records.length === 0)
    throw fileError(fileName, `the file has a header row but no rows of changes below it${sheets ? ` (sheet “${sheets.used}”)` : ''}.`)
  return {
    format,
    header,
    records,
    problems,
    ...(numbers ? { numbers } : {}),
    ...(formulaCells ? { formulaCells } : {}),
    ...(sheets ? { sheets } : {})
  }
}

/** The columns an import reads, by position: the listing's id and SKU, and each field's (by key); -1 where absent. */
interface Columns {
  id: number
  sku: number
  fields: Map<string, number>
}

/** “a”, “a” or “b”, “a”, “b” or “c” (or with “and”). */
const either = (names: string[], word = 'or') => (names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} ${word} ${names.at(-1)!}`)

/**
 * The names a column goes by besides its own (`id`, `sku`, a field's `fileHeader`) and, for a field, its
 * title in the grid (“New price”): only names that cannot mean another column. After a name, one of the
 * column's units may follow in parentheses (“Price ($)”, “Quantity (units)”); any other (“Price (EUR)”,
 * “Price (old)”) is not the column. By column: `id`, `sku` or a field's key.
 */
const COLUMN_NAMES: Record<string, { names?: string[]; units?: string[] }> = {
  // Other selling tools' own: Amazon's listings report (seller-sku), Shopify's products export (Variant
  // SKU, Variant Price, Variant Inventory Qty), eBay's File Exchange (Custom label (SKU), Start price,
  // Available quantity).
  sku: { names: ['sku code', 'seller-sku', 'seller sku', 'variant sku', 'custom label (sku)'] },
  priceCents: { names: ['variant price', 'start price'], units: ['$', 'usd', 'us$'] },
  quantity: { names: ['qty', 'new quantity', 'variant inventory qty', 'available quantity'], units: ['units', 'pcs'] }
}

/** A header cell as it is matched against the names: in lower case, runs of spaces as one, `( $ )` as `($)`. */
const columnName = (cell: string) =>
  cell
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/\s*\(\s*/g, ' (')
    .replace(/\s*\)/g, ')')
    .trim()

interface ColumnNames {
  /** As messages name the column. */
  name: string
  /** Every header cell, as columnName gives it, that is this column. */
  cells: Set<string>
}

function columnNames(key: string, name: string, gridTitle?: string): ColumnNames {
  const { names = [], units = [] } = COLUMN_NAMES[key] ?? {}
  const all = [name, ...(gridTitle ? [gridTitle] : []), ...names].map(columnName)
  return { name, cells: new Set(all.flatMap((written) => [written, ...units.map((unit) => `${written} (${unit})`)])) }
}

const ID_COLUMN = columnNames('id', 'id')
const SKU_COLUMN = columnNames('sku', 'sku')

/** Whether a header names the listing of each row: an id or SKU column. */
function namesListings(header: string[]): boolean {
  return header.some((cell) => ID_COLUMN.cells.has(columnName(cell)) || SKU_COLUMN.cells.has(columnName(cell)))
}

/** Where a column is in the header, -1 where absent; throws when it is there twice, by one name or by two. */
function columnIndex(fileName: string, header: string[], column: ColumnNames): number {
  const at = header.flatMap((cell, index) => (column.cells.has(columnName(cell)) ? [index] : []))
  if (at.length > 1) {
    const written = [...new Set(at.map((index) => `“${header[index]!}”`))]
    throw fileError(fileName, `the column “${column.name}” appears twice${written.length > 1 ? ` (as ${either(written, 'and')})` : ''}. Keep one.`)
  }
  return at[0] ?? -1
}

const quotedList = (names: readonly string[]) => names.map((name) => `“${name}”`).join(', ')

function columnsOf(fileName: string, table: ImportTable, fields: FieldSet): Columns {
  const header = table.header
  const columns = {
    id: columnIndex(fileName, header, ID_COLUMN),
    sku: columnIndex(fileName, header, SKU_COLUMN),
    fields: new Map(fields.all.map((field) => [field.key, columnIndex(fileName, header, columnNames(field.key, field.fileHeader, field.gridTitle))]))
  }
  const names =
    header
      .filter(Boolean)
      .slice(0, 12)
      .map((name) => `“${name}”`)
      .join(', ') || 'none'
  const { sheets } = table
  const found = sheets
    ? `columns found on sheet “${sheets.used}”: ${names}; sheets read: ${quotedList(sheets.read)}${sheets.hidden.length ? `; hidden sheets, not read: ${quotedList(sheets.hidden)}` : ''}`
    : `columns found: ${names}`
  if (columns.id < 0 && columns.sku < 0) throw fileError(fileName, `the file needs an “id” or “sku” column to know which listing each row changes (${found}).`)
  if ([...columns.fields.values()].every((index) => index < 0)) {
    throw fileError(fileName, `the file needs a ${either(fields.all.map((field) => `“${field.fileHeader}”`))} column (${found}).`)
  }
  return columns
}

/**
 * Whether a listing is one the file names, by id (any letter case) or SKU: the listings an import reads
 * (see listingFinder). Throws, naming the file, when it has no column to name them by or none to change.
 */
export async function listingsNamed(
  fileName: string,
  table: ImportTable,
  fields: FieldSet = LISTING_FIELD_SET,
  pause: Pause = noPause
): Promise<(id: string, sku: string) => boolean> {
  const columns = columnsOf(fileName, table, fields)
  const ids = new Set<string>()
  const skus = new Set<string>()
  let i = 0
  for (const { cells } of table.records) {
    if (stepStartsAt(i++)) await pause()
    const id = columns.id < 0 ? '' : (cells[columns.id] ?? '')
    const sku = columns.sku < 0 ? '' : skuKey(cells[columns.sku] ?? '')
    if (id) ids.add(id.toLowerCase())
    if (sku) skus.add(sku)
  }
  return (id, sku) => skus.has(skuKey(sku)) || ids.has(id.toLowerCase())
}

/**
 * A SKU as the import compares it: without the spaces around it and in any letter case. Sellers retype
 * SKUs in spreadsheets, and a sheet or another selling tool may change their case ("iph13-128-blk" for
 * the listing's "IPH13-128-BLK"); the marketplace may send one with a space at an end.
 */
const skuKey = (sku: string) => sku.trim().toLowerCase()

/** Finds listings by id (any letter case) and by SKU. */
export interface ListingFinder {
  byId(id: string): ImportListing | undefined
  /**
   * The listings with this SKU written exactly so (spaces around it aside), several when it is shared;
   * where none is, those with it in another letter case. A seller whose listings hold "ABC" and "abc"
   * means the one their file writes.
   */
  bySku(sku: string): ImportListing[]
}

export function listingFinder(listings: Iterable<ImportListing> = []): ListingFinder & { add(listings: Iterable<ImportListing>): void } {
  const ids = new Map<string, ImportListing>()
  // A SKU's listing, or its listings when it is shared or differs only by case: most SKUs are neither,
  // and an import may hold 100,000.
  const skus = new Map<string, ImportListing | ImportListing[]>()
  function add(more: Iterable<ImportListing>) {
    for (const listing of more) {
      ids.set(listing.id.toLowerCase(), listing)
      const key = skuKey(listing.sku)
      const same = skus.get(key)
      if (same === undefined) skus.set(key, listing)
      else if (Array.isArray(same)) same.push(listing)
      else skus.set(key, [same, listing])
    }
  }
  add(listings)
  function bySku(sku: string): ImportListing[] {
    const found = skus.get(skuKey(sku))
    if (found === undefined) return []
    if (!Array.isArray(found)) return [found]
    const exact = found.filter((listing) => listing.sku.trim() === sku.trim())
    return exact.length > 0 ? exact : found
  }
  return { byId: (id) => ids.get(id.toLowerCase()), bySku, add }
}

/** Column index from 0 → spreadsheet letters (0 → A, 26 → AA). */
function columnLetters(index: number): string {
  let letters = ''
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters
  return letters
}

const quote = (text: string) => `“${text.length > 60 ? `${text.slice(0, 60)}…` : text}”`

/** How many of the listings a case-blind SKU matches a problem names; the rest are counted. */
const NAMED_CANDIDATES = 5

/** The SKUs of these listings as each is written (spaces around it aside), each once. */
const spellings = (listings: ImportListing[]) => [...new Set(listings.map((listing) => listing.sku.trim()))]

/** Why a row whose SKU matches several listings by letter case alone is refused, naming their SKUs. */
function otherCaseProblem(sku: string, listings: ImportListing[]): string {
  const written = spellings(listings)
  const named = written.slice(0, NAMED_CANDIDATES).map(quote)
  const more = written.length - named.length
  const list = more > 0 ? `${named.join(', ')} and ${more} more` : `${named.slice(0, -1).join(', ')} and ${named.at(-1)!}`
  return (
    `SKU ${quote(sku)} is not written exactly as any listing’s, and letter case aside it matches ${listings.length}: ${list}. ` +
    'Write the SKU as its listing has it, or use the id column.'
  )
}

/** Turns a read table into proposed changes and per-row problems, against what is pending (see the top of this file). */
export async function importChanges(
  fileName: string,
  table: ImportTable,
  finder: ListingFinder,
  pending: PendingValue = () => undefined,
  fields: FieldSet = LISTING_FIELD_SET,
  pause: Pause = noPause
): Promise<ImportResult> {
  const columns = columnsOf(fileName, table, fields)
  const problems = new Map<number, string[]>(table.problems.map((p) => [p.row, [p.message]]))
  const problem = (row: number, message: string) => {
    const list = problems.get(row)
    if (list) list.push(message)
    else problems.set(row, [message])
  }
  const cell = (cells: string[], index: number) => (index < 0 ? '' : (cells[index] ?? ''))
  // A listing's row, or its rows when the file names it more than once (each an error).
  const rowsOfListing = new Map<string, number | number[]>()
  const numbers = table.numbers ?? numberStyleOf(table.records.flatMap(({ cells }) => [...columns.fields.values()].map((index) => cell(cells, index))))
  // Each field's column, in the order of `fields.all` (-1: none).
  const fieldColumns = fields.all.map((field) => columns.fields.get(field.key)!)
  // Each row's values by field, in the order of `fields.all` (undefined: none).
  const candidates: { row: number; listing: ImportListing; values: (number | undefined)[] }[] = []

  let read = 0
  for (const { row, cells } of table.records) {
    if (stepStartsAt(read++)) await pause()
    if (problems.has(row)) continue
    const id = cell(cells, columns.id)
    const sku = cell(cells, columns.sku)
    let listing: ImportListing | undefined
    if (id) {
      listing = finder.byId(id)
      if (!listing) problem(row, `No listing with id ${quote(id)} in your sell requests (sync first if it is new).`)
    } else if (sku) {
      const matches = finder.bySku(sku)
      if (matches.length === 0) problem(row, `No listing with SKU ${quote(sku)} in your sell requests.`)
      else if (matches.length === 1) listing = matches[0]
      // Several spellings: none is the file's exactly (bySku), so which one the seller meant is not known.
      else if (spellings(matches).length > 1) problem(row, otherCaseProblem(sku, matches))
      else problem(row, `SKU ${quote(sku)} belongs to ${matches.length} listings: use the id column for these.`)
    } else {
      problem(row, 'No id or SKU on this row.')
    }

    const values: (number | undefined)[] = []
    for (let f = 0; f < fields.all.length; f++) {
      const field = fields.all[f]!
      const index = fieldColumns[f]!
      const text = cell(cells, index)
      // A formula's value is whatever the spreadsheet last computed: never taken as the value to set.
      if (index >= 0 && table.formulaCells?.has(`${row}:${index}`) === true) {
        problem(
          row,
          `${field.label} (cell ${columnLetters(index)}${row}) is a formula, and the value a formula last computed is not taken (it may be out of date): paste the column as values (Paste Special, Values) or type the ${field.label.toLowerCase()} itself.`
        )
      } else if (text) {
        const parsed = field.parse(text, numbers)
        if ('value' in parsed) values[f] = parsed.value
        else problem(row, valueProblemSentence(field.label, quote(text), parsed.problem))
      }
    }
    if (!listing) continue
    const seen = rowsOfListing.get(listing.id)
    if (seen === undefined) rowsOfListing.set(listing.id, row)
    else if (typeof seen === 'number') rowsOfListing.set(listing.id, [seen, row])
    else seen.push(row)
    candidates.push({ row, listing, values })
  }

  for (const rows of rowsOfListing.values()) {
    if (typeof rows === 'number') continue
    for (const row of rows) problem(row, `This listing appears on rows ${rows.join(', ')}: keep one row per listing.`)
  }

  const proposed: ProposedChange[] = []
  let stagedRows = 0
  let unchanged = 0
  let blankValues = 0
  let replaced = 0
  let kept = 0
  let compared = 0
  for (const { row, listing, values } of candidates) {
    if (stepStartsAt(compared++)) await pause()
    if (problems.has(row)) continue
    // Blank cells change nothing: a row of them is said as such, not as a row already up to date.
    if (!values.some((value) => value !== undefined)) {
      blankValues++
      continue
    }
    let staged = false
    for (let f = 0; f < values.length; f++) {
      const value = values[f]
      if (value === undefined) continue
      const field = fields.all[f]!.key
      const pendingValue = pending(listing.id, field)
      if (value === pendingValue) continue
      if (value === fieldValue(listing, field)) {
        if (pendingValue !== undefined) kept++
        continue
      }
      proposed.push(proposedChange(listing, field, value))
      if (pendingValue !== undefined) replaced++
      staged = true
    }
    // A row that only keeps a pending change changes nothing either: the listing has the file's value now.
    if (staged) stagedRows++
    else unchanged++
  }

  const sorted = [...problems].sort(([a], [b]) => a - b).map(([row, messages]) => ({ row, message: messages.join(' ') }))
  return {
    format: table.format,
    sheet: table.sheets?.used ?? null,
    rows: table.records.length,
    proposed,
    stagedRows,
    unchanged,
    blankValues,
    replaced,
    kept,
    problems: sorted
  }
}
