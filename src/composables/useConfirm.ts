/**
 * A question before something the seller may regret (delete, remove, discard, leave with staged
 * changes): a warning dialog whose safe answer (the negative button) has the focus as soon as it shows,
 * so Enter or Space keeps things as they are, and the key cannot reach the button behind the dialog
 * that opened it. Escape, × and a click outside cancel too. The dialog is named by its title
 * (libraryAria.ts).
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
