/**
 * One descriptor per editable listing field (price, quantity): its key, the name the Seller API uses,
 * the snapshot column it is read from, the label a seller reads, the rule, how text becomes a value and
 * a value text, and the column header in files. Forms, the inline cells, the grid, "Change many", the
 * range filters, the change set, apply, and imports and exports all go through here, so the same text is
 * accepted or refused everywhere, with the same message, and a field added here is carried everywhere.
 * The list of fields is a value (`LISTING_FIELDS`, `fieldSet`): code takes it rather than naming fields.
 *
 * What is accepted (see listingFields.test.ts for the full table):
 * - as typed in the app, and in comma CSV and XLSX files (`point` style): `1299`, `1299.5`, `1,299.00`,
 *   `$1,299.00`, ` 129.9 `; commas only as thousands separators, in groups of three;
 * - in a semicolon CSV, as Excel and LibreOffice save it in European locales: `1299,99`, `1.299,50`,
 *   `1 299,50`. There a single separator followed by exactly three digits (`1,299`, `1.299`) could
 *   group thousands or mark three decimals. The file decides (numberStyleOf): when its other numbers
 *   use decimal commas (`12,50`), it is `comma` style and `1.299` is 1299 (`1,299` three decimals);
 *   when they use decimal points, `point` style; when they do not tell, `either`, and such a cell is
 *   refused with a message rather than guessed. A point followed by one, two, or four or more digits
 *   (`1299.99`) can only be a decimal point and is read as one in any style;
 * - a sign: `-5` is read (and refused by the rule: "Price cannot be negative."); `+10` only where a
 *   change is meant (Change many's amounts and percentages), where `10%` is accepted too.
 */
import type { z } from 'zod'
import type { WarningRules } from './contract'
import { formatNumber } from './formatCount'
import { decimalStringFromCents, dollarsFromCents, formatMoneyExact } from './money'
import { MAX_PRICE_CENTS, MAX_QUANTITY, priceCentsInput, priceRuleProblem, quantityInput, quantityRuleProblem, ruleSchema } from './userInput'
import { problemMessageOrNull, type ValueProblem } from './valueProblem'

import { LISTING_FIELD_KEYS, type ListingFieldKey } from './listingFieldKeys'

/** The keys of the fields Seller Desk edits (a test may add one: keys are strings wherever fields are a value). */
export type { ListingFieldKey }

/**
 * How a text writes its numbers: `point` (1,299.50), as typed in the app and in comma CSV and XLSX
 * files; `comma` (1.299,50), as in a semicolon CSV saved by a spreadsheet in a European locale;
 * `either`: a semicolon CSV whose numbers do not tell (decimal commas read, `1.299` and `1,299` refused).
 */
export type NumberStyle = 'point' | 'comma' | 'either'

/** A text read as a value, or why it cannot be (said in words by valueProblem.ts: problemMessage, valueProblemSentence). */
export type Parsed = { value: number } | { problem: ValueProblem }

export interface ListingField {
  key: string
  /** The field's name in the Seller API's request bodies and answers. */
  wire: string
  /** How the snapshot reads the value: an SQL expression over its `sell_requests` row, named `s`. */
  column: string
  /** As a seller reads it, capitalised: "Price". */
  label: string
  /** Lower case, more than one: "prices" ("3 prices and 2 quantities"). */
  plural: string
  /** The bulk-edit grid's column of the new value: "New price". */
  gridTitle: string
  /** The file column this field is read from on import (any letter case) and written to on export. */
  fileHeader: string
  /** The width of its column in an exported workbook, in characters. */
  fileWidth: number
  /** `cents`: money, written in files as dollars (a number with two decimals); `units`: a count, as it is. */
  unit: 'cents' | 'units'
  /** An example value for a field's placeholder. */
  example: string
  /** The rule as a zod schema (contract inputs). */
  rule: z.ZodType<number>
  /** How a value breaks the rule, or null. */
  check(value: number): ValueProblem | null
  /** Whether a change the rule allows deserves a second look (see `warning`): judged without wording it. */
  warns(before: number, after: number, rules: WarningRules): boolean
  /** What deserves a second look in a change the rule allows (a large price move), in words, or null. */
  warning(before: number, after: number, rules: WarningRules): string | null
  /** The value as a Seller API request body carries it (dollars for a price). */
  toWire(value: number): number
  /**
   * A cell as typed, pasted or read from a file → its value in the field's unit (cents for a price),
   * whether or not the rule allows it, so the change set can mark a value that breaks it; text that is
   * no number is refused here. Blank is null ("leave unchanged").
   */
  read(text: string, style?: NumberStyle): Parsed | null
  /** A form field: a value the rule accepts, or why not (blank: "Enter a price."). */
  parse(text: string, style?: NumberStyle): Parsed
  /** A change by an amount, as Change many takes it: `+10`, `-2.50`, `5` (a signed value in the field's unit). */
  parseChange(text: string): Parsed
  /** How a change by an amount (in the field's unit) breaks the rule: whole units, at most `max` up or down. */
  checkChange(delta: number): ValueProblem | null
  /** checkChange as a zod schema (contract inputs). */
  changeRule: z.ZodType<number>
  /** A value → the text a field starts with ("1299.00", "12"). */
  format(value: number): string
  /** A value as the seller reads it on screen ("$1,299.00", "1,200"); one the rule refuses is shown exactly, not rounded. */
  display(value: number): string
  /** The largest value, and the largest change by an amount, the field takes. */
  max: number
}

