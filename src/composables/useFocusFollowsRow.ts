/**
 * The keyboard stays with the row it was on when the list's rows are read again and that row moves
 * (a sync re-sorts; new orders push the rows down; a delete closes the gap). A moved row's DOM is
 * taken out and put back, and a browser drops the focus of an element moved so: the next Tab started
 * from the top of the page. Before the rows change, the focused element's row, position and test id
 * are noted; after the table has drawn them, if the focus was lost, it goes back to that element in
 * that row, wherever it is now on the page. A row gone from the page (the sort took it to another
 * page, or it was deleted) leaves the focus to the same element of the row that came after it (of the
 * one before it when it was the last), so the seller goes on down the page from where they were. No
 * row left on the page (the last one deleted, or none matches any more): the table itself, so Tab goes
 * on from the list and a screen reader reads what it says instead of rows.
 *
 * The same holds for the place the keyboard left for a dialog opened from a row (Edit, Delete): the
 * dialog gives the focus back to the element that opened it, and when that row has left the page
 * meanwhile, the focus would fall to the page as the dialog goes; it goes to that place instead.
 *
 * Rows carry their key as `data-row-key` (rowKeyProps).
 */
import { nextTick, onBeforeUnmount, watch, type HTMLAttributes, type Ref, type WatchSource } from 'vue'

export const ROW_KEY_ATTRIBUTE = 'data-row-key'

/** A dialog, or what a dialog draws outside it (menus, tooltips): the keyboard there comes back to the table. */
const OVERLAY = '[role="dialog"], [aria-modal="true"], .n-modal-container, .v-binder-follower-container'

/** The dialog itself, which can hold the keyboard while none of its controls can. */
const DIALOG = '[role="dialog"], [aria-modal="true"]'

/** A row of the table (rowKeyProps). */
const ROW_SELECTOR = `[${ROW_KEY_ATTRIBUTE}]`

/** The row's own attributes with its key added, for a table's row-props. */
export function rowKeyProps<T>(rowKey: (row: T) => string, rowProps?: (row: T) => HTMLAttributes): (row: T) => HTMLAttributes {
  return (row) => ({ ...rowProps?.(row), [ROW_KEY_ATTRIBUTE]: rowKey(row) }) as HTMLAttributes
}

interface PlaceInRow {
  key: string
  testId: string
  /** The rows after it and before it (nearest first), and its position: where the focus goes once the row has left. */
  after: string[]
  before: string[]
  index: number
}

function placeOf(root: HTMLElement, element: Element | null): PlaceInRow | null {
  if (!(element instanceof HTMLElement) || !root.contains(element)) return null
  const row = element.closest(ROW_SELECTOR)
  const named = element.closest('[data-testid]')
  const key = row?.getAttribute(ROW_KEY_ATTRIBUTE)
  const testId = named?.getAttribute('data-testid')
  if (!row || !key || !testId || !row.contains(named)) return null
  const keys = [...root.querySelectorAll(ROW_SELECTOR)].map((r) => r.getAttribute(ROW_KEY_ATTRIBUTE) ?? '')
  const index = keys.indexOf(key)
  return { key, testId, after: keys.slice(index + 1), before: keys.slice(0, index).reverse(), index }
}

const lost = () => document.activeElement === null || document.activeElement === document.body

/**
 * The element `place` names: in its row, or, its row gone from the page, in the first of the rows that
 * came after it still here (the seller goes on down the page), else of those before it, else in the row
 * now at its position.
 */
function elementAt(root: HTMLElement, place: PlaceInRow): HTMLElement | null {
  const element = `[data-testid="${CSS.escape(place.testId)}"]`
  const rows = new Map([...root.querySelectorAll<HTMLElement>(ROW_SELECTOR)].map((r) => [r.getAttribute(ROW_KEY_ATTRIBUTE), r]))
  const key = [place.key, ...place.after, ...place.before].find((k) => rows.has(k))
  const row = key !== undefined ? rows.get(key) : [...rows.values()][Math.min(place.index, rows.size - 1)]
  // The row itself may be what had the focus (an order's row opens it with Enter).
  return row?.matches(element) ? row : (row?.querySelector<HTMLElement>(element) ?? null)
}

/** Focuses an element that is not a control (a table, a dialog) without scrolling it into view. */
function focusItself(element: HTMLElement): void {
  if (!element.hasAttribute('tabindex')) element.setAttribute('tabindex', '-1')
  element.focus({ preventScroll: true })
}

/** Where the keyboard goes back to: the element `place` names (elementAt), or the table when no row is left. */
function placeToFocus(root: HTMLElement, place: PlaceInRow): void {
  const element = elementAt(root, place)
  if (element) element.focus()
  else focusItself(root)
}

export function useFocusFollowsRow(root: Ref<HTMLElement | null | undefined>, rows: WatchSource<unknown>): void {
  let noted: PlaceInRow | null = null
  // 'pre': before the table patches its rows, while the focused element is still where the seller left it.
  watch(
    rows,
    () => {
      noted = root.value ? placeOf(root.value, document.activeElement) : null
      if (!noted) return
      const was = noted
      void nextTick(() => {
        if (noted !== was || !lost() || !root.value) return
        placeToFocus(root.value, was)
      })
    },
    { flush: 'pre' }
  )

  // ── The place left for a dialog ──
  /** Where the keyboard was in the table when it went to a dialog (or a menu) opened from there. */
  let away: PlaceInRow | null = null
  function onFocusIn(event: FocusEvent) {
    const target = event.target instanceof Element ? event.target : null
    if (!root.value || !target || root.value.contains(target)) return void (away = null)
    if (!target.closest(OVERLAY)) return void (away = null)
    // Into a dialog: from the table (noted as it leaves), or on within the dialog (kept).
    const from = placeOf(root.value, event.relatedTarget instanceof Element ? event.relatedTarget : null)
    if (from) away = from
  }
  /**
   * The dialog has gone and could not give the focus back (its row left the page): the place takes it.
   * A dialog still shown that let the focus go (its button turned busy while it works) keeps it on
   * itself: the place is taken once it has gone. Given to the table meanwhile, the dialog's focus trap
   * would pull it back, and the place would be forgotten on the way (the row already deleted).
   */
  function onFocusOut(event: FocusEvent) {
    const place = away
    const leaving = event.target instanceof HTMLElement ? event.target : null
    if (!place || !leaving?.closest(OVERLAY)) return
    requestAnimationFrame(() => {
      if (away !== place || !lost() || !root.value) return
      const dialog = leaving.isConnected && leaving.getClientRects().length > 0 ? leaving.closest<HTMLElement>(DIALOG) : null
      if (dialog) {
        focusItself(dialog)
        return
      }
      away = null
      placeToFocus(root.value, place)
    })
  }
  document.addEventListener('focusin', onFocusIn)
  document.addEventListener('focusout', onFocusOut)
  onBeforeUnmount(() => {
    document.removeEventListener('focusin', onFocusIn)
    document.removeEventListener('focusout', onFocusOut)
  })
}
