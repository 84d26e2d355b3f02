/**
 * A table cell's text on one line, cut with "…" by CSS when the column is narrower, the whole text in
 * the native tooltip. Cheaper than naive-ui's `ellipsis: { tooltip: true }`, whose tooltip measures
 * every cell on every render (a forced layout per cell each time rows change). Styled by ListFrame.
 */
import { h, type VNode } from 'vue'

export function clippedText(text: string, className?: string): VNode {
  return h('span', { class: className ? `clipped ${className}` : 'clipped', title: text }, text)
}
