/**
 * A naive-ui date range picker that takes days typed the ways sellers type them (typedDay.ts). The
 * picker reads only its display format, and as a field is left it puts back what it held, so "2026-06-01"
 * typed into From was gone by the time To was typed, without a word. Here what is typed into From and
 * To is kept as typed; on Enter, or once the focus leaves both fields for anything but the picker's
 * calendar, it is read: two days set the range (earlier first; a field not typed in keeps its day), and a
 * field holding no day is said, nothing changed.
 */
import { onBeforeUnmount, onMounted, type ComponentPublicInstance, type Ref } from 'vue'
import { readTypedDay } from '../typedDay'

const startOfDay = (ms: number) => new Date(ms).setHours(0, 0, 0, 0)

export interface TypedDayRange {
  /** Forgets what was typed: the range changed by other means (the calendar, a shortcut, Clear). */
  reset(): void
}

export function useTypedDayRange(
  picker: Ref<ComponentPublicInstance | null>,
  range: () => [number, number] | null,
  apply: (range: [number, number]) => void,
  warn: (message: string) => void
): TypedDayRange {
  /** What was typed into From and To since the range last changed; null for a field not typed in. */
  let typed: [string | null, string | null] = [null, null]
  const root = (): HTMLElement | null => (picker.value?.$el as HTMLElement | undefined) ?? null
  const fieldAt = (target: EventTarget | null): number => {
    const el = root()
    return el && target instanceof HTMLInputElement ? [...el.querySelectorAll('input')].indexOf(target) : -1
  }

  function onInput(event: Event) {
    const at = fieldAt(event.target)
    if (at === 0 || at === 1) typed[at] = (event.target as HTMLInputElement).value
  }

  function read() {
    if (typed[0] === null && typed[1] === null) return
    const current = range()
    const now = current && ([startOfDay(current[0]), startOfDay(current[1])] as const)
    const days = typed.map((text, at) => (text === null ? (now?.[at] ?? 'blank') : readTypedDay(text)))
    const unreadable = typed.find((text, at) => text !== null && days[at] === 'unreadable')
    if (unreadable !== undefined && unreadable !== null) {
      typed = [null, null]
      warn(`“${unreadable.trim()}” is not a day Seller Desk can read. Type it like Jun 1, 2026 or 2026-06-01, or pick it in the calendar.`)
      return
    }
    const [from, to] = days
    // One field still blank: the seller has not typed the other yet.
    if (typeof from !== 'number' || typeof to !== 'number') return
    typed = [null, null]
    const next: [number, number] = from <= to ? [from, to] : [to, from]
    if (!now || now[0] !== next[0] || now[1] !== next[1]) apply(next)
  }

  // After the picker's own handling of the same key or focus change: a day it read itself is the range by then.
  const readSoon = () => setTimeout(read, 0)
  function onKeyDown(event: KeyboardEvent) {
    if (event.key === 'Enter' && fieldAt(event.target) >= 0) readSoon()
  }
  function onFocusOut(event: FocusEvent) {
    const next = event.relatedTarget
    // Within the picker (From to To), or into its calendar (a panel of its own, elsewhere in the page).
    if (next instanceof Element && (root()?.contains(next) || next.closest('.n-date-panel'))) return
    readSoon()
  }

  onMounted(() => {
    const el = root()
    el?.addEventListener('input', onInput, true)
    el?.addEventListener('keydown', onKeyDown, true)
    el?.addEventListener('focusout', onFocusOut, true)
  })
  onBeforeUnmount(() => {
    const el = root()
    el?.removeEventListener('input', onInput, true)
    el?.removeEventListener('keydown', onKeyDown, true)
    el?.removeEventListener('focusout', onFocusOut, true)
  })

  return {
    reset() {
      typed = [null, null]
    }
  }
}
