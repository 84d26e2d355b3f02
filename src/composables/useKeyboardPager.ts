/**
 * The pager under a list's table, usable from the keyboard. naive-ui (2.45) draws NDataTable's pager (and
 * NPagination) as plain divs with a click handler: no Tab stop, no Enter, no name; it has no prop for
 * that, and giving it our own prev / next / label renders drops its button look. So each of its items is
 * given here what a button has: a Tab stop (none while disabled: the first page's Previous, the whole pager
 * while the table loads), Enter and Space to press it (as a click: naive-ui's own handler does the rest), a
 * name ("Page 3", "Next page", "Earlier pages, to page 5") and aria-current on the page shown. naive-ui
 * renders its items afresh as pages change, so a MutationObserver gives each new or changed item the same.
 * The focus ring is App's CSS, with the buttons' (every pager made usable here shows it).
 */
import { watch } from 'vue'

const ITEM = '.n-pagination-item'

/** Page number shown by a page item, or NaN. */
const pageOf = (item: Element | null | undefined) => (item?.matches('.n-pagination-item--clickable') ? Number(item.textContent) : NaN)

function nameOf(item: HTMLElement, index: number, items: HTMLElement[]): string {
  if (index === 0) return 'Previous page'
  if (index === items.length - 1) return 'Next page'
  const page = pageOf(item)
  if (!Number.isNaN(page)) return `Page ${page}`
  // A "…" between two page items: before the page shown it goes back, after it forward (as naive-ui's own jump).
  const before = pageOf(items[index - 1])
  const after = pageOf(items[index + 1])
  const shown = items.findIndex((other) => other.matches('.n-pagination-item--active'))
  return index < shown ? `Earlier pages, to page ${after - 1}` : `Later pages, to page ${before + 1}`
}

function setAttribute(item: HTMLElement, name: string, value: string | null) {
  if (value === null) item.removeAttribute(name)
  else if (item.getAttribute(name) !== value) item.setAttribute(name, value)
}

/** Gives every item of the pagers under `root` a Tab stop, a role, a name and its state. */
function label(root: HTMLElement) {
  for (const pager of root.querySelectorAll<HTMLElement>('.n-pagination')) {
    const items = [...pager.querySelectorAll<HTMLElement>(ITEM)]
    items.forEach((item, index) => {
      const disabled = item.matches('.n-pagination-item--disabled')
      setAttribute(item, 'role', 'button')
      setAttribute(item, 'tabindex', disabled ? '-1' : '0')
      setAttribute(item, 'aria-disabled', disabled ? 'true' : null)
      setAttribute(item, 'aria-current', item.matches('.n-pagination-item--active') ? 'page' : null)
      setAttribute(item, 'aria-label', nameOf(item, index, items))
    })
  }
}

function onKeydown(event: KeyboardEvent) {
  if (event.key !== 'Enter' && event.key !== ' ') return
  const item = event.target instanceof HTMLElement ? event.target.closest<HTMLElement>(`.n-pagination ${ITEM}`) : null
  if (!item || event.target !== item) return
  event.preventDefault()
  item.click()
}

/** Keeps the pager under the element `root` returns (a list's NDataTable) usable from the keyboard, across re-renders and a new table. */
export function useKeyboardPager(root: () => HTMLElement | undefined): void {
  watch(
    root,
    (element, _old, onCleanup) => {
      if (!element) return
      // The whole table is watched (its pager comes and goes with the number of rows); label() touches only
      // the pager's few items and writes only what differs, and the class filter keeps those writes from
      // calling it again.
      const observer = new MutationObserver(() => label(element))
      observer.observe(element, { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] })
      element.addEventListener('keydown', onKeydown)
      label(element)
      onCleanup(() => {
        observer.disconnect()
        element.removeEventListener('keydown', onKeydown)
      })
    },
    { immediate: true, flush: 'post' }
  )
}