/** A number as written: sign, whole digits and decimal digits, exact (no float arithmetic yet). */
interface Decimal {
  negative: boolean
  whole: string
  fraction: string
}

const GROUPS = { ',': /^\d{1,3}(?:,\d{3})+$/, '.': /^\d{1,3}(?:\.\d{3})+$/, ' ': /^\d{1,3}(?: \d{3})+$/ } as const
/** One separator with exactly three digits after it, and no leading zero before: a thousands separator or three decimals. */
const AMBIGUOUS = /^[1-9]\d{0,2}[.,]\d{3}$/

/** Where decimals take a point, a comma before one or two digits cannot group thousands: a decimal comma ("12,5", "1.299,50"). */
const DECIMAL_COMMA = /^(\d{1,3}(?:\.\d{3})+|\d+),(\d{1,2})$/

/** The digits of a number without its sign and currency: whole and decimal parts, or why they cannot be read. */
function splitDigits(body: string, style: NumberStyle): { whole: string; fraction: string } | 'ambiguous' | null {
  if (!/\d/.test(body)) return null
  if (style === 'point') {
    const match = /^(\d{1,3}(?:,\d{3})+|\d*)(?:\.(\d*))?$/.exec(body)
    return match ? { whole: match[1]!.replaceAll(',', ''), fraction: match[2] ?? '' } : null
  }
  // Comma (or either) style: spaces (also the no-break ones European spreadsheets write) group thousands, as points do.
  const spaced = body.replace(/[\u00a0\u202f]/g, ' ')
  if (spaced.includes(' ')) {
    const [whole = '', fraction = '', ...rest] = spaced.split(',')
    return rest.length === 0 && GROUPS[' '].test(whole) && /^\d*$/.test(fraction) ? { whole: whole.replaceAll(' ', ''), fraction } : null
  }
  const commas = body.split(',').length - 1
  const points = body.split('.').length - 1
  if (commas > 0 && points > 0) {
    // Both: the last one marks the decimals, the other groups thousands (1.299,50 or 1,299.50).
    const decimal = body.lastIndexOf(',') > body.lastIndexOf('.') ? ',' : '.'
    const grouping = decimal === ',' ? '.' : ','
    const [whole = '', fraction = '', ...rest] = body.split(decimal)
    return rest.length === 0 && GROUPS[grouping].test(whole) && /^\d*$/.test(fraction) ? { whole: whole.replaceAll(grouping, ''), fraction } : null
  }
  const separator = commas > 0 ? ',' : points > 0 ? '.' : null
  if (separator === null) return /^\d+$/.test(body) ? { whole: body, fraction: '' } : null
  if (commas + points > 1) return GROUPS[separator].test(body) ? { whole: body.replaceAll(separator, ''), fraction: '' } : null
  if (AMBIGUOUS.test(body)) {
    if (style === 'either') return 'ambiguous'
    // The file uses decimal commas: a point groups thousands.
    if (separator === '.') return { whole: body.replace('.', ''), fraction: '' }
  }
  const [whole = '', fraction = ''] = body.split(separator)
  return /^\d*$/.test(whole) && /^\d*$/.test(fraction) ? { whole, fraction } : null
}

interface ReadOptions {
  style: NumberStyle
  /** A leading `+`: allowed (`true`, a change), or refused with this problem. */
  plus: true | ValueProblem
  /** A trailing `%` is allowed (a percentage). */
  percent: boolean
}

