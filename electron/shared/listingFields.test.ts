/**
 * The one reader of prices and quantities: what a seller types in the app (the edit dialog, the inline
 * cells, the grid, Change many, the range filters) and what a file holds, as a table of inputs → value
 * or message. The same text gives the same answer everywhere.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  belowMinimumOrder,
  moveSentence,
  numberStyleOf,
  parsePercentChange,
  parsePlainNumber,
  priceField,
  quantityField,
  quantityRiseRatio,
  quantityRisesFar,
  type ListingField,
  type NumberStyle,
  type Parsed
} from './listingFields'
import { formatNumber } from './formatCount'
import { formatMoney } from './money'
import { priceCentsInput, quantityInput } from './userInput'
import { problemMessage, problemMessageOrNull, valueProblemSentence, type ValueProblemKind } from './valueProblem'

const NEGATIVE_PRICE = 'Price cannot be negative.'
const PRICE_DECIMALS = 'Price has more than two decimals.'
const WHOLE = 'Quantity must be a whole number.'
const NEGATIVE_QUANTITY = 'Quantity cannot be negative.'
const PLUS_PRICE = 'Enter the new price itself, without “+”.'
const AMBIGUOUS = (text: string) =>
  `“${text}” could be a thousands separator or three decimals: write the number without a thousands separator (1299, or 1299,50 with cents).`
const nan = (text: string) => `Not a number: “${text}”.`

/** What a table row expects: a value, or a message. */
const answer = (expected: number | string) => (typeof expected === 'number' ? { value: expected } : { problem: expected })
/** A reader's answer as the seller reads it: the value, or the problem's message. */
/** A number as the rule answers it: the value, or why it breaks the rule. */
const ruleAnswer = (field: ListingField, value: number): Parsed => {
  const problem = field.check(value)
  return problem ? { problem } : { value }
}
const said = (parsed: Parsed | null) => (parsed && 'problem' in parsed ? { problem: problemMessage(parsed.problem) } : parsed)

describe('a price as a seller types it (edit dialog, inline cell, range filter, Set price)', () => {
  const table: [string, number | string][] = [
    ['129.99', 12999],
    [' 129.9 ', 12990],
    ['1299', 129900],
    ['1,299.00', 129900],
    ['$1,299.00', 129900],
    ['$ 310', 31000],
    ['1,234,567.8', Number.NaN], // placeholder, replaced below: over the maximum
    ['0.29', 29],
    ['.5', 50],
    ['12.340', 1234], // a trailing zero is no third decimal
    ['-5', NEGATIVE_PRICE],
    ['-$5', NEGATIVE_PRICE],
    ['−5', NEGATIVE_PRICE], // a typographic minus
    ['12.345', PRICE_DECIMALS],
    ['0', 'Price must be more than 0.'],
    ['1000000.01', 'Price must be at most $1,000,000.00.'],
    ['9'.repeat(400), 'Price must be at most $1,000,000.00.'],
    ['+10', PLUS_PRICE],
    ['', 'Enter a price.'],
    ['  ', 'Enter a price.'],
    ['abc', nan('abc')],
    // A decimal comma is read only in a European file; typed, it is said with the number written with a point.
    ['12,34', 'Not a number: “12,34”. Write decimals with a point: 12.34.'],
    ['-$1.299,5', 'Not a number: “-$1.299,5”. Write decimals with a point: -1299.5.'],
    ['1,23.00', nan('1,23.00')],
    ['1 299.00', nan('1 299.00')],
    ['1e3', nan('1e3')],
    ['=1+1', nan('=1+1')],
    ['$$5', nan('$$5')],
    ['$', nan('$')],
    ['10%', nan('10%')]
  ]
  table[6] = ['1,234,567.8', 'Price must be at most $1,000,000.00.']
  it.each(table)('%j → %j', (text, expected) => {
    expect(said(priceField.parse(text))).toEqual(answer(expected))
  })
})

