/**
 * The bulk-edit grid's columns: their titles, and their widths worked out from the text they must show
 * whole, measured in the font the grid actually draws (fonts differ from one machine to the next: where
 * one is missing, another, wider one stands in). Pure: the caller hands in how wide a text is drawn.
 *
 * - Every title is whole with the grid's padding on both sides. Beside it, RevoGrid shows a sorted
 *   column's arrow and, on a column with a filter set, its filter button: those columns keep room for
 *   both. Every other column's title has only its own room: the filter button shows there only while the
 *   pointer is on the header, and room made then would move every column after it under the pointer
 *   (the title is shortened with an ellipsis meanwhile, and whole again once the pointer leaves).
 * - A new price or quantity is whole up to the largest the marketplace allows, in a marked (bold) cell;
 *   a current one (never marked) up to the largest of the listings loaded.
 * - The name and the SKU share what the grid's frame leaves beside the columns that must be in view
 *   without scrolling sideways (the prices and quantities, the brand and the grade), in the proportions
 *   they prefer: narrow, they grow or shrink to fill it; roomy, they only shrink, and the details past
 *   the grade come into view instead. Never narrower than their own titles need. The name's share is
 *   the same whichever column is sorted: the SKU, last of the columns in view, gives a sorted column its
 *   buttons' room, so a click that sorts moves neither the name's edge nor the column clicked.
 */
import { priceField, quantityField } from '@shared/listingFields'

export type GridColumnKey =
  'name' | 'priceNow' | 'price' | 'quantityNow' | 'quantity' | 'reason' | 'sku' | 'brand' | 'grade' | 'color' | 'storage' | 'carrier' | 'status'

/** The columns' titles, as the grid's header shows them. */
export const COLUMN_TITLES: Record<GridColumnKey, string> = {
  name: 'Name',
  priceNow: 'Price now',
  price: priceField.gridTitle,
  quantityNow: 'Qty now',
  quantity: quantityField.gridTitle,
  reason: 'Did not apply',
  sku: 'SKU',
  brand: 'Brand',
  grade: 'Grade',
  color: 'Color',
  storage: 'Storage',
  carrier: 'Carrier',
  status: 'Status'
}

/**
 * The grid's type and spacing: the grid sets RevoGrid's style from these (its header's and cells' size
 * and padding, the header's weight, a marked cell's weight), and the widths are measured with them.
 */
export const GRID_TYPE = { sizePx: 13, headerWeight: 600, markedWeight: 600, paddingPx: 6 } as const

/** RevoGrid's filter button, as its own stylesheet sizes it once shown (hovered or active). */
const FILTER_BUTTON_PX = 24
/** The arrow a sorted column's header shows, drawn in the header's font. */
export const SORT_ARROW = '↑'
/** The header's borders and the margin after its buttons, with a pixel for rounding. */
const HEADER_EXTRA_PX = 3
/** The weight a cell with no mark is drawn in. */
const PLAIN_WEIGHT = 400

/** How wide `text` is drawn in the grid's font at its size, in this weight. */
export type MeasureText = (text: string, weight: number) => number

/** The price and quantity columns. */
export type FigureColumnKey = 'priceNow' | 'price' | 'quantityNow' | 'quantity'

/**
 * The widest text each price and quantity column must show whole, as a cell shows it: for a new value,
 * the largest allowed; for a current one, the largest of the listings loaded.
 */
export type FigureValues = Record<FigureColumnKey, string>

/** What the widths follow. */
export interface WidthsInput {
  measure: MeasureText
  /** The window's size class. */
  roomy: boolean
  /** The width of the grid's frame (zero while unknown). */
  framePx: number
  values: FigureValues
  /** The columns whose header shows its buttons for good: the one sorted, and any with a filter set. */
  withButtons: ReadonlySet<GridColumnKey>
}

/**
 * What the name and the SKU prefer, by the window's size class; and the other columns' least widths: in a
 * roomy window room to spare for their cells' usual values, in a narrow one only what their titles and
 * values need.
 */
const PREFERRED = {
  narrow: { name: 160, sku: 168, reason: 300 },
  roomy: { name: 240, sku: 226, reason: 420 }
} as const
const LEAST = {
  narrow: { priceNow: 0, price: 0, quantityNow: 0, quantity: 0, brand: 0, grade: 0 },
  roomy: { priceNow: 116, price: 116, quantityNow: 106, quantity: 106, brand: 92, grade: 90 }
} as const
const DETAIL_LEAST_PX = 90

