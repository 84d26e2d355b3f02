import { describe, expect, it } from 'vitest'
import type { GridRow } from '../../stores/gridCells'
import { unreadableCellsText } from './unreadableCells'

const row = (sku: string): GridRow => ({ name: 'Apple Watch Series 9', sku }) as GridRow

describe('unreadableCellsText', () => {
  it('names each of the first three cells by SKU and column, with its reason, and counts the rest', () => {
    const cells = [
      { row: row('AW9-41-MID'), field: 'priceCents' as const, message: 'Not a number: "1.299,00".' },
      { row: row('AW9-45-STA'), field: 'priceCents' as const, message: 'Not a number: "=A1".' },
      { row: row('AW9-41-PNK'), field: 'quantity' as const, message: 'Not a number: "€50".' },
      { row: row('AW9-45-RED'), field: 'quantity' as const, message: 'Not a number: "x".' },
      { row: row('AW9-45-BLU'), field: 'quantity' as const, message: 'Not a number: "y".' }
    ]
    expect(unreadableCellsText(cells)).toBe(
      '5 cells were left unchanged. SKU AW9-41-MID, New price: Not a number: "1.299,00"; SKU AW9-45-STA, New price: Not a number: "=A1"; SKU AW9-41-PNK, New qty: Not a number: "€50"; and 2 others.'
    )
  })

  it('says one cell plainly, by name where the listing has no SKU', () => {
    expect(unreadableCellsText([{ row: row(''), field: 'priceCents', message: 'Not a number: "abc".' }])).toBe(
      '1 cell was left unchanged. Apple Watch Series 9, New price: Not a number: "abc".'
    )
  })
})
