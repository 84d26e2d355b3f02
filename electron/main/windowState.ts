/**
 * The main window's size, position and maximised state, remembered across restarts (window-state.json
 * in user data). A saved position that no longer fits any display is dropped.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { app, screen, type BrowserWindow, type Rectangle } from 'electron'

interface WindowState {
  bounds: Rectangle
  maximized: boolean
}

const file = () => join(app.getPath('userData'), 'window-state.json')

export function savedWindowState(): WindowState | null {
  try {
    const state = JSON.parse(readFileSync(file(), 'utf8')) as WindowState
    const { x, y, width, height } = state.bounds
    if (![x, y, width, height].every(Number.isFinite)) return null
    const visible = screen.getAllDisplays().some(({ workArea: a }) => x + 80 > a.x && y + 40 > a.y && x < a.x + a.width - 80 && y < a.y + a.height - 40)
    return visible ? state : { bounds: { ...state.bounds, x: 0, y: 0 }, maximized: state.maximized }
  } catch {
    return null
  }
}

export function rememberWindowState(window: BrowserWindow): void {
  let timer: ReturnType<typeof setTimeout> | undefined
  const save = () => {
    if (window.isDestroyed() || window.isMinimized()) return
    const state: WindowState = { bounds: window.isMaximized() ? window.getNormalBounds() : window.getBounds(), maximized: window.isMaximized() }
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