/**
 * Digits with at most a decimal point and nothing around them ("129.99", "15"), as most pasted cells are:
 * read as the steps below read them in the point style, without those steps (a paste reads 10,000 cells).
 */
const PLAIN_POINT = /^(\d+)(?:\.(\d*))?$/

/** Text → a decimal, or why it is no number. */
function readDecimal(text: string, options: ReadOptions): { decimal: Decimal } | { problem: ValueProblem } {
  const plain = options.style === 'point' ? PLAIN_POINT.exec(text) : null
  if (plain) return { decimal: { negative: false, whole: plain[1]!, fraction: plain[2] ?? '' } }
  let rest = text.trim().replace(/\u2212/g, '-')
  const original = rest
  let negative = false
  let signed = false
  let dollar = false
  // A sign and a dollar sign, in either order: "-$5", "$-5", "+$5".
  for (let i = 0; i < 2; i++) {
    if (!signed && /^[+-]/.test(rest)) {
      if (rest[0] === '+' && options.plus !== true) return { problem: options.plus }
      negative = rest[0] === '-'
      signed = true
      rest = rest.slice(1).trimStart()
    }
    if (!dollar && rest.startsWith('$')) {
      dollar = true
      rest = rest.slice(1).trimStart()
    }
  }
  if (options.percent && rest.endsWith('%')) rest = rest.slice(0, -1).trimEnd()
  const digits = splitDigits(rest, options.style)
  if (digits === 'ambiguous') return { problem: { kind: 'ambiguous-separator', text: original } }
  if (!digits) {
    const comma = options.style === 'point' ? DECIMAL_COMMA.exec(rest) : null
    if (comma) return { problem: { kind: 'decimal-comma', text: original, pointed: `${negative ? '-' : ''}${comma[1]!.replaceAll('.', '')}.${comma[2]!}` } }
    return { problem: { kind: 'not-a-number', text: original } }
  }
  return { decimal: { negative, whole: digits.whole || '0', fraction: digits.fraction } }
}

/** Cents, exact for up to two decimals; more give a fraction of a cent, which the price rule refuses. */
function centsOf({ negative, whole, fraction }: Decimal): number {
  const cents = Number(`${whole}${fraction.padEnd(2, '0').slice(0, 2)}.${fraction.slice(2) || '0'}`)
  return negative && cents !== 0 ? -cents : cents
}

function unitsOf({ negative, whole, fraction }: Decimal): number {
  const units = Number(`${whole}.${fraction || '0'}`)
  return negative && units !== 0 ? -units : units
}

type FieldSpec = Pick<
  ListingField,
  'key' | 'wire' | 'column' | 'label' | 'plural' | 'fileHeader' | 'fileWidth' | 'unit' | 'example' | 'rule' | 'check' | 'format'
> & {
  /** A change by an amount, as an example ("-2.50"). */
  changeExample: string
  /** The grid's column of the new value, when not "New <label in lower case>". */
  gridTitle?: string
  warning?: WarningRule
  /** The largest value (or change) allowed: a text beyond it is refused before it becomes a number. */
  max: number
  /** The largest value as a seller reads it ("$1,000,000.00", "1,000,000"). */
  formatMax: string
}

/**
 * A count written with a decimal comma and a fraction: the seller is told a count is whole, not to
 * write the fraction with a point, which the rule would then refuse. A whole number written so keeps
 * the hint, as the number it gives is taken.
 */
function countProblem(problem: ValueProblem, label: string): ValueProblem {
  if (problem.kind !== 'decimal-comma' || Number.isInteger(Number(problem.pointed))) return problem
  return { kind: 'not-whole', label }
}

/**
 * A numeric listing field: a price-like one (`unit: 'cents'`, typed in dollars) or a count. Exported so a
 * test can add a field of its own and see it carried from the change set to the PATCH.
 */