/** The room a header's buttons take beside its title: the sort arrow and the filter button. */
export function buttonsWidth(measure: MeasureText): number {
  return Math.ceil(measure(SORT_ARROW, GRID_TYPE.headerWeight)) + FILTER_BUTTON_PX
}

/** The room a header needs for its title, with or without the filter button and the sort arrow beside it. */
export function titleWidth(measure: MeasureText, title: string, withButtons: boolean): number {
  const text = Math.ceil(measure(title, GRID_TYPE.headerWeight))
  return text + 2 * GRID_TYPE.paddingPx + (withButtons ? buttonsWidth(measure) : 0) + HEADER_EXTRA_PX
}

/** The room a cell needs to show `text` whole, in a marked (bold) cell unless `plain`. */
export function valueWidth(measure: MeasureText, text: string, plain = false): number {
  return Math.ceil(measure(text, plain ? PLAIN_WEIGHT : GRID_TYPE.markedWeight)) + 2 * GRID_TYPE.paddingPx + 1
}

/** The columns a current value is shown in: never marked, so drawn plain. */
const CURRENT: ReadonlySet<FigureColumnKey> = new Set(['priceNow', 'quantityNow'])

export function columnWidths({ measure, roomy, framePx, values, withButtons }: WidthsInput): Record<GridColumnKey, number> {
  const size = roomy ? 'roomy' : 'narrow'
  const least = LEAST[size]
  /** The columns that must be in view, their headers' buttons shown where `buttons` says. */
  const inViewWith = (buttons: ReadonlySet<GridColumnKey>) => {
    const title = (key: GridColumnKey) => titleWidth(measure, COLUMN_TITLES[key], buttons.has(key))
    const figure = (key: FigureColumnKey) => Math.max(least[key], title(key), valueWidth(measure, values[key], CURRENT.has(key)))
    return {
      priceNow: figure('priceNow'),
      price: figure('price'),
      quantityNow: figure('quantityNow'),
      quantity: figure('quantity'),
      brand: Math.max(least.brand, title('brand')),
      grade: Math.max(least.grade, title('grade'))
    }
  }
  const total = (widths: Record<string, number>) => Object.values(widths).reduce((sum, width) => sum + width, 0)
  const inView = inViewWith(withButtons)
  const leastShared = {
    name: titleWidth(measure, COLUMN_TITLES.name, withButtons.has('name')),
    sku: titleWidth(measure, COLUMN_TITLES.sku, withButtons.has('sku'))
  }
  const preferred = PREFERRED[size]
  // The name's share as though one column were sorted, whichever it is: the same for any sort.
  const nameRoom = framePx > 0 ? framePx - total(inViewWith(new Set())) - buttonsWidth(measure) : null
  const name = nameShare(nameRoom, preferred, leastShared.name, !roomy)
  // The SKU: what is left beside the name, grown to fill it only in a narrow window.
  const skuRoom = framePx - total(inView) - name
  const sku = framePx > 0 ? Math.max(leastShared.sku, roomy ? Math.min(preferred.sku, skuRoom) : skuRoom) : preferred.sku
  const detail = (key: 'color' | 'storage' | 'carrier' | 'status') => Math.max(DETAIL_LEAST_PX, titleWidth(measure, COLUMN_TITLES[key], withButtons.has(key)))

  return {
    name,
    sku,
    ...inView,
    reason: Math.max(preferred.reason, titleWidth(measure, COLUMN_TITLES.reason, false)),
    color: detail('color'),
    storage: detail('storage'),
    carrier: detail('carrier'),
    status: detail('status')
  }
}

/**
 * The name's width: its part of `room` in the proportion of what the name and the SKU prefer, grown to
 * fill it only when `grow`, shrunk when it is short, never below `least`. Unknown room (the frame not
 * measured yet) gives what it prefers.
 */
function nameShare(room: number | null, preferred: { name: number; sku: number }, least: number, grow: boolean): number {
  const fits = room === null || (room >= preferred.name + preferred.sku && !grow)
  return Math.max(least, fits ? preferred.name : Math.floor((room * preferred.name) / (preferred.name + preferred.sku)))
}
