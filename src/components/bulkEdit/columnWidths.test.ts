import { describe, expect, it } from 'vitest'
import {
  buttonsWidth,
  COLUMN_TITLES,
  columnWidths,
  GRID_TYPE,
  SORT_ARROW,
  titleWidth,
  valueWidth,
  type GridColumnKey,
  type MeasureText,
  type WidthsInput
} from './columnWidths'

/** A font whose every character is `px` wide, a bold one `boldPx` (what a canvas would say of a real one). */
const evenFont =
  (px: number, boldPx = px): MeasureText =>
  (text, weight) =>
    text.length * (weight >= 600 ? boldPx : px)

/** The largest new values allowed; the current ones as a marketplace of everyday listings holds them. */
const values = { priceNow: '1,093.57', price: '1,000,000.00', quantityNow: '477', quantity: '1,000,000' }
const NONE: ReadonlySet<GridColumnKey> = new Set()
const widthsOf = (input: Partial<WidthsInput> & Pick<WidthsInput, 'measure' | 'roomy' | 'framePx'>) => columnWidths({ values, withButtons: NONE, ...input })
const IN_VIEW: GridColumnKey[] = ['name', 'priceNow', 'price', 'quantityNow', 'quantity', 'sku', 'brand', 'grade']
const sumInView = (widths: Record<GridColumnKey, number>) => IN_VIEW.reduce((sum, key) => sum + widths[key], 0)

describe('titleWidth', () => {
  it('is the title in the header’s weight, the padding on both sides, and the filter button and sort arrow when they show', () => {
    const measure: MeasureText = (text, weight) => (weight === GRID_TYPE.headerWeight ? (text === SORT_ARROW ? 10.2 : 40.4) : 0)
    const bare = titleWidth(measure, 'Grade', false)
    expect(bare).toBeGreaterThanOrEqual(41 + 2 * GRID_TYPE.paddingPx)
    // The buttons add the arrow (rounded up) and the filter button, whatever the title.
    expect(titleWidth(measure, 'Grade', true) - bare).toBeGreaterThanOrEqual(11 + 24)
    expect(titleWidth(measure, 'Grade', true) - bare).toBe(buttonsWidth(measure))
  })
})

