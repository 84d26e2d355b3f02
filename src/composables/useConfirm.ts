/**
 * A question before something the seller may regret (delete, remove, discard, leave with staged
 * changes): a warning dialog whose safe answer (the negative button) has the focus as soon as it shows,
 * so Enter or Space keeps things as they are, and the key cannot reach the button behind the dialog
 * that opened it. Escape, × and a click outside cancel too. The dialog is named by its title
 * (libraryAria.ts). While the answer is carried out (holdOpen), none of them closes it.
 */
import { useDialog, type DialogOptions, type DialogReactive } from 'naive-ui'
import { nextTick } from 'vue'

let asked = 0

export function useConfirm(): (options: DialogOptions) => DialogReactive {
  const dialog = useDialog()
  return (options) => {
    const id = `safe-answer-${++asked}`
    const confirmation = dialog.warning({
      ...options,
      autoFocus: false,
      negativeButtonProps: { ...options.negativeButtonProps, id } as DialogOptions['negativeButtonProps']
    })
    const focusSafeAnswer = (tries: number) => {
      const button = document.getElementById(id)
      if (button) button.focus()
      else if (tries > 0) requestAnimationFrame(() => focusSafeAnswer(tries - 1))
    }
    void nextTick(() => focusSafeAnswer(10))
    return confirmation
  }
}

/**
 * The seller's answer is being carried out (a delete on its way to the marketplace): the dialog stays
 * open with its button busy until the work ends, and neither Cancel, ×, a click outside nor Escape
 * closes it, so nothing looks cancelled that is still going on. (Its caller ends the busy state, or
 * closes it.)
 */
export function holdOpen(confirmation: DialogReactive): void {
  confirmation.loading = true
  confirmation.closable = false
  confirmation.maskClosable = false
  confirmation.closeOnEsc = false
  confirmation.negativeButtonProps = { ...confirmation.negativeButtonProps, disabled: true }
}
