/**
 * The keyboard stays with the row it was on when the list's rows are read again and that row moves
 * (sorted by last update, an edit brings its row to the top; a sync re-sorts). A moved row's DOM is
 * taken out and put back, and a browser drops the focus of an element moved so: the next Tab started
 * from the top of the page. Before the rows change, the focused element's row and test id are noted;
 * after the table has drawn them, if the focus was lost, it goes back to that element in that row,
 * wherever it is now on the page. A row gone from the page (deleted, on another page) leaves it be.
 *
 * Rows carry their key as `data-row-key` (rowKeyProps).
 */
import { nextTick, watch, type HTMLAttributes, type Ref, type WatchSource } from 'vue'

export const ROW_KEY_ATTRIBUTE = 'data-row-key'

/** The row's own attributes with its key added, for a table's row-props. */
export function rowKeyProps<T>(rowKey: (row: T) => string, rowProps?: (row: T) => HTMLAttributes): (row: T) => HTMLAttributes {
  return (row) => ({ ...rowProps?.(row), [ROW_KEY_ATTRIBUTE]: rowKey(row) }) as HTMLAttributes
}

interface FocusedInRow {
  key: string
  testId: string
}

function focusedInRow(root: HTMLElement): FocusedInRow | null {
  const focused = document.activeElement
  if (!(focused instanceof HTMLElement) || !root.contains(focused)) return null
  const row = focused.closest(`[${ROW_KEY_ATTRIBUTE}]`)
  const named = focused.closest('[data-testid]')
  const key = row?.getAttribute(ROW_KEY_ATTRIBUTE)
  const testId = named?.getAttribute('data-testid')
  return key && testId && row!.contains(named) ? { key, testId } : null
}

const lost = () => document.activeElement === null || document.activeElement === document.body

export function useFocusFollowsRow(root: Ref<HTMLElement | null | undefined>, rows: WatchSource<unknown>): void {
  let noted: FocusedInRow | null = null
  // 'pre': before the table patches its rows, while the focused element is still where the seller left it.
  watch(
    rows,
    () => {
      noted = root.value ? focusedInRow(root.value) : null
      if (!noted) return
      const was = noted
      void nextTick(() => {
        if (noted !== was || !lost() || !root.value) return
        const row = root.value.querySelector<HTMLElement>(`[${ROW_KEY_ATTRIBUTE}="${CSS.escape(was.key)}"]`)
        const element = `[data-testid="${CSS.escape(was.testId)}"]`
        // The row itself may be what had the focus (an order's row opens it with Enter).
        const target = row?.matches(element) ? row : row?.querySelector<HTMLElement>(element)
        target?.focus()
      })
    },
    { flush: 'pre' }
  )
}
