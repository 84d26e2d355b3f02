import { describe, expect, it } from 'vitest'
import type { GridRow } from '../../stores/gridCells'
import { UNREADABLE_TEXT_MAX, unreadableCellsText } from './unreadableCells'

const row = (sku: string, name = 'Apple Watch Series 9'): GridRow => ({ id: `id-${sku || name}`, name, sku }) as GridRow
const cell = (sku: string, field: 'priceCents' | 'quantity' = 'priceCents', message = 'Not a number: “x”.') => ({ row: row(sku), field, message })

describe('unreadableCellsText', () => {
  it('counts the cells and names their listings by SKU, the first few, then how many more, leaving the reasons to the marked cells', () => {
    const cells = [
      { row: row('AW9-41-MID'), field: 'priceCents' as const, message: 'Not a number: "1.299,00".' },
      { row: row('AW9-45-STA'), field: 'priceCents' as const, message: 'Not a number: "=A1".' },
      { row: row('AW9-41-PNK'), field: 'quantity' as const, message: 'Not a number: "€50".' },
      { row: row('AW9-45-RED'), field: 'quantity' as const, message: 'Not a number: "x".' },
      { row: row('AW9-45-BLU'), field: 'quantity' as const, message: 'Not a number: "y".' }
    ]
    expect(unreadableCellsText(cells)).toBe('5 cells were left unchanged, on AW9-41-MID, AW9-45-STA and 3 more: select one to see why.')
  })

  it('says one cell plainly, with its listing', () => {
    expect(unreadableCellsText([cell('AW9-41-MID')])).toBe('1 cell was left unchanged, on AW9-41-MID: select it to see why.')
  })

  it('names each listing once, however many of its cells were left unchanged', () => {
    expect(unreadableCellsText([cell('AW9-41-MID'), cell('AW9-41-MID', 'quantity'), cell('AW9-45-STA')])).toBe(
      '3 cells were left unchanged, on AW9-41-MID and AW9-45-STA: select one to see why.'
    )
  })

  it('names as many listings as two lines hold: fewer when their SKUs are long, always the first', () => {
    const long = ['APL-AWSE2-32-MID-C-F3BA', 'APL-AWS9-64-PIN-C-11AB', 'DEL-XPS13-512-PLT-B-77AA', 'SAM-GS23-128-LAV-A-8BDF']
    expect(unreadableCellsText(long.map((sku) => cell(sku)))).toBe('4 cells were left unchanged, on APL-AWSE2-32-MID-C-F3BA and 3 more: select one to see why.')
    const short = ['A-1', 'A-2', 'A-3', 'A-4', 'A-5']
    expect(unreadableCellsText(short.map((sku) => cell(sku)))).toBe('5 cells were left unchanged, on A-1, A-2, A-3 and 2 more: select one to see why.')
  })

  it('names a listing with no SKU by its name, cut short when even one would not fit', () => {
    expect(unreadableCellsText([{ ...cell(''), row: row('', 'Galaxy S23') }])).toBe('1 cell was left unchanged, on “Galaxy S23”: select it to see why.')
    const text = unreadableCellsText([{ ...cell(''), row: row('', `Apple Watch ${'Ultra '.repeat(20)}`) }])
    expect(text).toMatch(/^1 cell was left unchanged, on “Apple Watch Ultra .*…: select it to see why\.$/)
    expect(text.length).toBeLessThanOrEqual(UNREADABLE_TEXT_MAX)
  })

  it('stays within two lines however long what was pasted is: the reasons stay with the cells', () => {
    const long = { ...cell('AW9-41-MID'), message: `Not a number: "${'pasted words '.repeat(20)}".` }
    const text = unreadableCellsText([long, { ...long, row: row('AW9-45-STA') }])
    expect(text.length).toBeLessThanOrEqual(UNREADABLE_TEXT_MAX)
    expect(text).not.toContain('pasted words')
  })
})
