import { describe, expect, it } from 'vitest'
import { gridCellValue, priceCentsInput, priceTextInput, quantityInput, quantityTextInput } from './userInput'

describe('gridCellValue', () => {
  it('reads prices as exact cents, with a dollar sign and thousands separators as spreadsheets copy them', () => {
    expect(gridCellValue('priceCents', '129.99')).toEqual({ value: 12999 })
    expect(gridCellValue('priceCents', ' 129.9 ')).toEqual({ value: 12990 })
    expect(gridCellValue('priceCents', '129')).toEqual({ value: 12900 })
    expect(gridCellValue('priceCents', '$1,299.99')).toEqual({ value: 129999 })
    expect(gridCellValue('priceCents', '0.29')).toEqual({ value: 29 })
  })

  it('keeps numbers that break a rule, so the change set can mark the cell with the reason', () => {
    const threeDecimals = gridCellValue('priceCents', '12.345')
    expect(threeDecimals).toEqual({ value: 1234.5 })
    expect(priceCentsInput.safeParse(1234.5).success).toBe(false)
    expect(gridCellValue('priceCents', '-5')).toEqual({ value: -500 })
    expect(gridCellValue('quantity', '-3')).toEqual({ value: -3 })
    expect(gridCellValue('quantity', '2.5')).toEqual({ value: 2.5 })
    expect(quantityInput.safeParse(2.5).success).toBe(false)
    expect(gridCellValue('quantity', '1,200')).toEqual({ value: 1200 })
  })

  it('treats blank as unchanged and refuses text that is no number', () => {
    expect(gridCellValue('quantity', '  ')).toBeNull()
    expect(gridCellValue('quantity', 'abc')).toEqual({ error: '“abc” is not a quantity.' })
    expect(gridCellValue('priceCents', '=1+1')).toEqual({ error: '“=1+1” is not a price.' })
    expect(gridCellValue('priceCents', '1e309')).toEqual({ error: '“1e309” is not a price.' })
    expect(gridCellValue('priceCents', '12,34')).toEqual({ error: '“12,34” is not a price.' })
    expect(gridCellValue('priceCents', '9'.repeat(400))).toEqual({ error: `“${'9'.repeat(30)}” is too large for a price.` })
  })
})

describe('priceTextInput and quantityTextInput (forms, the table, imports)', () => {
  const price = (text: string) => priceTextInput.safeParse(text)
  const quantity = (text: string) => quantityTextInput.safeParse(text)

  it('read what the grid reads: a dollar sign and thousands separators are fine', () => {
    expect(price('129.99').data).toBe(12999)
    expect(price('$99').data).toBe(9900)
    expect(price('$1,299.99').data).toBe(129999)
    expect(price('1,234.5').data).toBe(123450)
    expect(gridCellValue('priceCents', '$1,299.99')).toEqual({ value: price('$1,299.99').data })
    expect(quantity('1,200').data).toBe(1200)
    expect(gridCellValue('quantity', '1,200')).toEqual({ value: quantity('1,200').data })
  })

  it('refuse the same mistakes with a reason', () => {
    for (const bad of ['12.345', '1,23.00', '12,34', '$', 'abc', '-5', '0', '1e3', '$$5']) expect(price(bad).success, bad).toBe(false)
    expect(price('12.345').error?.issues[0]?.message).toMatch(/two decimals/)
    expect(price('0').error?.issues[0]?.message).toMatch(/more than 0/)
    for (const bad of ['2.5', '-3', '1,20', 'x']) expect(quantity(bad).success, bad).toBe(false)
  })
})
