/**
 * A naive-ui date range picker that takes days typed the ways sellers type them (typedDay.ts). The
 * picker reads only its display format ("Jun 1, 2026"), and as a field is left it puts back what it
 * held: "2026-06-01" typed into From was gone without a word. Here, as the seller leaves a field (for To,
 * the calendar, anything) or presses Enter in it, a day typed another way is written into the field in
 * the picker's format, before the picker reads it: from there the picker does what it does with a day
 * typed its way (the range, Confirm, the calendar). What is no day is said, and the picker puts back
 * what the field held.
 *
 * Two things the picker does with a typed day are settled first, as its calendar would have them:
 * - A day after today (the calendar offers none, and no order is placed on it yet): a From is said and
 *   the field given back the From in force; a To becomes today, and that is said. Such a day is kept from
 *   the picker as it is typed: typed in its own form, the picker takes it at the keystroke that ends it,
 *   and the list's range would put it back to today before a word could be said.
 * - A To before the From: the picker would move the From onto it, and the From typed would be lost. The
 *   To is refused instead, and that is said; typed in the picker's own form it is kept from the picker
 *   as it is typed, as a day after today is. A From after the To still moves the To onto it, as the
 *   picker does: a new From after the old To starts a new range.
 */
import { onBeforeUnmount, onMounted, type ComponentPublicInstance, type Ref } from 'vue'
import { readTypedDay } from '../typedDay'
import { isAfterToday } from '../localDayRange'

export interface TypedDayRangeOptions {
  /** The locale days typed with numbers are read in (typedDay.ts); undefined: the window's own. */
  dateLocale: () => string | undefined
  /** A day as the picker's `format` writes it. */
  inPickerFormat: (day: number) => string
  /** The range in force (what the picker shows when nothing is typed): a From refused is given this one's back. */
  inForce: () => [number, number] | null
  warn: (message: string) => void
  inform: (message: string) => void
}

export function useTypedDayRange(picker: Ref<ComponentPublicInstance | null>, options: TypedDayRangeOptions): void {
  const { inPickerFormat, warn, inform } = options
  const root = (): HTMLElement | null => (picker.value?.$el as HTMLElement | undefined) ?? null
  const fields = (): HTMLInputElement[] => [...(root()?.querySelectorAll('input') ?? [])]
  /** The text last said to be no day, in its field, while the field keeps the focus: Enter then leaving the field says it once. */
  let said: { input: HTMLInputElement; text: string } | null = null
  const forget = () => (said = null)

  /** Writes `text` into a field as if typed, for the picker to read. */
  function write(input: HTMLInputElement, text: string) {
    if (input.value === text) return
    input.value = text
    input.dispatchEvent(new Event('input', { bubbles: true }))
  }

  /**
   * Before the picker reads a keystroke's text (capture, on its root): a day rewrite settles waits for
   * it: one after today, or a To before the day the From field holds.
   */
  function holdDayToSettle(event: Event) {
    const input = event.target
    if (!(input instanceof HTMLInputElement) || !root()?.contains(input)) return
    const day = readTypedDay(input.value, options.dateLocale())
    if (typeof day !== 'number') return
    const [fromField, toField] = fields()
    const fromDay = input === toField && fromField ? readTypedDay(fromField.value, options.dateLocale()) : 'blank'
    if (isAfterToday(day) || (typeof fromDay === 'number' && day < fromDay)) event.stopPropagation()
  }

  /** Before the picker's own handlers (capture, on its root): the field's text in its format. */
  function rewrite(event: Event) {
    const input = event.target
    if (!(input instanceof HTMLInputElement) || !root()?.contains(input)) return
    if (event instanceof KeyboardEvent && event.key !== 'Enter') return
    const typed = input.value
    const day = readTypedDay(typed, options.dateLocale())
    if (day === 'unreadable') {
      if (said?.input === input && said.text === typed) return
      said = { input, text: typed }
      warn(`“${typed.trim()}” is not a day Seller Desk can read. Type it like Jun 1, 2026 or 2026-06-01, or pick it in the calendar.`)
      return
    }
    said = null
    if (day === 'blank') return
    const [fromField, toField] = fields()
    const isFrom = input === fromField
    // A day refused on Enter: the picker is not to confirm or close on it, so what else was typed stays to be mended.
    const holdEnter = () => {
      if (event instanceof KeyboardEvent) {
        event.preventDefault()
        event.stopPropagation()
      }
    }
    const other = isFrom ? toField : fromField
    const inForce = options.inForce()
    /**
     * A day refused here gives the field back its end of the range in force, or nothing where that end
     * would cross the day the other field holds (the picker would move one end onto the other).
     */
    const giveBack = () => {
      const end = inForce?.[isFrom ? 0 : 1]
      const otherNow = other ? readTypedDay(other.value, options.dateLocale()) : 'blank'
      const crosses = end !== undefined && typeof otherNow === 'number' && (isFrom ? end > otherNow : end < otherNow)
      write(input, end === undefined || crosses ? '' : inPickerFormat(end))
      holdEnter()
    }
    if (isAfterToday(day)) {
      if (isFrom) {
        warn(`${inPickerFormat(day)} is after today, and orders are placed up to today. Choose a From of today or earlier.`)
        giveBack()
      } else {
        const today = Date.now()
        inform(`Orders are placed up to today: To is today, ${inPickerFormat(today)}.`)
        write(input, inPickerFormat(today))
      }
      return
    }
    // A To before the From its field holds: read before this one is written, so the picker never sees the
    // two crossed. (A From after the To starts a new range: the picker moves the To onto it, as it should.)
    const fromDay = !isFrom && other ? readTypedDay(other.value, options.dateLocale()) : 'blank'
    if (typeof fromDay === 'number' && day < fromDay) {
      warn(`From ${inPickerFormat(fromDay)} is after To ${inPickerFormat(day)}. Type a To on or after From.`)
      // The day typed here is not taken; the one typed there stays. (One field written: the picker reads the
      // other from what it last drew, so a second write in the same turn would meet the first one's day.)
      giveBack()
      return
    }
    write(input, inPickerFormat(day))
  }

  onMounted(() => {
    root()?.addEventListener('keydown', rewrite, true)
    root()?.addEventListener('blur', rewrite, true)
    root()?.addEventListener('focus', forget, true)
    root()?.addEventListener('input', holdDayToSettle, true)
  })
  onBeforeUnmount(() => {
    root()?.removeEventListener('keydown', rewrite, true)
    root()?.removeEventListener('blur', rewrite, true)
    root()?.removeEventListener('focus', forget, true)
    root()?.removeEventListener('input', holdDayToSettle, true)
  })
}
