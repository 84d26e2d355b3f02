/**
 * A keyboard shortcut active while the calling component is mounted and its workspace section is on
 * screen (a section kept mounted but hidden does not answer shortcuts).
 * `mod` means Ctrl on Windows / Linux and Cmd on macOS (either is accepted).
 *
 * A modal dialog owns the keyboard: while one is open (not yet closing) the shortcuts behind it stay
 * quiet, unless the shortcut says `inDialogs`.
 */
import { onSectionShown } from './useSectionShown'

export interface Shortcut {
  /** KeyboardEvent.key, case-insensitive ("f", "Escape"). */
  key: string
  mod?: boolean
  shift?: boolean
  /** Alt (Option on macOS) held. */
  alt?: boolean
  /** Also answers while a modal dialog has the focus. */
  inDialogs?: boolean
  /** Stays quiet for keys pressed inside an element matching this selector (a field with its own meaning for the key). */
  outside?: string
  /** Answers only while this holds; otherwise the key goes on as if there were no shortcut (the browser's own, if any). */
  when?: () => boolean
}

/**
 * naive-ui's modals (NModal, useDialog) keep their `.n-modal-container` in the page once opened, empty
 * (or with the dialog hidden) after closing, so only a dialog itself (`.n-modal`) that is displayed counts;
 * while closing, it carries a `*-leave-active` transition class.
 */
function modalOpen(): boolean {
  for (const modal of document.querySelectorAll<HTMLElement>('.n-modal-container .n-modal')) {
    if (modal.style.display !== 'none' && !modal.matches('[class*="-leave-active"]')) return true
  }
  return false
}

export function matchesShortcut(event: KeyboardEvent, shortcut: Shortcut): boolean {
  const mod = event.ctrlKey || event.metaKey
  return (
    event.key.toLowerCase() === shortcut.key.toLowerCase() &&
    mod === (shortcut.mod ?? false) &&
    event.shiftKey === (shortcut.shift ?? false) &&
    event.altKey === (shortcut.alt ?? false)
  )
}

const onMac = /Mac|iPhone|iPad/.test(navigator.platform)
/** The modifier keys as this computer names them, for tooltips and the shortcuts' list. */
export const KEY_NAMES = { mod: onMac ? '⌘' : 'Ctrl', alt: onMac ? '⌥' : 'Alt' } as const

/** Where a key is typed, not pressed as a shortcut: text fields and anything editable. */
export const TYPING = 'input, textarea, select, [contenteditable]:not([contenteditable="false"])'

export function useShortcut(shortcut: Shortcut, handler: (event: KeyboardEvent) => void) {
  function onKeydown(event: KeyboardEvent) {
    if (event.defaultPrevented || event.isComposing || !matchesShortcut(event, shortcut)) return
    if (!shortcut.inDialogs && modalOpen()) return
    if (shortcut.outside && event.target instanceof Element && event.target.closest(shortcut.outside)) return
    if (shortcut.when && !shortcut.when()) return
    event.preventDefault()
    handler(event)
  }
  onSectionShown(
    () => window.addEventListener('keydown', onKeydown),
    () => window.removeEventListener('keydown', onKeydown)
  )
}
