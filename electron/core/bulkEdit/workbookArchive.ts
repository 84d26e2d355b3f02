/**
 * An .xlsx file is a zip archive. Before the workbook reader unpacks one, its directory is read here
 * and every entry is inflated with a bounded output — the sizes an archive declares are not trusted —
 * so a small file that unpacks to gigabytes (a "zip bomb"), or has thousands of entries, is refused
 * with a clear message instead of filling memory. The archive must also be laid out plainly (entries
 * one after another, none hidden between or overlapping others), so the reader, which unpacks it as a
 * stream, sees exactly the entries measured here.
 *
 * On the way, each sheet's formula cells are noted: the reader returns a formula's last computed value
 * (or nothing), never the formula, and an import must not take a computed value for a typed one.
 */
import { inflateRawSync } from 'node:zlib'
import { formatNumber } from '../../shared/formatCount'

/** The most an .xlsx may unpack to, all entries together. */
export const WORKBOOK_MAX_UNPACKED_BYTES = 200 * 1024 * 1024
/** The most entries an .xlsx may hold (a workbook from Excel has a few dozen). */
export const WORKBOOK_MAX_ENTRIES = 2_000

export interface WorkbookLimits {
  maxUnpackedBytes: number
  maxEntries: number
}

export type WorkbookCheck =
  | {
      ok: true
      /** Cells of the first sheet holding a formula, as `row:column` (1-based row, 0-based column). */
      formulaCells: Set<string>
      /** The same for every sheet, by the sheet's name (as the workbook names it, and its reader). */
      formulaCellsBySheet: Map<string, Set<string>>
      /** Every sheet in the workbook's order: its name, and whether Excel keeps it hidden (a seller does not see it). */
      sheets: { name: string; hidden: boolean }[]
      /** The sheet the workbook opens on (its active tab); null when it does not say. */
      activeSheet: string | null
    }
  | { ok: false; problem: string }

const END_OF_DIRECTORY = 0x06054b50
const ZIP64_END_LOCATOR = 0x07064b50
const ZIP64_END = 0x06064b50
const DIRECTORY_ENTRY = 0x02014b50
const LOCAL_ENTRY = 0x04034b50
const SATURATED32 = 0xffffffff
/** A data descriptor after an entry's data: at most signature + CRC + two 8-byte sizes. */
const MAX_DESCRIPTOR = 24

class ArchiveProblem extends Error {}

const unreadable = (why: string) =>
  new ArchiveProblem(`this file could not be read as an Excel workbook (.xlsx) (${why}). Open it in Excel, save it again, or export it as CSV.`)

interface Entry {
  name: string
  flags: number
  method: number
  compressed: number
  size: number
  local: number
}

/** Where the pieces a zip64 archive moved to its extra field are (in this order, each only when saturated). */
function zip64Sizes(extra: Buffer, entry: Entry): void {
  for (let at = 0; at + 4 <= extra.length;) {
    const id = extra.readUInt16LE(at)
    const length = extra.readUInt16LE(at + 2)
    if (id === 0x0001) {
      let field = at + 4
      const next = () => {
        if (field + 8 > at + 4 + length) throw unreadable('a zip64 field is cut short')
        const value = Number(extra.readBigUInt64LE(field))
        field += 8
        return value
      }
      if (entry.size === SATURATED32) entry.size = next()
      if (entry.compressed === SATURATED32) entry.compressed = next()
      if (entry.local === SATURATED32) entry.local = next()
      return
    }
    at += 4 + length
  }
}

function directoryOf(buf: Buffer, limits: WorkbookLimits): { entries: Entry[]; directoryStart: number } {
  let end = -1
  for (let at = buf.length - 22; at >= Math.max(0, buf.length - 22 - 0xffff); at--) {
    if (buf.readUInt32LE(at) === END_OF_DIRECTORY) {
      end = at
      break
    }
  }
  if (end < 0) throw unreadable('its table of contents is missing')
  let count = buf.readUInt16LE(end + 10)
  let directoryStart = buf.readUInt32LE(end + 16)
  if ((count === 0xffff || directoryStart === SATURATED32) && end >= 20 && buf.readUInt32LE(end - 20) === ZIP64_END_LOCATOR) {
    const zip64End = Number(buf.readBigUInt64LE(end - 20 + 8))
    if (zip64End + 56 > buf.length || buf.readUInt32LE(zip64End) !== ZIP64_END) throw unreadable('its table of contents is damaged')
    count = Number(buf.readBigUInt64LE(zip64End + 32))
    directoryStart = Number(buf.readBigUInt64LE(zip64End + 48))
  }
  if (count > limits.maxEntries) {
    throw new ArchiveProblem(
      `the workbook holds ${formatNumber(count)} files inside; Seller Desk reads at most ${formatNumber(limits.maxEntries)}. Copy the sheet into a new workbook, or export it as CSV.`
    )
  }
  const entries: Entry[] = []
  let at = directoryStart
  for (let i = 0; i < count; i++) {
    if (at + 46 > buf.length || buf.readUInt32LE(at) !== DIRECTORY_ENTRY) throw unreadable('its table of contents is damaged')
    const nameLength = buf.readUInt16LE(at + 28)
    const extraLength = buf.readUInt16LE(at + 30)
    const commentLength = buf.readUInt16LE(at + 32)
    if (at + 46 + nameLength + extraLength > buf.length) throw unreadable('its table of contents is damaged')
    const entry: Entry = {
      name: buf.toString('utf8', at + 46, at + 46 + nameLength),
      flags: buf.readUInt16LE(at + 8),
      method: buf.readUInt16LE(at + 10),
      compressed: buf.readUInt32LE(at + 20),
      size: buf.readUInt32LE(at + 24),
      local: buf.readUInt32LE(at + 42)
    }
    zip64Sizes(buf.subarray(at + 46 + nameLength, at + 46 + nameLength + extraLength), entry)
    entries.push(entry)
    at += 46 + nameLength + extraLength + commentLength
  }
  return { entries, directoryStart }
}

