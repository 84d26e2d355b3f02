import { describe, expect, it } from 'vitest'
import { COLUMN_TITLES, columnWidths, GRID_TYPE, SORT_ARROW, titleWidth, valueWidth, type GridColumnKey, type MeasureText } from './columnWidths'

/** A font whose every character is `px` wide, a bold one `boldPx` (what a canvas would say of a real one). */
const evenFont =
  (px: number, boldPx = px): MeasureText =>
  (text, weight) =>
    text.length * (weight >= 600 ? boldPx : px)

const largest = { price: '1,000,000.00', quantity: '1,000,000' }
const IN_VIEW: GridColumnKey[] = ['name', 'priceNow', 'price', 'quantityNow', 'quantity', 'sku', 'brand', 'grade']
const sumInView = (widths: Record<GridColumnKey, number>) => IN_VIEW.reduce((sum, key) => sum + widths[key], 0)

describe('titleWidth', () => {
  it('is the title in the header’s weight, the padding on both sides, and the filter button and sort arrow when they show', () => {
    const measure: MeasureText = (text, weight) => (weight === GRID_TYPE.headerWeight ? (text === SORT_ARROW ? 10.2 : 40.4) : 0)
    const bare = titleWidth(measure, 'Grade', false)
    expect(bare).toBeGreaterThanOrEqual(41 + 2 * GRID_TYPE.paddingPx)
    // The buttons add the arrow (rounded up) and the filter button, whatever the title.
    expect(titleWidth(measure, 'Grade', true) - bare).toBeGreaterThanOrEqual(11 + 24)
  })
})

describe('columnWidths', () => {
  it('makes every title whole in a wider font: the grade’s cut at a fixed width is whole here', () => {
    for (const px of [7, 9]) {
      const measure = evenFont(px)
      const widths = columnWidths({ measure, roomy: false, framePx: 840, largest })
      for (const key of Object.keys(COLUMN_TITLES) as GridColumnKey[]) {
        // Brand and grade keep room for their titles alone in a narrow window; every other one beside its buttons too.
        const buttons = !['brand', 'grade', 'reason'].includes(key)
        expect(widths[key], `${key} at ${px} px a character`).toBeGreaterThanOrEqual(titleWidth(measure, COLUMN_TITLES[key], buttons))
      }
    }
  })

  it('grows with the font: a wider font gives each measured column more room', () => {
    const narrow = columnWidths({ measure: evenFont(6), roomy: true, framePx: 2000, largest })
    const wide = columnWidths({ measure: evenFont(10), roomy: true, framePx: 2000, largest })
    for (const key of ['priceNow', 'price', 'quantityNow', 'quantity', 'grade', 'storage'] as const) expect(wide[key], key).toBeGreaterThan(narrow[key])
  })

  it('shows the largest price and quantity whole in a bold cell', () => {
    const measure = evenFont(8, 11)
    const widths = columnWidths({ measure, roomy: false, framePx: 840, largest })
    expect(widths.price).toBeGreaterThanOrEqual(valueWidth(measure, largest.price))
    expect(widths.priceNow).toBeGreaterThanOrEqual(valueWidth(measure, largest.price))
    expect(widths.quantity).toBeGreaterThanOrEqual(valueWidth(measure, largest.quantity))
    expect(valueWidth(measure, largest.price)).toBeGreaterThan(largest.price.length * 11)
  })

  it('narrow: the name and the SKU share exactly what the frame leaves, so the SKU, brand and grade are in view', () => {
    for (const [px, frame] of [
      [7, 840],
      [8, 840],
      [7, 1000]
    ] as const) {
      const widths = columnWidths({ measure: evenFont(px), roomy: false, framePx: frame, largest })
      const total = sumInView(widths)
      expect(total, `${px} px a character in ${frame}`).toBeLessThanOrEqual(frame)
      expect(total, `${px} px a character in ${frame}`).toBeGreaterThan(frame - 2)
      // The SKU (what tells listings apart) gets the larger share, as preferred.
      expect(widths.sku).toBeGreaterThan(widths.name)
    }
  })

  it('roomy: the name and the SKU keep what they prefer when the frame has room, and shrink only to fit', () => {
    const measure = evenFont(8)
    const wide = columnWidths({ measure, roomy: true, framePx: 1700, largest })
    const tight = columnWidths({ measure, roomy: true, framePx: 1000, largest })
    expect(sumInView(wide)).toBeLessThan(1700 - 200)
    expect(tight.name).toBeLessThan(wide.name)
    expect(tight.sku).toBeLessThan(wide.sku)
    expect(sumInView(tight)).toBeLessThanOrEqual(1000)
    // Brand and grade keep room for their buttons in a roomy window.
    expect(wide.grade).toBeGreaterThanOrEqual(titleWidth(measure, 'Grade', true))
  })

  it('never makes the name or the SKU narrower than their titles need, however small the frame; with no frame measured, what they prefer', () => {
    const measure = evenFont(8)
    const tiny = columnWidths({ measure, roomy: false, framePx: 300, largest })
    expect(tiny.name).toBe(titleWidth(measure, 'Name', true))
    expect(tiny.sku).toBe(titleWidth(measure, 'SKU', true))
    const unknown = columnWidths({ measure, roomy: false, framePx: 0, largest })
    expect(unknown.sku).toBeGreaterThan(unknown.name)
    expect(unknown.name).toBeGreaterThan(titleWidth(measure, 'Name', true))
  })
})