export function numberField(spec: FieldSpec): ListingField {
  const decimalValue = spec.unit === 'cents' ? centsOf : unitsOf
  const noun = spec.label.toLowerCase()
  const label = spec.label
  const warningRule = spec.warning
  const display = spec.unit === 'cents' ? formatMoneyExact : formatNumber
  const tooLarge: ValueProblem = spec.check(spec.max + 1) ?? { kind: 'above-max', label, max: spec.formatMax }
  function checkChange(delta: number): ValueProblem | null {
    // A change is whole units of the field: cents for a price (more would be a fraction of a cent).
    if (!Number.isInteger(delta)) return { kind: spec.unit === 'cents' ? 'too-many-decimals' : 'not-whole', label }
    if (Math.abs(delta) > spec.max) return { kind: 'change-above-max', max: spec.formatMax }
    return null
  }
  function read(text: string, style: NumberStyle = 'point', change = false): Parsed | null {
    if (text.trim() === '') return null
    const result = readDecimal(text, { style, plus: change || { kind: 'plus-sign', label }, percent: false })
    if ('problem' in result) return { problem: spec.unit === 'units' ? countProblem(result.problem, label) : result.problem }
    const value = decimalValue(result.decimal)
    // Far beyond the rule (and beyond exact integers): refused as too large rather than staged.
    if (!Number.isFinite(value) || Math.abs(value) > Number.MAX_SAFE_INTEGER) return { problem: tooLarge }
    return { value }
  }
  return {
    key: spec.key,
    wire: spec.wire,
    column: spec.column,
    label: spec.label,
    plural: spec.plural,
    gridTitle: spec.gridTitle ?? `New ${noun}`,
    fileHeader: spec.fileHeader,
    fileWidth: spec.fileWidth,
    unit: spec.unit,
    example: spec.example,
    rule: spec.rule,
    check: spec.check,
    warns: warningRule ? (before, after, rules) => warningRule.concerns(before, after, rules) !== 0 : () => false,
    warning: warningRule
      ? (before, after, rules) => {
          const concerns = warningRule.concerns(before, after, rules)
          return concerns === 0 ? null : warningRule.words(concerns, before, after, rules, { label, display })
        }
      : () => null,
    toWire: spec.unit === 'cents' ? dollarsFromCents : (value) => value,
    read: (text, style) => read(text, style),
    parse(text, style) {
      const result = read(text, style)
      if (result === null) return { problem: { kind: 'blank', label } }
      if ('problem' in result) return result
      const problem = spec.check(result.value)
      return problem ? { problem } : result
    },
    parseChange(text) {
      const result = read(text, 'point', true)
      if (result === null) return { problem: { kind: 'blank-change', example: spec.changeExample } }
      if ('problem' in result) return result
      const problem = checkChange(result.value)
      return problem ? { problem } : result
    },
    checkChange,
    changeRule: ruleSchema('A change', (delta) => problemMessageOrNull(checkChange(delta))),
    format: spec.format,
    display,
    max: spec.max
  }
}

/** A percentage as a warning says it: whole, except that a cut which leaves a little never reads as all of it (it is no sell-out). */
const percentText = (percent: number) => formatNumber(percent < 100 && Math.round(percent) >= 100 ? Math.floor(percent * 10) / 10 : Math.round(percent))

/** A field as a warning names it and shows its values. */
type SaidField = Pick<ListingField, 'label' | 'display'>

/**
 * A field's warning rule in steps: what concerns a change (bits, none set when nothing does), judged
 * for every change staged (a long paste judges thousands), and those concerns in words, made only where
 * a warning is read.
 */
interface WarningRule {
  concerns(before: number, after: number, rules: WarningRules): number
  words(concerns: number, before: number, after: number, rules: WarningRules, field: SaidField): string
}

const PRICE_MOVES = 1
const BELOW_FLOOR = 2
const movePercent = (before: number, after: number) => (before > 0 ? (Math.abs(after - before) / before) * 100 : 0)
/** A whole, in hundredths of a percent: the unit the rules' percentages are compared in (no rule's percentage is finer: userInput.ts). */
const WHOLE_IN_HUNDREDTHS = 10_000
const hundredths = (percent: number) => Math.round(percent * 100)
/**
 * Whether a move or cut from `before` is more than `percent` of it, compared as products of whole
 * numbers, the percentage in hundredths: a quotient is not exact, nor is a product with a decimal
 * percentage, and a move of exactly the percentage is within it.
 */
const beyondPercent = (moved: number, before: number, percent: number) => before > 0 && moved * WHOLE_IN_HUNDREDTHS > hundredths(percent) * before

/**
 * A change said as a move, the way every warning of a large move says it, in Bulk edit and for one
 * listing's edit alike: the field, whether it rises or falls, by how much of what it was, and both values.
 */