describe('a quantity as a seller types it', () => {
  const table: [string, number | string][] = [
    ['12', 12],
    ['1,200', 1200],
    ['12.0', 12],
    ['0', 0],
    ['1000000', 1_000_000],
    ['2.5', WHOLE],
    ['-3', NEGATIVE_QUANTITY],
    ['1000001', 'Quantity must be at most 1,000,000.'],
    ['+10', 'Enter the new quantity itself, without “+”.'],
    ['', 'Enter a quantity.'],
    // A decimal comma with a fraction: a quantity is whole, said as such (not told to write the fraction with a point, which is refused then).
    ['1,20', WHOLE],
    ['12,5', WHOLE],
    ['-2,5', WHOLE],
    ['12,0', 'Not a number: “12,0”. Write decimals with a point: 12.0.'],
    ['x', nan('x')]
  ]
  it.each(table)('%j → %j', (text, expected) => {
    expect(said(quantityField.parse(text))).toEqual(answer(expected))
  })
})

describe('a change by an amount or a percentage (Change many)', () => {
  it.each([
    ['+10', 1000],
    ['-5', -500],
    ['5', 500],
    ['-2.50', -250],
    ['+$1,000', 100000],
    ['-2.505', PRICE_DECIMALS],
    ['+1000000.01', 'A change of at most $1,000,000.00 up or down.'],
    ['', 'Enter an amount, like -2.50.'],
    ['ten', nan('ten')]
  ] as [string, number | string][])('price %j → %j', (text, expected) => {
    expect(said(priceField.parseChange(text))).toEqual(answer(expected))
  })

  it.each([
    ['+10', 10],
    ['-5', -5],
    ['3', 3],
    ['+1.5', WHOLE],
    ['+2000000', 'A change of at most 1,000,000 up or down.']
  ] as [string, number | string][])('quantity %j → %j', (text, expected) => {
    expect(said(quantityField.parseChange(text))).toEqual(answer(expected))
  })

  it('checks a change as a number by the same rule its text is read by (the contract takes it from here)', () => {
    expect([priceField.checkChange(-250), quantityField.checkChange(1_000_000)]).toEqual([null, null])
    expect(problemMessageOrNull(priceField.checkChange(100_000_001))).toBe('A change of at most $1,000,000.00 up or down.')
    expect(problemMessageOrNull(quantityField.checkChange(1.5))).toBe('Quantity must be a whole number.')
    expect(priceField.changeRule.safeParse(12.5).error?.issues[0]?.message).toBe(problemMessageOrNull(priceField.checkChange(12.5)))
  })

  it.each([
    ['10', 10],
    ['+10', 10],
    ['10%', 10],
    ['-5', -5],
    ['-5 %', -5],
    ['+2.5%', 2.5],
    ['-12.50%', -12.5],
    ['1.234', 'A percentage has at most two decimals.'],
    ['', 'Enter a percentage, like -5 or +10%.'],
    ['%', nan('%')],
    ['10%%', nan('10%%')]
  ] as [string, number | string][])('percentage %j → %j', (text, expected) => {
    expect(said(parsePercentChange(text))).toEqual(answer(expected))
  })

  it.each([
    ['15', 15],
    ['+15', 15],
    [' 1,000 ', 1000],
    ['2.5', 2.5],
    // A setting is a count: a decimal comma with a fraction is said to be no whole number, as a quantity's is.
    ['12,5', 'The number of minutes must be a whole number.'],
    ['12,0', 'Not a number: “12,0”. Write decimals with a point: 12.0.'],
    ['1e2', nan('1e2')],
    ['0x10', nan('0x10')],
    ['$5', nan('$5')],
    ['5%', nan('5%')]
  ] as [string, number | string][])('a setting’s number %j → %j', (text, expected) => {
    expect(said(parsePlainNumber(text, 'The number of minutes')!)).toEqual(answer(expected))
  })

  it('a setting left empty is no number at all', () => {
    expect(parsePlainNumber('  ', 'The number of minutes')).toBeNull()
  })
})