const tooLarge = (limit: number) =>
  new ArchiveProblem(
    `the workbook unpacks to more than ${Math.round(limit / 1024 / 1024)} MB, more than Seller Desk reads at once. Split it into smaller files, or export it as CSV.`
  )

/** Where an entry's data starts, after its local header (checked against the directory). */
function dataStart(buf: Buffer, entry: Entry, directoryStart: number): number {
  if (entry.local + 30 > directoryStart || buf.readUInt32LE(entry.local) !== LOCAL_ENTRY) throw unreadable('an entry is damaged')
  const localCompressed = buf.readUInt32LE(entry.local + 18)
  const hasDescriptor = (entry.flags & 0x08) !== 0
  if (!hasDescriptor && localCompressed !== SATURATED32 && localCompressed !== entry.compressed) throw unreadable('an entry is damaged')
  const start = entry.local + 30 + buf.readUInt16LE(entry.local + 26) + buf.readUInt16LE(entry.local + 28)
  if (start + entry.compressed > directoryStart) throw unreadable('an entry is cut short')
  return start
}

/** An entry's content, inflated to at most `budget` bytes (whatever size it declares). */
function contentOf(buf: Buffer, entry: Entry, directoryStart: number, budget: number, limit: number): Buffer {
  const start = dataStart(buf, entry, directoryStart)
  const data = buf.subarray(start, start + entry.compressed)
  if (entry.method === 0) {
    if (data.length > budget) throw tooLarge(limit)
    return data
  }
  if (entry.method !== 8) throw unreadable('it is compressed in a way Seller Desk cannot read')
  let inflated: { buffer: Buffer; engine: { bytesWritten: number } }
  try {
    inflated = inflateRawSync(data, { maxOutputLength: Math.max(1, budget), info: true }) as unknown as { buffer: Buffer; engine: { bytesWritten: number } }
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError) throw tooLarge(limit)
    throw unreadable('an entry is damaged')
  }
  // All of the entry's bytes must be its compressed data: nothing left over for a stream reader to take as more.
  if (inflated.engine.bytesWritten !== data.length) throw unreadable('an entry holds more than its data')
  if (inflated.buffer.length > budget) throw tooLarge(limit)
  return inflated.buffer
}

