import type { InputInst } from 'naive-ui'
import { nextTick, watch, type Ref } from 'vue'

/** How long keys are held for a dialog that is on its way (holdTypedAhead), at most. */
const HOLD_TYPED_AHEAD_MS = 5_000

/** The characters typed while a dialog is on its way, for its field (holdTypedAhead). */
let typedAhead: { text: string; stop: () => void } | null = null

/**
 * From now until a dialog's field takes the keyboard (focusOnOpen), the characters the seller types are
 * kept for that field instead of reaching the control behind: for a dialog its opener shows only after
 * reading what it needs. Pressing Enter on "Change many…" and typing a percent at once, the minus sign
 * went to the button and the cut became a raise; a space would have pressed the button again.
 */
export function holdTypedAhead(): void {
  if (typedAhead) return
  const keep = (event: KeyboardEvent) => {
    if (event.key.length !== 1 || event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return
    event.preventDefault()
    event.stopPropagation()
    held.text += event.key
  }
  const held = {
    text: '',
    stop: () => {
      document.removeEventListener('keydown', keep, true)
      clearTimeout(timer)
      if (typedAhead === held) typedAhead = null
    }
  }
  const timer = setTimeout(held.stop, HOLD_TYPED_AHEAD_MS)
  document.addEventListener('keydown', keep, true)
  typedAhead = held
}

/** The dialog is not coming after all: what was held is dropped. */
export function dropTypedAhead(): void {
  typedAhead?.stop()
}

/** Puts the characters held for a dialog into its field, where the caret is, as if typed there. */
function giveTypedAhead(field: InputInst | null): void {
  const held = typedAhead
  if (!held) return
  held.stop()
  const input = field?.inputElRef
  if (!input || held.text === '') return
  input.setRangeText(held.text, input.selectionStart ?? input.value.length, input.selectionEnd ?? input.value.length, 'end')
  input.dispatchEvent(new Event('input', { bubbles: true }))
}

/**
 * Gives a dialog's first field the keyboard, with what was typed while the dialog was on its way,
 * unless the seller already works in the dialog: on a busy machine they may have clicked a field or
 * opened a menu by then, and taking the focus would close their menu or send their keys elsewhere.
 */
export function focusOnOpen(field: InputInst | null, options: { select?: boolean } = {}): void {
  const active = document.activeElement
  if (active instanceof HTMLInputElement || active?.closest('[role="dialog"], .n-modal')) return dropTypedAhead()
  field?.focus()
  if (options.select) field?.select()
  giveTypedAhead(field)
}

/**
 * A dialog's first field takes the keyboard as soon as the dialog is drawn, not once its opening
 * animation ends: the keys a seller types the moment Enter opened it reach the field, where they went
 * to the button behind and were lost. Answers what the dialog's after-enter calls, in case the field
 * was not drawn yet.
 */
export function useFocusOnOpen(shown: () => boolean, field: Readonly<Ref<InputInst | null>>, options: { select?: boolean } = {}): () => void {
  const focus = () => focusOnOpen(field.value, options)
  watch(shown, (show) => {
    if (show) void nextTick(focus)
  })
  return focus
}
