import { describe, expect, it } from 'vitest'
import type { GridRow } from '../../stores/gridCells'
import { unreadableCellsText } from './unreadableCells'

const row = (sku: string): GridRow => ({ name: 'Apple Watch Series 9', sku }) as GridRow

describe('unreadableCellsText', () => {
  it('counts the cells and says where to find them, leaving their reasons to the marked cells', () => {
    const cells = [
      { row: row('AW9-41-MID'), field: 'priceCents' as const, message: 'Not a number: "1.299,00".' },
      { row: row('AW9-45-STA'), field: 'priceCents' as const, message: 'Not a number: "=A1".' },
      { row: row('AW9-41-PNK'), field: 'quantity' as const, message: 'Not a number: "€50".' },
      { row: row('AW9-45-RED'), field: 'quantity' as const, message: 'Not a number: "x".' },
      { row: row('AW9-45-BLU'), field: 'quantity' as const, message: 'Not a number: "y".' }
    ]
    expect(unreadableCellsText(cells)).toBe('5 cells were left unchanged, marked in the grid: select one to see why.')
  })

  it('says one cell plainly', () => {
    expect(unreadableCellsText([{ row: row(''), field: 'priceCents', message: 'Not a number: "abc".' }])).toBe(
      '1 cell was left unchanged, marked in the grid: select it to see why.'
    )
  })

  it('stays as short however long what was pasted is', () => {
    const long = { row: row('AW9-41-MID'), field: 'priceCents' as const, message: `Not a number: "${'pasted words '.repeat(20)}".` }
    expect(unreadableCellsText([long, long]).length).toBeLessThan(80)
  })
})
