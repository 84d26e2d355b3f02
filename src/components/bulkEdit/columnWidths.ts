/**
 * The bulk-edit grid's columns: their titles, and their widths worked out from the text they must show
 * whole, measured in the font the grid actually draws (fonts differ from one machine to the next: where
 * one is missing, another, wider one stands in). Pure: the caller hands in how wide a text is drawn.
 *
 * - Every title is whole with the grid's padding on both sides. Where it sorts and filters, the title
 *   also keeps its room beside RevoGrid's filter button and a sorted column's arrow: always for the
 *   prices and quantities, the name, the SKU and the details past the grade; the brand and the grade only
 *   in a roomy window (in a narrow one their room goes to the name and the SKU).
 * - Prices and quantities are whole up to the largest the marketplace allows, in a marked (bold) cell.
 * - The name and the SKU share what the grid's frame leaves beside the columns that must be in view
 *   without scrolling sideways (the prices and quantities, the brand and the grade), in the proportions
 *   they prefer: narrow, they grow or shrink to fill it; roomy, they only shrink, and the details past
 *   the grade come into view instead. Never narrower than their own titles need.
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

/** How wide `text` is drawn in the grid's font at its size, in this weight. */
export type MeasureText = (text: string, weight: number) => number

/** The widest text each price and quantity column must show whole: the largest value allowed, as a cell shows it. */
export interface LargestValues {
  price: string
  quantity: string
}

/** What the widths follow: the text's measure, the window's size class, and the width of the grid's frame (zero while unknown). */
export interface WidthsInput {
  measure: MeasureText
  roomy: boolean
  framePx: number
  largest: LargestValues
}

/** What the name and the SKU prefer, by the window's size class; and the other columns' least widths (their cells' usual values). */
const PREFERRED = {
  narrow: { name: 136, sku: 168, reason: 300 },
  roomy: { name: 240, sku: 226, reason: 420 }
} as const
const LEAST = {
  narrow: { priceNow: 108, price: 108, quantityNow: 98, quantity: 98, brand: 0, grade: 0 },
  roomy: { priceNow: 116, price: 116, quantityNow: 106, quantity: 106, brand: 92, grade: 90 }
} as const
const DETAIL_LEAST_PX = 90

/** The room a header needs for its title, with or without the filter button and the sort arrow beside it. */
export function titleWidth(measure: MeasureText, title: string, withButtons: boolean): number {
  const text = Math.ceil(measure(title, GRID_TYPE.headerWeight))
  const buttons = withButtons ? Math.ceil(measure(SORT_ARROW, GRID_TYPE.headerWeight)) + FILTER_BUTTON_PX : 0
  return text + 2 * GRID_TYPE.paddingPx + buttons + HEADER_EXTRA_PX
}

/** The room a cell needs to show `text` whole in a marked (bold) cell. */
export function valueWidth(measure: MeasureText, text: string): number {
  return Math.ceil(measure(text, GRID_TYPE.markedWeight)) + 2 * GRID_TYPE.paddingPx + 1
}

export function columnWidths({ measure, roomy, framePx, largest }: WidthsInput): Record<GridColumnKey, number> {
  const size = roomy ? 'roomy' : 'narrow'
  const least = LEAST[size]
  const title = (key: GridColumnKey, withButtons = true) => titleWidth(measure, COLUMN_TITLES[key], withButtons)
  const figure = (key: 'priceNow' | 'price' | 'quantityNow' | 'quantity', value: string) => Math.max(least[key], title(key), valueWidth(measure, value))
  const detail = (key: 'color' | 'storage' | 'carrier' | 'status') => Math.max(DETAIL_LEAST_PX, title(key))

  const inView = {
    priceNow: figure('priceNow', largest.price),
    price: figure('price', largest.price),
    quantityNow: figure('quantityNow', largest.quantity),
    quantity: figure('quantity', largest.quantity),
    brand: Math.max(least.brand, title('brand', roomy)),
    grade: Math.max(least.grade, title('grade', roomy))
  }
  const taken = Object.values(inView).reduce((sum, width) => sum + width, 0)
  const shared = { name: title('name'), sku: title('sku') }
  const { name, sku } = share(framePx > 0 ? framePx - taken : null, PREFERRED[size], shared, !roomy)

  return {
    name,
    sku,
    ...inView,
    reason: Math.max(PREFERRED[size].reason, title('reason', false)),
    color: detail('color'),
    storage: detail('storage'),
    carrier: detail('carrier'),
    status: detail('status')
  }
}

/**
 * The name's and the SKU's widths in `room`, in the proportions of what they prefer: grown to fill it
 * only when `grow`, shrunk when it is short, never below `least`. Unknown room (the frame not measured
 * yet) gives what they prefer.
 */
function share(
  room: number | null,
  preferred: { name: number; sku: number },
  least: { name: number; sku: number },
  grow: boolean
): { name: number; sku: number } {
  const wanted = preferred.name + preferred.sku
  const fits = room === null || (room >= wanted && !grow)
  const name = Math.max(least.name, fits ? preferred.name : Math.floor((room * preferred.name) / wanted))
  const sku = Math.max(least.sku, fits ? preferred.sku : Math.floor(room - name))
  return { name, sku }
}
