/**
 * A value the seller is warned about (listingChangeWarning: a large move, stock below the minimum order) is
 * saved only by a second Enter / Save on that same value: the first one says the warning and asks again,
 * and any change to the value asks again (even back to the value asked about). One rule for every place that saves one listing's value (a cell
 * of Sell requests, the Edit dialog), so a slipped digit is never published by a single key press.
 *
 * `value` is what the seller typed (all of it, when a form has several fields); `warned` whether it carries
 * a warning now.
 */
import { computed, ref, watch, type ComputedRef } from 'vue'

export interface AskTwice {
  /** The seller has been asked about the value as it is now: the next Enter / Save saves it. */
  asked: ComputedRef<boolean>
  /** On Enter / Save: true when it may save now; false when this press only asks (the value is warned about and not asked yet). */
  mayProceed(): boolean
  /** Forgets the question (a field opened afresh). */
  reset(): void
}

export function useAskTwice(value: () => string, warned: () => boolean): AskTwice {
  /** The value Enter / Save was pressed on once while it carried a warning. */
  const askedFor = ref<string | null>(null)
  // Any change forgets the question, so typing back to the value asked about asks again.
  watch(value, () => (askedFor.value = null), { flush: 'sync' })
  const asked = computed(() => warned() && askedFor.value === value())
  return {
    asked,
    mayProceed() {
      if (!warned() || asked.value) return true
      askedFor.value = value()
      return false
    },
    reset() {
      askedFor.value = null
    }
  }
}
