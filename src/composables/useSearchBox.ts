/**
 * The search box of a list view: what the seller types is applied after a short pause (debounced),
 * at once on Enter, and Ctrl/Cmd+F puts the cursor in it.
 */
import type { InputInst } from 'naive-ui'
import { onBeforeUnmount, ref, watch } from 'vue'
import { useShortcut } from './useShortcut'

// Local queries answer in well under 20 ms, so a short pause is enough to skip intermediate keystrokes.
const DEBOUNCE_MS = 60

export function useSearchBox(current: () => string, apply: (term: string) => void) {
  const text = ref(current())
  const input = ref<InputInst | null>(null)
  let timer: ReturnType<typeof setTimeout> | undefined

  function cancel() {
    if (timer !== undefined) clearTimeout(timer)
    timer = undefined
  }

  /** Applies what is typed now (Enter). */
  function flush() {
    cancel()
    apply(text.value)
  }

  watch(text, () => {
    cancel()
    timer = setTimeout(flush, DEBOUNCE_MS)
  })

  // The term may change elsewhere ("Clear filters"): show it.
  watch(current, (term) => {
    if (term !== text.value) {
      text.value = term
      cancel()
    }
  })

  useShortcut({ key: 'f', mod: true }, () => {
    input.value?.focus()
    input.value?.select()
  })

  onBeforeUnmount(cancel)

  return { text, input, flush }
}
