/**
 * A naive-ui date range picker that takes days typed the ways sellers type them (typedDay.ts). The
 * picker reads only its display format ("Jun 1, 2026"), and as a field is left it puts back what it
 * held: "2026-06-01" typed into From was gone without a word. Here, as the seller leaves a field (for To,
 * the calendar, anything) or presses Enter in it, a day typed another way is written into the field in
 * the picker's format, before the picker reads it: from there the picker does what it does with a day
 * typed its way (the range, Confirm, the calendar). What is no day is said, and the picker puts back
 * what the field held.
 */
import { onBeforeUnmount, onMounted, type ComponentPublicInstance, type Ref } from 'vue'
import { readTypedDay } from '../typedDay'

export function useTypedDayRange(
  picker: Ref<ComponentPublicInstance | null>,
  /** The locale days typed with numbers are read in (typedDay.ts); undefined: the window's own. */
  dateLocale: () => string | undefined,
  /** A day as the picker's `format` writes it. */
  inPickerFormat: (day: number) => string,
  warn: (message: string) => void
): void {
  const root = (): HTMLElement | null => (picker.value?.$el as HTMLElement | undefined) ?? null
  /** The text last said to be no day, in its field, while the field keeps the focus: Enter then leaving the field says it once. */
  let said: { input: HTMLInputElement; text: string } | null = null
  const forget = () => (said = null)

  /** Before the picker's own handlers (capture, on its root): the field's text in its format. */
  function rewrite(event: Event) {
    const input = event.target
    if (!(input instanceof HTMLInputElement) || !root()?.contains(input)) return
    if (event instanceof KeyboardEvent && event.key !== 'Enter') return
    const typed = input.value
    const day = readTypedDay(typed, dateLocale())
    if (day === 'unreadable') {
      if (said?.input === input && said.text === typed) return
      said = { input, text: typed }
      warn(`“${typed.trim()}” is not a day Seller Desk can read. Type it like Jun 1, 2026 or 2026-06-01, or pick it in the calendar.`)
      return
    }
    said = null
    if (day === 'blank') return
    const written = inPickerFormat(day)
    if (written === typed) return
    input.value = written
    input.dispatchEvent(new Event('input', { bubbles: true }))
  }

  onMounted(() => {
    root()?.addEventListener('keydown', rewrite, true)
    root()?.addEventListener('blur', rewrite, true)
    root()?.addEventListener('focus', forget, true)
  })
  onBeforeUnmount(() => {
    root()?.removeEventListener('keydown', rewrite, true)
    root()?.removeEventListener('blur', rewrite, true)
    root()?.removeEventListener('focus', forget, true)
  })
}
