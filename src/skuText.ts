/**
 * A SKU named in words (a toast, a line of a list): an identifier, read as one unit, so never broken across
 * lines at its hyphens. The class `sku` (App.vue) keeps it on one line; its characters stay as they are
 * (no non-breaking hyphens in their place), so a SKU copied from the page is the SKU. (A list's SKU column
 * shows it whole, on further lines where it must: cut short, the end that tells listings apart would not show.)
 */
import { h, type VNode } from 'vue'

export const SKU_CLASS = 'sku'

/**
 * Words that name listings by their SKUs (a toast, a line of a list), as shown: each of `skus` in them
 * kept on one line, the words around them wrapping as words do.
 */
export function skusWhole(text: string, skus: readonly (string | null | undefined)[]): VNode {
  // The longest first, so that a SKU that begins another one does not take the longer one's place.
  const named = [...new Set(skus.filter((sku): sku is string => !!sku))].sort((a, b) => b.length - a.length)
  if (named.length === 0) return h('span', text)
  const pattern = new RegExp(`(${named.map((sku) => sku.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})`)
  // Splitting by a pattern with one group puts each SKU found at an odd place, the words between at the even ones.
  const parts = text.split(pattern)
  return h(
    'span',
    parts.map((part, i) => (i % 2 === 1 ? h('span', { class: SKU_CLASS }, part) : part))
  )
}