describe('a cell in a semicolon CSV whose numbers do not tell: decimal comma, thousands point or space, the unclear refused', () => {
  const comma: NumberStyle = 'either'
  const table: [string, number | string][] = [
    ['1299,99', 129999],
    ['1.299,50', 129950],
    ['1 299,50', 129950],
    ['1\u00a0299,50', 129950], // the no-break space LibreOffice and Excel write
    ['1\u202f299,50', 129950],
    ['1.234.567', Number.NaN],
    ['12,5', 1250],
    ['0,99', 99],
    ['0,299', PRICE_DECIMALS], // a leading zero is never grouped: three decimals
    ['1299', 129900],
    ['1299.99', 129999], // a point with two decimals after it can only be a decimal point
    ['1,299.50', 129950], // both marks: the last one marks the decimals
    ['€ 5', nan('€ 5')],
    ['-3,50', NEGATIVE_PRICE],
    ['12,345', AMBIGUOUS('12,345')],
    ['1,299', AMBIGUOUS('1,299')],
    ['1.299', AMBIGUOUS('1.299')],
    ['1.29.00', nan('1.29.00')],
    ['1.299,50,1', nan('1.299,50,1')],
    ['1 29,50', nan('1 29,50')],
    ['12,3456', PRICE_DECIMALS]
  ]
  table[5] = ['1.234.567', 'Price must be at most $1,000,000.00.']
  it.each(table)('price %j → %j', (text, expected) => {
    expect(said(priceField.parse(text, comma))).toEqual(answer(expected))
  })

  it('quantities too: the unclear refused, grouped thousands whole, a decimal comma is not', () => {
    expect(said(quantityField.parse('1.200', comma))).toEqual({ problem: AMBIGUOUS('1.200') })
    expect(quantityField.parse('1.000.000', comma)).toEqual({ value: 1_000_000 })
    expect(quantityField.parse('12', comma)).toEqual({ value: 12 })
    expect(said(quantityField.parse('2,5', comma))).toEqual({ problem: WHOLE })
  })
})

describe('a cell in a file that uses decimal commas (its other cells say so, or the seller does)', () => {
  it.each([
    ['1.299', 129900],
    ['12.500', 1250000],
    ['1,299', PRICE_DECIMALS],
    ['12,500', 1250],
    ['1.299,50', 129950],
    ['1299.99', 129999]
  ] as [string, number | string][])('price %j → %j', (text, expected) => {
    expect(said(priceField.parse(text, 'comma'))).toEqual(answer(expected))
  })

  it('quantity 1.200 (LibreOffice with thousands separators) is 1200', () => {
    expect(quantityField.parse('1.200', 'comma')).toEqual({ value: 1200 })
    expect(said(quantityField.parse('1,200', 'comma'))).toEqual({ problem: WHOLE })
  })
})

describe('numberStyleOf: what a semicolon CSV’s cells say about its decimal mark', () => {
  it.each([
    [['1299,99', '1.200', '3'], 'comma'],
    [['1.299,50'], 'comma'],
    [['1.234.567'], 'comma'],
    [['0,299'], 'comma'],
    [['55.50', '12.345'], 'point'],
    [['1,299.50'], 'point'],
    [['1,234,567'], 'point'],
    [['1.299', '1,299', '12', ''], 'either'],
    [['12,50', '12.50'], 'either'],
    [[], 'either']
  ] as [string[], NumberStyle][])('%j → %s', (cells, style) => {
    expect(numberStyleOf(cells)).toBe(style)
  })
})

describe('read: the grid and imports stage a number that breaks a rule, so the change set marks it', () => {
  it('keeps the number, in the field’s unit, and the rule gives the same message the forms give', () => {
    expect(priceField.read('-5')).toEqual({ value: -500 })
    expect(priceCentsInput.safeParse(-500).error?.issues[0]?.message).toBe(NEGATIVE_PRICE)
    expect(priceField.read('12.345')).toEqual({ value: 1234.5 })
    expect(priceCentsInput.safeParse(1234.5).error?.issues[0]?.message).toBe(PRICE_DECIMALS)
    expect(quantityField.read('2.5')).toEqual({ value: 2.5 })
    expect(quantityInput.safeParse(2.5).error?.issues[0]?.message).toBe(WHOLE)
    expect(quantityField.read('-3')).toEqual({ value: -3 })
  })

  it('reads plain digits and a point (most pasted cells) as it reads them with spaces around', () => {
    for (const text of ['129.99', '0129.5', '5.', '15', '007', '12.345', '1000000.01', '99999999999999999999', '0.00'])
      for (const field of [priceField, quantityField]) expect(field.read(text)).toEqual(field.read(` ${text} `))
    expect(priceField.read('0129.5')).toEqual({ value: 12950 })
    expect(priceField.read('5.')).toEqual({ value: 500 })
  })

  it('blank is "leave unchanged"; text that is no number is refused with the message', () => {
    expect(priceField.read('  ')).toBeNull()
    expect(said(quantityField.read('abc'))).toEqual({ problem: nan('abc') })
    expect(priceField.read('$310')).toEqual({ value: 31000 })
    expect(said(priceField.read('x'.repeat(40)))).toEqual({ problem: nan(`${'x'.repeat(30)}…`) })
  })

  it('formats a value the way the fields start with it', () => {
    expect(priceField.format(129900)).toBe('1299.00')
    expect(quantityField.format(12)).toBe('12')
    for (const cents of [1, 99, 12999, 100_000_000]) expect(priceField.parse(priceField.format(cents))).toEqual({ value: cents })
  })

  it('shows a value on screen as the seller reads it: a price as money (exactly, when not whole cents), a quantity as a count', () => {
    expect(priceField.display(129900)).toBe(formatMoney(129900))
    expect(priceField.display(1234.5)).toMatch(/12[.,]345/)
    expect(quantityField.display(12)).toBe('12')
    // Grouped as counts are (the same formatter); one the rule refuses, exactly. Files and fields keep plain digits (format).
    expect(quantityField.display(1_000_000)).toBe(formatNumber(1_000_000))
    expect(quantityField.display(1_000_000)).toMatch(/^1\D000\D000$/)
    expect(quantityField.display(12.3456)).toMatch(/^12\D3456$/)
    expect(quantityField.format(1_000_000)).toBe('1000000')
    expect([priceField.gridTitle, quantityField.gridTitle]).toEqual(['New price', 'New qty'])
  })
})

