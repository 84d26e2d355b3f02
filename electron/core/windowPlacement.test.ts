import { describe, expect, it } from 'vitest'
import { placementFor } from './windowPlacement'

const laptop = { x: 0, y: 0, width: 1440, height: 875 }
const rightMonitor = { x: 1440, y: 0, width: 2560, height: 1415 }

describe('placementFor', () => {
  it('keeps a saved placement that a display still shows', () => {
    const saved = { bounds: { x: 1600, y: 100, width: 1280, height: 800 }, maximized: true }
    expect(placementFor(saved, [laptop, rightMonitor])).toEqual(saved)
  })

  it('moves a window left on an unplugged monitor to the first display, cut to its size', () => {
    const saved = { bounds: { x: 1600, y: 100, width: 2000, height: 1200 }, maximized: false }
    expect(placementFor(saved, [laptop])).toEqual({ bounds: { x: 0, y: 0, width: 1440, height: 875 }, maximized: false })
  })

  it('counts a window only barely on screen as off it', () => {
    const saved = { bounds: { x: 1400, y: 10, width: 900, height: 600 }, maximized: false }
    expect(placementFor(saved, [laptop])?.bounds).toMatchObject({ x: 0, y: 0 })
  })

  it('ignores what is not a usable placement (the default size is used)', () => {
    for (const saved of [
      null,
      'x',
      {},
      { bounds: { x: 0, y: 0, width: 'wide', height: 600 } },
      { bounds: { x: 0, y: 0, width: Number.NaN, height: 600 } },
      { bounds: { x: 0, y: 0, width: 50, height: 40 } }
    ]) {
      expect(placementFor(saved, [laptop])).toBeNull()
    }
  })

  it('reads only `maximized: true` as maximised', () => {
    expect(placementFor({ bounds: { x: 10, y: 10, width: 800, height: 600 }, maximized: 'yes' }, [laptop])?.maximized).toBe(false)
  })
})
