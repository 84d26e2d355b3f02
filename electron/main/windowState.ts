/**
 * The main window's size, position and maximised state, remembered across restarts (window-state.json
 * in user data). Which saved placement is still usable is decided in core (windowPlacement.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { app, screen, type BrowserWindow } from 'electron'
import { placementFor, type WindowPlacement } from '../core/windowPlacement'

const file = () => join(app.getPath('userData'), 'window-state.json')

/** The placement saved at the last close, if a display can still show it (see core/windowPlacement). */
export function savedWindowState(): WindowPlacement | null {
  let saved: unknown
  try {
    saved = JSON.parse(readFileSync(file(), 'utf8'))
  } catch {
    return null
  }
  // The primary display first: a window whose display is gone opens there.
  const primary = screen.getPrimaryDisplay()
  const displays = [primary, ...screen.getAllDisplays().filter((display) => display.id !== primary.id)]
  return placementFor(
    saved,
    displays.map((display) => display.workArea)
  )
}

export function rememberWindowState(window: BrowserWindow): void {
  let timer: ReturnType<typeof setTimeout> | undefined
  const save = () => {
    if (window.isDestroyed() || window.isMinimized()) return
    const state: WindowPlacement = { bounds: window.isMaximized() ? window.getNormalBounds() : window.getBounds(), maximized: window.isMaximized() }
    try {
      writeFileSync(file(), JSON.stringify(state))
    } catch {
      // Not worth bothering the seller: the next start uses the default size.
    }
  }
  const soon = () => {
    clearTimeout(timer)
    timer = setTimeout(save, 500)
  }
  window.on('resize', soon)
  window.on('move', soon)
  window.on('close', save)
}