describe('columnWidths', () => {
  it('makes every title whole in a wider font, and the sorted or filtered column’s beside its buttons', () => {
    for (const px of [7, 9]) {
      const measure = evenFont(px)
      const atRest = widthsOf({ measure, roomy: false, framePx: 840 })
      for (const key of Object.keys(COLUMN_TITLES) as GridColumnKey[])
        expect(atRest[key], `${key} at ${px} px a character`).toBeGreaterThanOrEqual(titleWidth(measure, COLUMN_TITLES[key], false))
      for (const key of Object.keys(COLUMN_TITLES).filter((key) => key !== 'reason') as GridColumnKey[]) {
        const sorted = widthsOf({ measure, roomy: false, framePx: 840, withButtons: new Set([key]) })
        expect(sorted[key], `${key} sorted at ${px} px a character`).toBeGreaterThanOrEqual(titleWidth(measure, COLUMN_TITLES[key], true))
      }
    }
  })

  it('keeps room for the buttons only on the columns that show them: the rest give it to the name', () => {
    const measure = evenFont(7)
    const atRest = widthsOf({ measure, roomy: false, framePx: 840 })
    // Nothing sorted: no price or quantity column is wider than its title and values need.
    for (const key of ['priceNow', 'quantityNow'] as const) {
      expect(atRest[key], key).toBe(Math.max(titleWidth(measure, COLUMN_TITLES[key], false), valueWidth(measure, values[key], true)))
      expect(atRest[key], key).toBeLessThan(titleWidth(measure, COLUMN_TITLES[key], true))
    }
    const sortedPrice = widthsOf({ measure, roomy: false, framePx: 840, withButtons: new Set(['priceNow']) })
    expect(sortedPrice.priceNow).toBe(titleWidth(measure, COLUMN_TITLES.priceNow, true))
    // The name keeps its edge; the SKU, last in view, gives the room.
    expect(sortedPrice.name).toBe(atRest.name)
    expect(sortedPrice.sku).toBe(atRest.sku - (sortedPrice.priceNow - atRest.priceNow))
    expect(sumInView(sortedPrice)).toBe(sumInView(atRest))
  })

  it('grows with the font: a wider font gives each measured column more room', () => {
    // In a narrow window, where nothing but the text sets their widths.
    const narrow = widthsOf({ measure: evenFont(6), roomy: false, framePx: 2000 })
    const wide = widthsOf({ measure: evenFont(12), roomy: false, framePx: 2000 })
    for (const key of ['priceNow', 'price', 'quantityNow', 'quantity', 'grade', 'storage'] as const) expect(wide[key], key).toBeGreaterThan(narrow[key])
  })

  it('shows the largest new price and quantity whole in a bold cell, and the largest current ones loaded in a plain one', () => {
    const measure = evenFont(8, 11)
    const widths = widthsOf({ measure, roomy: false, framePx: 840 })
    expect(widths.price).toBeGreaterThanOrEqual(valueWidth(measure, values.price))
    expect(widths.quantity).toBeGreaterThanOrEqual(valueWidth(measure, values.quantity))
    expect(valueWidth(measure, values.price)).toBeGreaterThan(values.price.length * 11)
    // Dearer listings loaded: their current prices and quantities whole, the name giving them the room.
    const even = evenFont(8)
    const everyday = widthsOf({ measure: even, roomy: false, framePx: 840 })
    const dear = widthsOf({ measure: even, roomy: false, framePx: 840, values: { ...values, priceNow: '999,999.99', quantityNow: '1,000,000' } })
    expect(dear.priceNow).toBeGreaterThanOrEqual(valueWidth(even, '999,999.99', true))
    expect(dear.quantityNow).toBeGreaterThanOrEqual(valueWidth(even, '1,000,000', true))
    expect(dear.priceNow).toBeGreaterThan(everyday.priceNow)
    expect(dear.name).toBeLessThan(everyday.name)
  })

  it('narrow: the name and the SKU share exactly what the frame leaves, so the SKU, brand and grade are in view', () => {
    for (const [px, frame] of [
      [7, 840],
      [8, 840],
      [7, 1000]
    ] as const) {
      for (const withButtons of [NONE, new Set<GridColumnKey>(['price'])]) {
        const widths = widthsOf({ measure: evenFont(px), roomy: false, framePx: frame, withButtons })
        const total = sumInView(widths)
        expect(total, `${px} px a character in ${frame}`).toBeLessThanOrEqual(frame)
        expect(total, `${px} px a character in ${frame}`).toBeGreaterThan(frame - 2)
        // The SKU (what tells listings apart) gets the larger share, as preferred.
        expect(widths.sku).toBeGreaterThan(widths.name)
      }
    }
  })

  it('roomy: the name and the SKU keep what they prefer when the frame has room, and shrink only to fit', () => {
    const measure = evenFont(8)
    const wide = widthsOf({ measure, roomy: true, framePx: 1700 })
    const tight = widthsOf({ measure, roomy: true, framePx: 1000 })
    expect(sumInView(wide)).toBeLessThan(1700 - 200)
    expect(tight.name).toBeLessThan(wide.name)
    expect(tight.sku).toBeLessThan(wide.sku)
    expect(sumInView(tight)).toBeLessThanOrEqual(1000)
    // Brand and grade sorted in a roomy window: whole beside their buttons.
    expect(widthsOf({ measure, roomy: true, framePx: 1700, withButtons: new Set(['grade']) }).grade).toBeGreaterThanOrEqual(titleWidth(measure, 'Grade', true))
  })

  it('never makes the name or the SKU narrower than their titles need, however small the frame; with no frame measured, what they prefer', () => {
    const measure = evenFont(8)
    const tiny = widthsOf({ measure, roomy: false, framePx: 300 })
    expect(tiny.name).toBe(titleWidth(measure, 'Name', false))
    expect(tiny.sku).toBe(titleWidth(measure, 'SKU', false))
    const tinySorted = widthsOf({ measure, roomy: false, framePx: 300, withButtons: new Set(['name', 'sku']) })
    expect(tinySorted.name).toBe(titleWidth(measure, 'Name', true))
    expect(tinySorted.sku).toBe(titleWidth(measure, 'SKU', true))
    const unknown = widthsOf({ measure, roomy: false, framePx: 0 })
    expect(unknown.sku).toBeGreaterThan(unknown.name)
    expect(unknown.name).toBeGreaterThan(titleWidth(measure, 'Name', true))
  })
})
