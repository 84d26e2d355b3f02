/**
 * A keyboard shortcut active while the calling component is mounted.
 * `mod` means Ctrl on Windows / Linux and Cmd on macOS (either is accepted).
 */
import { onBeforeUnmount, onMounted } from 'vue'

export interface Shortcut {
  /** KeyboardEvent.key, case-insensitive ("f", "Escape"). */
  key: string
  mod?: boolean
  shift?: boolean
}

export function matchesShortcut(event: KeyboardEvent, shortcut: Shortcut): boolean {
  const mod = event.ctrlKey || event.metaKey
  return (
    event.key.toLowerCase() === shortcut.key.toLowerCase() &&
    mod === (shortcut.mod ?? false) &&
    event.shiftKey === (shortcut.shift ?? false) &&
    !event.altKey
  )
}

export function useShortcut(shortcut: Shortcut, handler: (event: KeyboardEvent) => void) {
  function onKeydown(event: KeyboardEvent) {
    if (event.defaultPrevented || event.isComposing || !matchesShortcut(event, shortcut)) return
    event.preventDefault()
    handler(event)
  }
  onMounted(() => window.addEventListener('keydown', onKeydown))
  onBeforeUnmount(() => window.removeEventListener('keydown', onKeydown))
}