describe('every problem a reader finds, as data and as the seller reads it: text → kind → message → import sentence', () => {
  /** Each kind a problem can be: one added to ValueProblem fails the typecheck here until the table below has a row of it. */
  const EVERY_KIND: Record<ValueProblemKind, true> = {
    blank: true,
    'blank-change': true,
    'blank-percent': true,
    'plus-sign': true,
    'not-a-number': true,
    'decimal-comma': true,
    'ambiguous-separator': true,
    'not-finite': true,
    negative: true,
    'too-many-decimals': true,
    'not-whole': true,
    'not-positive': true,
    'above-max': true,
    'change-above-max': true,
    'percent-decimals': true
  }
  interface Row {
    text: string
    /** The reader as the app calls it on `text`. */
    read: () => Parsed | null
    kind: ValueProblemKind
    /** As a form, a cell, the grid or a dialog shows it. */
    message: string
    /** As an import report says it (the file's cell read by `field.parse`), or null where no file cell reaches this reader. */
    sentence: { field: ListingField; text: string; style: NumberStyle } | null
  }
  const file = (field: ListingField, text: string, style: NumberStyle = 'point') => ({ field, text, style })
  const rows: Row[] = [
    // Blank cells are skipped on import (a blank is "leave unchanged"); changes and percentages are only typed.
    { text: '', read: () => priceField.parse(''), kind: 'blank', message: 'Enter a price.', sentence: null },
    { text: '', read: () => quantityField.parse(''), kind: 'blank', message: 'Enter a quantity.', sentence: null },
    { text: '', read: () => priceField.parseChange(''), kind: 'blank-change', message: 'Enter an amount, like -2.50.', sentence: null },
    { text: '', read: () => quantityField.parseChange(''), kind: 'blank-change', message: 'Enter an amount, like +5.', sentence: null },
    { text: '', read: () => parsePercentChange(''), kind: 'blank-percent', message: 'Enter a percentage, like -5 or +10%.', sentence: null },
    {
      text: '+5',
      read: () => priceField.parse('+5'),
      kind: 'plus-sign',
      message: PLUS_PRICE,
      sentence: file(priceField, 'Price “+5”: Enter the new price itself, without “+”.')
    },
    {
      text: '+10',
      read: () => quantityField.parse('+10'),
      kind: 'plus-sign',
      message: 'Enter the new quantity itself, without “+”.',
      sentence: file(quantityField, 'Quantity “+10”: Enter the new quantity itself, without “+”.')
    },
    {
      text: 'abc',
      read: () => priceField.parse('abc'),
      kind: 'not-a-number',
      message: 'Not a number: “abc”.',
      sentence: file(priceField, 'Price “abc” is not a number.')
    },
    {
      text: 'lots',
      read: () => quantityField.read('lots'),
      kind: 'not-a-number',
      message: 'Not a number: “lots”.',
      sentence: file(quantityField, 'Quantity “lots” is not a number.')
    },
    {
      text: '12,5',
      read: () => priceField.parse('12,5'),
      kind: 'decimal-comma',
      message: 'Not a number: “12,5”. Write decimals with a point: 12.5.',
      sentence: file(priceField, 'Price “12,5” is not a number: write decimals with a point (12.5).')
    },
    { text: 'ten', read: () => priceField.parseChange('ten'), kind: 'not-a-number', message: 'Not a number: “ten”.', sentence: null },
    { text: '10%%', read: () => parsePercentChange('10%%'), kind: 'not-a-number', message: 'Not a number: “10%%”.', sentence: null },
    {
      text: '1,299',
      read: () => priceField.parse('1,299', 'either'),
      kind: 'ambiguous-separator',
      message: AMBIGUOUS('1,299'),
      sentence: file(
        priceField,
        'Price “1,299” could be a thousands separator or three decimals: write the number without a thousands separator (1299, or 1299,50 with cents).',
        'either'
      )
    },
    // No text reads as NaN or Infinity (far too large is "at most"): a value that is no number reaches the rule only as a number.
    { text: 'NaN', read: () => ruleAnswer(priceField, Number.NaN), kind: 'not-finite', message: 'Price must be a number.', sentence: null },
    { text: 'Infinity', read: () => ruleAnswer(quantityField, Infinity), kind: 'not-finite', message: 'Quantity must be a number.', sentence: null },
    { text: '-5', read: () => priceField.parse('-5'), kind: 'negative', message: NEGATIVE_PRICE, sentence: file(priceField, 'Price “-5” cannot be negative.') },
    {
      text: '-3',
      read: () => quantityField.parse('-3'),
      kind: 'negative',
      message: NEGATIVE_QUANTITY,
      sentence: file(quantityField, 'Quantity “-3” cannot be negative.')
    },
    {
      text: '12.345',
      read: () => priceField.parse('12.345'),
      kind: 'too-many-decimals',
      message: PRICE_DECIMALS,
      sentence: file(priceField, 'Price “12.345” has more than two decimals.')
    },
    { text: '-2.505', read: () => priceField.parseChange('-2.505'), kind: 'too-many-decimals', message: PRICE_DECIMALS, sentence: null },
    {
      text: '2.5',
      read: () => quantityField.parse('2.5'),
      kind: 'not-whole',
      message: WHOLE,
      sentence: file(quantityField, 'Quantity “2.5” must be a whole number.')
    },
    { text: '+1.5', read: () => quantityField.parseChange('+1.5'), kind: 'not-whole', message: WHOLE, sentence: null },
    {
      text: '0',
      read: () => priceField.parse('0'),
      kind: 'not-positive',
      message: 'Price must be more than 0.',
      sentence: file(priceField, 'Price “0” must be more than 0.')
    },
    {
      text: '1000000.01',
      read: () => priceField.parse('1000000.01'),
      kind: 'above-max',
      message: 'Price must be at most $1,000,000.00.',
      sentence: file(priceField, 'Price “1000000.01” must be at most $1,000,000.00.')
    },
    {
      // Beyond exact integers: refused by the reader before the rule, in the rule's words.
      text: '99999999999999999999',
      read: () => priceField.read('99999999999999999999'),
      kind: 'above-max',
      message: 'Price must be at most $1,000,000.00.',
      sentence: file(priceField, 'Price “99999999999999999999” must be at most $1,000,000.00.')
    },
    {
      text: '1000001',
      read: () => quantityField.parse('1000001'),
      kind: 'above-max',
      message: 'Quantity must be at most 1,000,000.',
      sentence: file(quantityField, 'Quantity “1000001” must be at most 1,000,000.')
    },
    {
      text: '+1000000.01',
      read: () => priceField.parseChange('+1000000.01'),
      kind: 'change-above-max',
      message: 'A change of at most $1,000,000.00 up or down.',
      sentence: null
    },
    {
      text: '-2000000',
      read: () => quantityField.parseChange('-2000000'),
      kind: 'change-above-max',
      message: 'A change of at most 1,000,000 up or down.',
      sentence: null
    },
    { text: '1.234', read: () => parsePercentChange('1.234'), kind: 'percent-decimals', message: 'A percentage has at most two decimals.', sentence: null }
  ]

  it.each(rows)('$kind: $text → $message', ({ text, read, kind, message, sentence }) => {
    const parsed = read()
    if (parsed === null || !('problem' in parsed)) throw new Error(`${JSON.stringify(text)} was read as ${JSON.stringify(parsed)}`)
    expect(parsed.problem.kind).toBe(kind)
    expect(problemMessage(parsed.problem)).toBe(message)
    if (!sentence) return
    // The cell as the import reads it, with the quotes the import report puts around it.
    const fromFile = sentence.field.parse(text, sentence.style)
    if (!('problem' in fromFile)) throw new Error(`${text} was read from a file as ${fromFile.value}`)
    expect(fromFile.problem).toEqual(parsed.problem)
    expect(valueProblemSentence(sentence.field.label, `“${text}”`, fromFile.problem)).toBe(sentence.text)
  })

  it('has a row of every kind', () => {
    expect(new Set(rows.map((row) => row.kind))).toEqual(new Set(Object.keys(EVERY_KIND)))
  })
})

