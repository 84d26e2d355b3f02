import type { InputInst } from 'naive-ui'

/**
 * Gives a dialog's first field the keyboard once its opening animation has ended, unless the seller
 * already works in the dialog: on a busy machine the animation can end after they clicked a field or
 * opened a menu, and taking the focus then would close their menu or send their keys elsewhere.
 */
export function focusOnOpen(field: InputInst | null, options: { select?: boolean } = {}): void {
  const active = document.activeElement
  if (active instanceof HTMLInputElement || active?.closest('[role="dialog"], .n-modal')) return
  field?.focus()
  if (options.select) field?.select()
}
