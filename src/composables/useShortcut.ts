/**
 * A keyboard shortcut active while the calling component is mounted and its workspace section is on
 * screen (a section kept mounted but hidden does not answer shortcuts).
 * `mod` means Ctrl on Windows / Linux and Cmd on macOS (either is accepted).
 */
import { onSectionShown } from './useSectionShown'

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
  onSectionShown(
    () => window.addEventListener('keydown', onKeydown),
    () => window.removeEventListener('keydown', onKeydown)
  )
}