export function moveSentence(field: SaidField, before: number, after: number): string {
  return `${field.label} ${after > before ? 'rises' : 'falls'} by ${percentText(movePercent(before, after))}% (from ${field.display(before)} to ${field.display(after)}).`
}

/** A price move beyond the seller's percentage, a price under their floor, or both (each said). */
const priceWarning: WarningRule = {
  concerns: (before, after, rules) =>
    (beyondPercent(Math.abs(after - before), before, rules.priceChangePercent) ? PRICE_MOVES : 0) |
    (rules.priceFloorCents !== null && after < rules.priceFloorCents ? BELOW_FLOOR : 0),
  words(concerns, before, after, rules, field) {
    const move = concerns & PRICE_MOVES ? moveSentence(field, before, after) : null
    if (!(concerns & BELOW_FLOOR) || rules.priceFloorCents === null) return move ?? ''
    const floor = `${move ? 'It is' : `Price ${formatMoneyExact(after)} is`} below your floor of ${formatMoneyExact(rules.priceFloorCents)}.`
    return move ? `${move} ${floor}` : floor
  }
}

/**
 * A quantity cut beyond the seller's percentage: a slipped digit takes stock off the market unseen. A
 * cut to nothing is how a seller says sold out: not warned about. Nor is a rise here, where every staged
 * change is judged: Bulk edit stages a file of restocks as many rises at once, meant. One listing's edit
 * does warn of a far rise (quantityRisesFar, asked by listingChangeWarning).
 */
const quantityWarning: WarningRule = {
  concerns: (before, after, rules) => (after > 0 && after < before && beyondPercent(before - after, before, rules.quantityCutPercent) ? 1 : 0),
  words: (_concerns, before, after, _rules, field) => moveSentence(field, before, after)
}

/**
 * How far a quantity may rise before a rise is warned about: the seller's quantity rule read the other
 * way, a rise warned about from the same ratio up as a cut is down (a cut past the percentage leaves
 * less than `under` of `over`; a rise past it gives more than `over` of `under`). Whole numbers, the
 * percentage in hundredths as beyondPercent reads it, so the rise is compared exactly; `times` is the
 * ratio as the rules' note tells it to the seller.
 */
export function quantityRiseRatio(cutPercent: number): { over: number; under: number; times: number } {
  const under = WHOLE_IN_HUNDREDTHS - hundredths(cutPercent)
  return { over: WHOLE_IN_HUNDREDTHS, under, times: WHOLE_IN_HUNDREDTHS / under }
}

/**
 * Whether a quantity rises far by the seller's rules (quantityRiseRatio): asked of one listing's edit.
 * A listing out of stock has no quantity to compare with: restocking it is not a far rise.
 */
export function quantityRisesFar(before: number, after: number, rules: WarningRules): boolean {
  const { over, under } = quantityRiseRatio(rules.quantityCutPercent)
  return before > 0 && after * under > before * over
}

/**
 * A quantity in stock below the listing's minimum order: buyers must buy at least `minQuantity`, so
 * nobody can buy it until more is in stock. Said, not refused (the seller may be selling it off); none
 * for 0 (out of stock says so itself) or when any quantity can be bought.
 */
export function belowMinimumOrder(quantity: number, minQuantity: number): string | null {
  if (quantity <= 0 || minQuantity <= 1 || quantity >= minQuantity) return null
  const count = (n: number) => formatNumber(n)
  return `Buyers buy at least ${count(minQuantity)}, so with ${count(quantity)} in stock nobody can buy it.`
}

export const priceField: ListingField = numberField({
  key: 'priceCents',
  wire: 'price',
  column: 's.price_cents',
  label: 'Price',
  plural: 'prices',
  fileHeader: 'price',
  fileWidth: 11,
  unit: 'cents',
  example: '129.99',
  changeExample: '-2.50',
  rule: priceCentsInput,
  check: priceRuleProblem,
  warning: priceWarning,
  max: MAX_PRICE_CENTS,
  formatMax: '$1,000,000.00',
  format: decimalStringFromCents
})

export const quantityField: ListingField = numberField({
  key: 'quantity',
  wire: 'quantity',
  column: 's.quantity',
  label: 'Quantity',
  plural: 'quantities',
  fileHeader: 'quantity',
  fileWidth: 10,
  unit: 'units',
  example: '12',
  changeExample: '+5',
  gridTitle: 'New qty',
  rule: quantityInput,
  check: quantityRuleProblem,
  warning: quantityWarning,
  max: MAX_QUANTITY,
  formatMax: '1,000,000',
  format: (quantity) => String(quantity)
})