describe('belowMinimumOrder: stock a buyer cannot buy', () => {
  it('says so when the quantity is above 0 and below the minimum order', () => {
    expect(belowMinimumOrder(5, 10)).toBe('Buyers buy at least 10, so with 5 in stock nobody can buy it.')
    expect(belowMinimumOrder(1, 2)).toBe('Buyers buy at least 2, so with 1 in stock nobody can buy it.')
    expect(belowMinimumOrder(999, 1000)).toBe('Buyers buy at least 1,000, so with 999 in stock nobody can buy it.')
  })
  it('stays quiet at or above the minimum, for none in stock, and where any quantity sells', () => {
    expect(belowMinimumOrder(10, 10)).toBeNull()
    expect(belowMinimumOrder(11, 10)).toBeNull()
    expect(belowMinimumOrder(0, 10)).toBeNull()
    expect(belowMinimumOrder(1, 1)).toBeNull()
    expect(belowMinimumOrder(3, 0)).toBeNull()
  })
})

describe('warnings before a change', () => {
  const rules = { priceChangePercent: 50, priceFloorCents: null, quantityCutPercent: 90 }

  it('say a move in whole percent, grouped, but a move short of 100 % never as 100 %', () => {
    expect(quantityField.warning(431, 1, rules)).toBe('Quantity falls by 99.7% (from 431 to 1).')
    expect(quantityField.warning(1_000, 1, rules)).toBe('Quantity falls by 99.9% (from 1,000 to 1).')
    expect(quantityField.warning(100, 5, rules)).toBe('Quantity falls by 95% (from 100 to 5).')
    expect(quantityField.warning(431, 0, rules)).toBeNull()
    expect(priceField.warning(39_354, 10, rules)).toBe(`Price falls by 99.9% (from ${formatMoney(39_354)} to ${formatMoney(10)}).`)
    expect(priceField.warning(39_354, 3_935_400, rules)).toBe(`Price rises by 9,900% (from ${formatMoney(39_354)} to ${formatMoney(3_935_400)}).`)
    // Grouped as every count is: a slipped paste reads "531,815%", not "531815%".
    expect(priceField.warning(100, 531_915, rules)).toBe(`Price rises by 531,815% (from ${formatMoney(100)} to ${formatMoney(531_915)}).`)
  })
})

