/**
 * The search box of a list view: what the seller types is applied at every keystroke (and again on
 * Enter), and Ctrl/Cmd+F puts the cursor in it (useFindShortcut). There is no pause before searching: the
 * list is read from the snapshot on this computer, and the list keeps only the answer to its latest request (an
 * older answer arriving late is dropped), so the rows follow the last keystroke as soon as its answer is in.
 */
import type { InputInst } from 'naive-ui'
import { ref, watch } from 'vue'
import { offerFindTarget } from './useFindShortcut'

export function useSearchBox(current: () => string, apply: (term: string) => void) {
  const text = ref(current())
  const input = ref<InputInst | null>(null)

  /** Applies what is typed now (Enter). */
  function flush() {
    apply(text.value)
  }

  // Synchronously on input: the query leaves in the same task as the keystroke.
  watch(text, flush, { flush: 'sync' })

  // The term may change elsewhere ("Clear filters"): show it (applying it again is a no-op).
  watch(current, (term) => {
    if (term !== text.value) text.value = term
  })

  offerFindTarget(() => {
    input.value?.focus()
    input.value?.select()
  })

  return { text, input, flush }
}