/** Inflates every entry (bounded in total), checks the layout, and returns each sheet's text, in the workbook's order. */
function sheetsOf(buf: Buffer, limits: WorkbookLimits): { sheets: (SheetPath & { text: string | undefined })[]; activeTab: number } {
  const limit = limits.maxUnpackedBytes
  const { entries, directoryStart } = directoryOf(buf, limits)
  // The declared sizes first: an honest large workbook is refused before anything is inflated.
  if (entries.reduce((sum, entry) => sum + entry.size, 0) > limit) throw tooLarge(limit)
  // Which sheet is first, from the two small files that say so (each bounded like the rest).
  const named = (name: string) => entries.find((entry) => entry.name === name)
  const small = (name: string) => {
    const entry = named(name)
    return entry ? contentOf(buf, entry, directoryStart, limit, limit).toString('utf8') : undefined
  }
  const workbook = small('xl/workbook.xml')
  const sheets = sheetPaths(workbook, small('xl/_rels/workbook.xml.rels'))
  const texts = new Map<string, string>()
  let unpacked = 0
  let expectedLocal = 0
  for (const entry of [...entries].sort((a, b) => a.local - b.local)) {
    // The stream reader finds entries one after another from the start: nothing may sit between them.
    if (entry.local < expectedLocal || entry.local > expectedLocal + MAX_DESCRIPTOR) throw unreadable('its entries overlap or hide data between them')
    const content = contentOf(buf, entry, directoryStart, limit - unpacked, limit)
    unpacked += content.length
    if (sheets.some((sheet) => sheet.path === entry.name)) texts.set(entry.name, content.toString('utf8'))
    expectedLocal = dataStart(buf, entry, directoryStart) + entry.compressed
  }
  if (directoryStart < expectedLocal || directoryStart > expectedLocal + MAX_DESCRIPTOR) throw unreadable('its entries overlap or hide data between them')
  // The tab it opens on, counted over every sheet (hidden ones too), as Excel and LibreOffice write it.
  const activeTab = Number(/<(?:[\w.-]+:)?workbookView\s[^>]*?\bactiveTab\s*=\s*["'](\d+)["']/.exec(workbook ?? '')?.[1] ?? 0)
  return { sheets: sheets.map((sheet) => ({ ...sheet, text: texts.get(sheet.path) })), activeTab }
}

interface SheetPath {
  name: string
  path: string
  /** Kept hidden by the workbook (state "hidden" or "veryHidden"). */
  hidden: boolean
}

const attribute = (tag: string, name: string) => new RegExp(`(?:^|\\s)${name}\\s*=\\s*["']([^"']*)["']`).exec(tag)?.[1]

/**
 * Each sheet's name and path, in the workbook's order (the first is the one the reader reads first), from
 * the workbook and its relationships. Without them, the usual path of a lone first sheet.
 */
function sheetPaths(workbook: string | undefined, relations: string | undefined): SheetPath[] {
  const fallback = [{ name: '', path: 'xl/worksheets/sheet1.xml', hidden: false }]
  if (!workbook || !relations) return fallback
  const targets = new Map<string, string>()
  for (const [, tag] of relations.matchAll(/<(?:[\w.-]+:)?Relationship\s([^>]*)>/g)) {
    const id = attribute(tag!, 'Id')
    const target = attribute(tag!, 'Target')
    if (id && target) targets.set(id, target.startsWith('/') ? target.slice(1) : `xl/${target}`.replace(/[^/]+\/\.\.\//g, ''))
  }
  const sheets: SheetPath[] = []
  for (const [, tag] of workbook.matchAll(/<(?:[\w.-]+:)?sheet\s([^>]*)>/g)) {
    const id = /(?:^|\s)[\w.-]+:id\s*=\s*["']([^"']*)["']/.exec(tag!)?.[1]
    const path = id ? targets.get(id) : undefined
    const state = attribute(tag!, 'state')
    if (path) sheets.push({ name: decodeXml(attribute(tag!, 'name') ?? ''), path, hidden: state === 'hidden' || state === 'veryHidden' })
  }
  return sheets.length ? sheets : fallback
}

/** An attribute's text as written in XML: the five entities decoded (a sheet named “Prices & stock”). */
const decodeXml = (text: string) => text.replace(/&(amp|lt|gt|quot|apos);/g, (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" })[name]!)

/** `C12` → `12:2`. */
function cellKey(reference: string): string | null {
  const match = /^([A-Z]{1,3})(\d+)$/.exec(reference)
  if (!match) return null
  let column = 0
  for (const letter of match[1]!) column = column * 26 + (letter.charCodeAt(0) - 64)
  return `${Number(match[2])}:${column - 1}`
}

function formulaCellsOf(sheet: string | undefined): Set<string> {
  const cells = new Set<string>()
  if (!sheet || !/<(?:[\w.-]+:)?f[\s>/]/.test(sheet)) return cells
  for (const [, attributes, body] of sheet.matchAll(/<(?:[\w.-]+:)?c\s([^>]*?)(?:\/>|>([\s\S]*?)<\/(?:[\w.-]+:)?c>)/g)) {
    if (!body || !/<(?:[\w.-]+:)?f[\s>/]/.test(body)) continue
    const key = cellKey(attribute(attributes!, 'r') ?? '')
    if (key) cells.add(key)
  }
  return cells
}

/** Checks an .xlsx archive before it is unpacked for reading. */
export function checkWorkbookArchive(
  bytes: Uint8Array,
  limits: WorkbookLimits = { maxUnpackedBytes: WORKBOOK_MAX_UNPACKED_BYTES, maxEntries: WORKBOOK_MAX_ENTRIES }
): WorkbookCheck {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  try {
    const { sheets, activeTab } = sheetsOf(buf, limits)
    const formulaCellsBySheet = new Map(sheets.map((sheet) => [sheet.name, formulaCellsOf(sheet.text)]))
    return {
      ok: true,
      formulaCells: formulaCellsOf(sheets[0]?.text),
      formulaCellsBySheet,
      sheets: sheets.map(({ name, hidden }) => ({ name, hidden })),
      activeSheet: sheets[activeTab]?.name ?? null
    }
  } catch (error) {
    if (error instanceof ArchiveProblem) return { ok: false, problem: error.message }
    return { ok: false, problem: unreadable('it is damaged').message }
  }
}
