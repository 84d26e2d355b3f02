/**
 * A keyboard shortcut active while the calling component is mounted and shown (a view kept alive but
 * hidden by the workspace's KeepAlive does not answer shortcuts).
 * `mod` means Ctrl on Windows / Linux and Cmd on macOS (either is accepted).
 */
import { onActivated, onBeforeUnmount, onDeactivated, onMounted } from 'vue'

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
  let listening = false
  const listen = () => {
    if (!listening) window.addEventListener('keydown', onKeydown)
    listening = true
  }
  const stop = () => {
    window.removeEventListener('keydown', onKeydown)
    listening = false
  }
  onMounted(listen)
  onActivated(listen)
  onDeactivated(stop)
  onBeforeUnmount(stop)
}
