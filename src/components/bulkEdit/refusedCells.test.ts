import { describe, expect, it } from 'vitest'
import type { GridRow } from '../../stores/gridCells'
import { afterEdit, NO_REFUSED, refusedKey } from './refusedCells'

const row = (id: string): GridRow => ({ id, name: 'Apple Watch Series 9', sku: `SKU-${id}` }) as GridRow

describe('refused cells', () => {
  it('marks each cell an edit could not read, with why, and no other', () => {
    const edits = [
      { id: 'a', field: 'priceCents' as const, text: 'abc' },
      { id: 'b', field: 'priceCents' as const, text: '12.50' },
      { id: 'c', field: 'quantity' as const, text: '12,5' }
    ]
    const refused = afterEdit(NO_REFUSED, edits, [
      { row: row('a'), field: 'priceCents', message: 'Not a number: “abc”.' },
      { row: row('c'), field: 'quantity', message: 'Quantity must be a whole number.' }
    ])
    expect([...refused]).toEqual([
      [refusedKey('a', 'priceCents'), 'Not a number: “abc”.'],
      [refusedKey('c', 'quantity'), 'Quantity must be a whole number.']
    ])
  })

  it('clears a cell’s mark once it is changed again, keeps the others, and keeps a listing’s other field apart', () => {
    const refused = afterEdit(
      NO_REFUSED,
      [],
      [
        { row: row('a'), field: 'priceCents', message: 'Not a number: “abc”.' },
        { row: row('a'), field: 'quantity', message: 'Not a number: “x”.' },
        { row: row('b'), field: 'priceCents', message: 'Not a number: “y”.' }
      ]
    )
    // Fixed with a value, and emptied (Delete): both marks go; the quantity of the same listing keeps its own.
    const after = afterEdit(
      refused,
      [
        { id: 'a', field: 'priceCents', text: '12.50' },
        { id: 'b', field: 'priceCents', text: '' }
      ],
      []
    )
    expect([...after.keys()]).toEqual([refusedKey('a', 'quantity')])
    // Refused again: the mark says the new reason.
    const again = afterEdit(after, [{ id: 'a', field: 'quantity', text: 'zz' }], [{ row: row('a'), field: 'quantity', message: 'Not a number: “zz”.' }])
    expect(again.get(refusedKey('a', 'quantity'))).toBe('Not a number: “zz”.')
  })

  it('leaves the marks as they are (the same map) when nothing was refused and none were marked', () => {
    expect(afterEdit(NO_REFUSED, [{ id: 'a', field: 'priceCents', text: '1' }], [])).toBe(NO_REFUSED)
  })
})
