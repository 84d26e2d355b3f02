/**
 * Where the main window opens: the size, position and maximised state saved at the last close, checked
 * against the displays there are now. Pure (no Electron): the glue in electron/main reads the file and
 * the displays, and passes them here.
 */

export interface Rectangle {
  x: number
  y: number
  width: number
  height: number
}

export interface WindowPlacement {
  bounds: Rectangle
  maximized: boolean
}

/** How much of the window's top-left corner must be on a display for the saved position to be kept. */
const GRIP = { x: 80, y: 40 }
const MIN_SIZE = { width: 400, height: 300 }

/**
 * The saved placement if it is usable: anything unreadable gives null (the default size). A position no
 * display shows any more (a monitor was unplugged) moves to the first display's corner (the caller puts
 * the primary display first), and the size is cut to that display.
 */
export function placementFor(saved: unknown, workAreas: Rectangle[]): WindowPlacement | null {
  if (!saved || typeof saved !== 'object') return null
  const { bounds, maximized } = saved as { bounds?: Partial<Rectangle>; maximized?: unknown }
  const { x, y, width, height } = bounds ?? {}
  if (![x, y, width, height].every((n) => typeof n === 'number' && Number.isFinite(n))) return null
  if (width! < MIN_SIZE.width || height! < MIN_SIZE.height) return null
  const placement: WindowPlacement = { bounds: { x: x!, y: y!, width: width!, height: height! }, maximized: maximized === true }
  const onSome = workAreas.some((a) => x! + GRIP.x > a.x && y! + GRIP.y > a.y && x! < a.x + a.width - GRIP.x && y! < a.y + a.height - GRIP.y)
  if (onSome) return placement
  const first = workAreas[0]
  if (!first) return placement
  return {
    bounds: { x: first.x, y: first.y, width: Math.min(width!, first.width), height: Math.min(height!, first.height) },
    maximized: placement.maximized
  }
}