/** Every editable listing field, by key. */
export const listingFields: Record<ListingFieldKey, ListingField> = { priceCents: priceField, quantity: quantityField }

/** Every editable listing field, in the order forms, the grid and files show them. */
export const LISTING_FIELDS: readonly ListingField[] = LISTING_FIELD_KEYS.map((key) => listingFields[key])

/** A list of fields with a lookup by key: what the change set, operations, import, export and apply take. */
export interface FieldSet {
  readonly all: readonly ListingField[]
  /** The field with this key; throws for a key not in the set (a change for a field nothing can apply). */
  get(key: string): ListingField
  has(key: string): boolean
}

export function fieldSet(fields: readonly ListingField[]): FieldSet {
  const byKey = new Map(fields.map((field) => [field.key, field]))
  return {
    all: fields,
    get(key) {
      const field = byKey.get(key)
      if (!field) throw new Error(`No listing field “${key}”.`)
      return field
    },
    has: (key) => byKey.has(key)
  }
}

/** The fields Seller Desk edits. */
export const LISTING_FIELD_SET: FieldSet = fieldSet(LISTING_FIELDS)

/** A listing's value of a field, as a listing object carries it (under the field's key). */
export function listingValue(listing: { readonly [key: string]: unknown }, field: string): number {
  const value = listing[field]
  if (typeof value !== 'number') throw new Error(`The listing has no value for “${field}”.`)
  return value
}

/** A percentage as Change many takes it: `10`, `+10`, `-5`, `10%`, `-2.5 %` (at most two decimals). */
export function parsePercentChange(text: string): Parsed {
  if (text.trim() === '') return { problem: { kind: 'blank-percent' } }
  const result = readDecimal(text, { style: 'point', plus: true, percent: true })
  if ('problem' in result) return result
  const { negative, whole, fraction } = result.decimal
  if (fraction.replace(/0+$/, '').length > 2) return { problem: { kind: 'percent-decimals' } }
  const percent = Number(`${whole}.${fraction || '0'}`)
  if (!Number.isFinite(percent)) return { problem: { kind: 'not-a-number', text: text.trim() } }
  return { value: negative && percent !== 0 ? -percent : percent }
}

/**
 * A number typed in a setting (minutes, days, units): read as a count's cell reads it, with grouping
 * commas and a decimal point (the setting's own rule refuses a fraction), but no dollar or percent sign.
 * A decimal comma with a fraction is said as a count's is, `label` naming what must be whole.
 * Null when empty.
 */
export function parsePlainNumber(text: string, label: string): Parsed | null {
  if (text.trim() === '') return null
  if (/[$%]/.test(text)) return { problem: { kind: 'not-a-number', text: text.trim() } }
  const result = readDecimal(text, { style: 'point', plus: true, percent: false })
  if ('problem' in result) return { problem: countProblem(result.problem, label) }
  const value = unitsOf(result.decimal)
  return Number.isFinite(value) ? { value } : { problem: { kind: 'not-a-number', text: text.trim() } }
}

/** What a cell's separators say about the decimal mark, when they say anything. */
function decimalMarkOf(text: string): ',' | '.' | null {
  const body = text.replace(/[^\d.,]/g, '')
  const lastComma = body.lastIndexOf(',')
  const lastPoint = body.lastIndexOf('.')
  if (lastComma >= 0 && lastPoint >= 0) return lastComma > lastPoint ? ',' : '.'
  const separator = lastComma >= 0 ? ',' : lastPoint >= 0 ? '.' : null
  if (separator === null) return null
  // Twice or more: grouping, so the other one marks decimals.
  if (body.indexOf(separator) !== body.lastIndexOf(separator)) return separator === ',' ? '.' : ','
  return AMBIGUOUS.test(body) ? null : separator
}

/**
 * How a semicolon CSV writes its numbers, from the cells themselves: `comma` when those that tell use a
 * decimal comma (`12,50`, `1.299,50`), `point` when they use a decimal point (`55.50`), `either` when none
 * tells or they disagree.
 */
export function numberStyleOf(cells: Iterable<string>): NumberStyle {
  const marks = new Set<string>()
  for (const cell of cells) {
    const mark = decimalMarkOf(cell)
    if (mark) marks.add(mark)
  }
  if (marks.size !== 1) return 'either'
  return marks.has(',') ? 'comma' : 'point'
}
