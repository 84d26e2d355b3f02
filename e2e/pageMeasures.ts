/**
 * Measures of how text lies on the page, for specs' `evaluate` callbacks (which run in the page and can
 * import nothing): installed on every page the `app` fixture opens, as `window.sdMeasure`.
 */

export interface PageMeasures {
  /** Lines `el`'s text takes: the tops of its line boxes (a line's pieces differ by a few pixels at most). */
  textLines(el: Element): number
  /** The element in `el` (or `el`) whose content is wider than its box and clipped or ellipsized; null when none. */
  cutBy(el: Element): HTMLElement | null
}

declare global {
  interface Window {
    sdMeasure: PageMeasures
  }
}

/** The init script: self-contained, as Playwright sends its source to the page. */
export function installPageMeasures(): void {
  window.sdMeasure = {
    textLines(el) {
      const tops: number[] = []
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT)
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!node.textContent?.trim()) continue
        const range = document.createRange()
        range.selectNodeContents(node)
        for (const r of range.getClientRects()) if (r.width > 0 && !tops.some((top) => Math.abs(top - r.top) < r.height / 2)) tops.push(r.top)
      }
      return tops.length
    },
    cutBy(el) {
      const all = [el, ...el.querySelectorAll('*')] as HTMLElement[]
      return all.find((e) => e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible') ?? null
    }
  }
}
