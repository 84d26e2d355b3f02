import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createCellTyping } from './cellTyping'

/** The grid as cellTyping sees it: its focused cell, and the editor it opens on request. */
function fakeGrid() {
  const row = { id: 'r2' }
  const below = { id: 'r3' }
  let focused: { model: object; cell: { x: number; y: number }; colType: string; rowType: string; column: { prop: string } } = {
    model: row,
    cell: { x: 3, y: 2 },
    colType: 'rgCol',
    rowType: 'rgRow',
    column: { prop: 'quantity' }
  }
  const grid = {
    getFocused: vi.fn(async () => focused),
    setCellEdit: vi.fn(async () => {}),
    setCellsFocus: vi.fn(async (start: { x: number; y: number }) => {
      focused = { ...focused, model: below, cell: { ...start } }
    }),
    clickOn(model: { id: string }, cell: { x: number; y: number }) {
      focused = { ...focused, model, cell }
    }
  }
  return { grid, row, below }
}

const key = (k: string) =>
  ({
    key: k,
    target: null,
    isComposing: false,
    ctrlKey: false,
    metaKey: false,
    altKey: false,
    shiftKey: false,
    preventDefault() {},
    stopPropagation() {}
  }) as unknown as KeyboardEvent
const flush = () => new Promise((resolve) => setTimeout(resolve, 5))

/** The editor's input as its render asks for it: one per `key`, as the page would make; `keyDown` is a key in it. */
function fakeInputs() {
  const inputs = new Map<unknown, { value: string; isConnected: boolean; focus(): void; blur(): void }>()
  let onKeyDown: (event: KeyboardEvent) => void = () => {}
  const h = (_tag: string, props: { key: unknown; ref: (input: unknown) => void; onKeyDown: typeof onKeyDown }) => {
    if (!inputs.has(props.key)) inputs.set(props.key, { value: '', isConnected: true, focus() {}, blur() {} })
    props.ref(inputs.get(props.key))
    onKeyDown = props.onKeyDown
    return null
  }
  return { h, keyDown: (k: string) => onKeyDown(key(k)) }
}

/** Typing on the fake grid, every key taken and every column editable; `stage` gets what is saved without an editor. */
const typingOn = (grid: ReturnType<typeof fakeGrid>['grid'], stage: (row: object, prop: string, text: string) => void) =>
  createCellTyping(
    () => grid as unknown as HTMLRevoGridElement,
    () => true,
    () => true,
    stage
  )

/** A page element as takeKeysToCell sees it: where it is (`closest`) and whether it takes the focus. */
const pageElement = (closest: (selector: string) => unknown = () => null) =>
  Object.assign(new (globalThis.HTMLElement as unknown as new () => object)(), { closest, focus: vi.fn() })

describe('typing into a grid cell', () => {
  beforeEach(() => {
    class FakeElement {}
    vi.stubGlobal('Element', FakeElement)
    vi.stubGlobal('HTMLElement', class extends FakeElement {})
  })
  afterEach(() => vi.unstubAllGlobals())

  it('an Enter typed before the cell’s editor opens stages the keys for that cell and moves the focus down', async () => {
    const { grid, row } = fakeGrid()
    const stage = vi.fn()
    const typing = typingOn(grid, stage)
    typing.onKeyDown(key('7'))
    typing.onKeyDown(key('Enter'))
    await flush()
    expect(stage).toHaveBeenCalledWith(row, 'quantity', '7')
    expect(grid.setCellsFocus).toHaveBeenCalledWith({ x: 3, y: 3 }, { x: 3, y: 3 }, 'rgCol', 'rgRow')
  })

  it('a press on a cell takes the page’s focus from the menu item that had it to the cell, so the Enter after it is the grid’s', () => {
    const { grid } = fakeGrid()
    const menuItem = pageElement()
    const cell = pageElement()
    const pressed = pageElement((selector) => (selector === '.rgCell' ? cell : null))
    const inGrid = new Set<unknown>([cell, pressed])
    const page = Object.assign(grid, { ownerDocument: { activeElement: menuItem as unknown }, contains: (node: unknown) => inGrid.has(node) })
    const typing = typingOn(page, vi.fn())

    typing.onPointerDown({ target: menuItem } as unknown as PointerEvent) // a press outside the grid leaves the focus be
    expect(cell.focus).not.toHaveBeenCalled()
    typing.onPointerDown({ target: pressed } as unknown as PointerEvent)
    expect(cell.focus).toHaveBeenCalledWith({ preventScroll: true })

    // Already in the grid (a cell, an open editor): the grid moves it itself.
    cell.focus.mockClear()
    page.ownerDocument.activeElement = pressed
    typing.onPointerDown({ target: pressed } as unknown as PointerEvent)
    expect(cell.focus).not.toHaveBeenCalled()
  })

  it('a click on another cell before that Enter keeps the focus where the seller clicked', async () => {
    const { grid, row } = fakeGrid()
    const stage = vi.fn()
    const typing = typingOn(grid, stage)
    typing.onKeyDown(key('5'))
    await flush() // the grid was asked for the editor, which has not opened yet
    grid.clickOn({ id: 'r4' }, { x: 1, y: 4 })
    typing.onKeyDown(key('Enter'))
    await flush()
    expect(stage).toHaveBeenCalledWith(row, 'quantity', '5')
    expect(grid.setCellsFocus).not.toHaveBeenCalled()
  })

  it('an editor the grid carries on to the next cell’s edit takes that cell’s keys', async () => {
    const { grid, row, below } = fakeGrid()
    const saved: unknown[] = []
    const typing = typingOn(grid, vi.fn())
    const editor = new typing.editors.bulkCell!(
      {} as never,
      (value) => saved.push(value),
      () => {}
    ) as unknown as {
      editCell: unknown
      render(h: unknown): unknown
      componentDidRender(): Promise<void>
    }
    const { h, keyDown } = fakeInputs()
    const editCell = (model: object, y: number) => ({ model, prop: 'quantity', x: 3, y, type: 'rgRow', colType: 'rgCol', val: '' })

    /** A key typed on the cell with the focus, the editor opened on that cell (row `y`), then Enter in it. */
    const typeInto = async (digit: string, model: object, y: number) => {
      typing.onKeyDown(key(digit))
      await flush()
      editor.editCell = editCell(model, y)
      editor.render(h)
      await editor.componentDidRender()
      keyDown('Enter')
      await flush()
    }

    await typeInto('5', row, 2)
    expect(saved).toEqual(['5'])
    // The next cell's keys, its edit opened before the grid redrew without the ended one.
    await typeInto('8', below, 3)
    expect(saved).toEqual(['5', '8'])
  })
})