describe('a field’s warning: judged for every change staged, worded only where it is read', () => {
  const rules = fc.record({
    priceChangePercent: fc.integer({ min: 1, max: 1000 }),
    priceFloorCents: fc.option(fc.integer({ min: 1, max: 100_000 }), { nil: null }),
    quantityCutPercent: fc.integer({ min: 1, max: 99 })
  })
  const value = fc.integer({ min: 0, max: 1_000_000 })
  /** Values and rules, half of them on a rule's edge (a move or cut of exactly the percentage, or one unit past it; a price at the floor). */
  const changes = fc.oneof(
    fc.tuple(value, value, rules),
    fc.tuple(fc.integer({ min: 1, max: 10_000 }), rules, fc.constantFrom(-1, 0, 1), fc.boolean()).map(([hundreds, under, by, up]) => {
      const before = hundreds * 100
      const percent = up ? under.priceChangePercent : under.quantityCutPercent
      const moved = (before * percent) / 100 + by
      const after = up ? before + moved : before - moved
      return [before, Math.max(0, after), { ...under, priceFloorCents: by === 0 ? Math.max(0, after) : under.priceFloorCents }] as const
    })
  )

  it('a price: warns of a move past the percentage, of a price under the floor, each in its words, and of nothing else', () => {
    fc.assert(
      fc.property(changes, ([before, after, under]) => {
        const moves = before > 0 && Math.abs(after - before) * 100 > under.priceChangePercent * before
        const belowFloor = under.priceFloorCents !== null && after < under.priceFloorCents
        const words = priceField.warning(before, after, under)
        expect(priceField.warns(before, after, under)).toBe(moves || belowFloor)
        expect(words !== null).toBe(moves || belowFloor)
        expect(/ by \d[\d.,]*% \(from /.test(words ?? '')).toBe(moves)
        expect((words ?? '').includes('below your floor')).toBe(belowFloor)
      })
    )
  })

  // In floating point a quotient puts some exact moves over the line (14 / 100 * 100 is 14.000000000000002),
  // and so does a product with a decimal percentage (4.6 * 1,500 is 6,899.999999999999): every percentage
  // a seller can set, 1.00 % to 1,000.00 % by hundredths, on round and on odd bases.
  it('a move or cut of exactly the percentage is not warned, one unit more is, at every percentage a rule can be', () => {
    const base = { priceChangePercent: 50, priceFloorCents: null, quantityCutPercent: 90 }
    const wrong: string[] = []
    const expectWarns = (warns: boolean, expected: boolean, what: string) => warns !== expected && wrong.push(what)
    for (const before of [10_000, 1_500, 2_500, 700, 100]) {
      for (let hundredths = 100; hundredths <= 100_000; hundredths++) {
        const moved = (before * hundredths) / 10_000
        if (!Number.isInteger(moved)) continue
        const percent = hundredths / 100
        const rules = { ...base, priceChangePercent: percent }
        expectWarns(priceField.warns(before, before + moved, rules), false, `price ${before} + ${moved} at ${percent}%`)
        expectWarns(priceField.warns(before, before + moved + 1, rules), true, `price ${before} + ${moved + 1} at ${percent}%`)
        if (moved < before) expectWarns(priceField.warns(before, before - moved, rules), false, `price ${before} − ${moved} at ${percent}%`)
        if (percent >= 100) continue
        const cut = { ...base, quantityCutPercent: percent }
        expectWarns(quantityField.warns(before, before - moved, cut), false, `${before} units − ${moved} at ${percent}%`)
        // (A cut to 0 is a sell-out, never warned.)
        if (before - moved - 1 > 0) expectWarns(quantityField.warns(before, before - moved - 1, cut), true, `${before} units − ${moved + 1} at ${percent}%`)
      }
    }
    expect(wrong.slice(0, 10), `${wrong.length} wrong`).toEqual([])
  })

  it('a quantity: warns of a cut past the percentage, not of a sell-out or a restock', () => {
    fc.assert(
      fc.property(changes, ([before, after, under]) => {
        const cut = after > 0 && after < before && (before - after) * 100 > under.quantityCutPercent * before
        const words = quantityField.warning(before, after, under)
        expect(quantityField.warns(before, after, under)).toBe(cut)
        expect(words === null ? null : words.startsWith('Quantity falls by ')).toBe(cut ? true : null)
      })
    )
  })

  it('a quantity rise is far from the same ratio up as a cut is past the percentage down, the ratio the rules’ note tells', () => {
    fc.assert(
      fc.property(value, value, rules, (before, after, under) => {
        // Read the other way: the step down from the new quantity to the old one would be a cut past the percentage.
        expect(quantityRisesFar(before, after, under)).toBe(before > 0 && after > before && quantityField.warns(after, before, under))
        // The ratio told: a rise to more than that many times what it was (away from the edge, where the quotient rounds).
        const { times } = quantityRiseRatio(under.quantityCutPercent)
        if (before > 0 && Math.abs(after / before - times) > 1e-9) expect(quantityRisesFar(before, after, under)).toBe(after / before > times)
      })
    )
  })

  it('a move is said one way for every field, up or down, the percentage never rounded up to all of it', () => {
    expect(moveSentence(priceField, 10_000, 100_000)).toBe('Price rises by 900% (from $100.00 to $1,000.00).')
    expect(moveSentence(quantityField, 1_000, 1_999)).toBe('Quantity rises by 99.9% (from 1,000 to 1,999).')
    expect(moveSentence(quantityField, 431, 1)).toBe('Quantity falls by 99.7% (from 431 to 1).')
    expect(quantityField.warning(431, 1, { priceChangePercent: 50, priceFloorCents: null, quantityCutPercent: 90 })).toBe(moveSentence(quantityField, 431, 1))
  })
})
