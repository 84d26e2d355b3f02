/**
 * Typing into a grid cell at any speed. RevoGrid opens a cell's editor a frame or more after the first
 * key, and until the editor has the focus the keys reach the grid instead: an Enter then is lost (the
 * editor stays open and takes the next cell's keys), and a redraw of the grid puts the editor's value
 * back to the first key. So a fast typist or a scanner would lose characters or write into a cell they
 * were not typed into.
 *
 * Here a printable key on a selected cell with no editor starts a buffer for THAT cell (the cell the grid
 * has in focus at that key, once the buffer before it is done): the keys after it are kept in order, the
 * cell's editor opens holding the whole buffer, and an Enter typed before it opens saves the buffer
 * without it (moving down, as Enter in the editor does). The editor's input is uncontrolled: a redraw
 * of the grid never rewrites what was typed into it. A press on a cell takes the page's focus there with
 * the press, so the keys after it are the grid's even before it has drawn the click.
 */
import type { ColumnDataSchemaModel, DimensionCols, DimensionRows, EditCell, EditorBase, HyperFunc, VNode } from '@revolist/revogrid'

/** A cell by its place in the grid, as RevoGrid's focus takes it. */
interface CellPlace {
  x: number
  y: number
  colType: DimensionCols
  rowType: DimensionRows
}

interface TypedBuffer {
  text: string
  /** The cell the keys are for, once the grid has said which cell has the focus. */
  cell: { model: object; prop: string; at: CellPlace } | null
  /** The grid has been asked for the cell's editor. */
  requested: boolean
  /** Enter was typed: saved without the editor, or by it if it opened first. */
  enter: boolean
  /** A click elsewhere came first: the keys are dropped, as a click drops an open editor's text. */
  dropped: boolean
  /** The editor holding the keys, once it exists (later keys go straight into its input). */
  editor: BufferedEditor | null
  finish: () => void
}

interface BufferedEditor {
  input: HTMLInputElement | null
  saveNow(): void
  closeNow(): void
}

/** How long keys wait for their cell's editor before they are dropped. */
const EDITOR_WAIT_MS = 5_000

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0))

export interface CellTyping {
  /** Window keydown listener (capture phase): takes the keys of a cell whose editor is not ready. */
  onKeyDown(event: KeyboardEvent): void
  /**
   * A press in the page (pointerdown, capture phase): keys typed before it no longer wait for their
   * cell's editor; on a cell, the keys after it go to the grid (see takeKeysToCell).
   */
  onPointerDown(event: Event): void
  /**
   * Closes the cell's editor if one is open, without saving, and drops keys still waiting for one: what
   * it holds may be a pending value that is gone (discarded, applied, read again).
   */
  closeEditor(): void
  /** The grid's editor for the editable columns (RevoGrid `editors`). */
  editors: {
    [name: string]: new (
      column: ColumnDataSchemaModel,
      save: (value: unknown, preventFocus?: boolean) => void,
      close: (focusNext?: boolean) => void
    ) => EditorBase
  }
  /** The editor name the editable columns use. */
  editorName: string
  /**
   * While an editor saves (RevoGrid's beforeedit is sent then): the row it was opened on. RevoGrid
   * finds the row to save by its place in the grid when the editor closes, and a read of the rows
   * while the editor is open (a sync in the background) may have put another listing there.
   */
  savingRow(): object | null
  /**
   * Whether a cell editor has answered this key (Enter saved it): the grid must not answer it too. The
   * editor closes within the Enter, so the grid would take it for an Enter on the cell below and open
   * that cell's editor.
   */
  answered(event: Event): boolean
  /**
   * Whether `target` is in a cell editor that still takes keys. An editor that has saved or closed stays
   * in the page until the grid's next redraw: keys meant for the grid (Escape to leave it) may reach it
   * meanwhile.
   */
  editing(target: Element): boolean
}

/**
 * `grid` is the grid element; `takesKeys` says whether a key event is the grid's at all (see BulkGrid's
 * forGrid); `editable` whether a column prop can be typed into.
 */
export function createCellTyping(
  grid: () => HTMLRevoGridElement | null,
  takesKeys: (event: KeyboardEvent) => boolean,
  editable: (prop: string) => boolean,
  stage: (row: object, prop: string, text: string) => void
): CellTyping {
  /** The buffer keys go to now; null when keys go where the browser sends them. */
  let current: TypedBuffer | null = null
  /** Buffers waiting for their editor, in the order they were typed. */
  const waiting: TypedBuffer[] = []
  /** Each buffer finds its cell after the one before it is done (its Enter has moved the focus down). */
  let queue: Promise<void> = Promise.resolve()
  /** Editors opened (the grid shows one at a time): one is open while its input is in the page. */
  const opened = new Set<CellEditor>()
  /** The row of the editor saving now (see savingRow). */
  let saving: object | null = null
  /** Keys an editor has answered (see CellTyping.answered). */
  const answered = new WeakSet<Event>()

  function done(buffer: TypedBuffer) {
    const at = waiting.indexOf(buffer)
    if (at >= 0) waiting.splice(at, 1)
    if (current === buffer) current = null
    buffer.finish()
  }

  function start(): TypedBuffer {
    let finish = () => {}
    const finished = new Promise<void>((resolve) => (finish = resolve))
    const buffer: TypedBuffer = { text: '', cell: null, requested: false, enter: false, dropped: false, editor: null, finish }
    waiting.push(buffer)
    const before = queue
    queue = finished
    void before
      .then(() => grid()?.getFocused())
      .then(async (focused) => {
        const prop = String(focused?.column?.prop ?? '')
        if (buffer.dropped || !focused?.model || !editable(prop)) return done(buffer)
        buffer.cell = { model: focused.model, prop, at: { x: focused.cell.x, y: focused.cell.y, colType: focused.colType, rowType: focused.rowType } }
        if (buffer.enter) return saveWithoutEditor(buffer)
        await grid()?.setCellEdit(focused.cell.y, prop, focused.rowType)
        buffer.requested = true
        if (buffer.enter && !buffer.editor) return saveWithoutEditor(buffer)
        // An editor that never opens (the grid became read-only meanwhile) must not hold up the keys after it.
        setTimeout(() => buffer.editor || done(buffer), EDITOR_WAIT_MS)
      })
      .catch(() => done(buffer))
    return buffer
  }

  /**
   * Enter typed before the cell's editor opened: the keys are saved as typed, without waiting for it. A
   * click meanwhile would close the editor the grid is about to open (RevoGrid drops an edit when its
   * focus moves) and the keys waiting for it would be lost.
   */
  async function saveWithoutEditor(buffer: TypedBuffer) {
    const cell = buffer.cell!
    try {
      stage(cell.model, cell.prop, buffer.text)
      await moveDown(cell.at)
    } finally {
      done(buffer)
    }
  }

  /**
   * After a save the focus moves down, as in a spreadsheet, unless the seller has clicked another cell
   * meanwhile. Moving it also drops an edit the grid was about to open on the saved cell.
   */
  async function moveDown(at: CellPlace) {
    const el = grid()
    const focused = await el?.getFocused()
    if (!el || focused?.cell.x !== at.x || focused.cell.y !== at.y || focused.colType !== at.colType || focused.rowType !== at.rowType) return
    await el.setCellsFocus({ x: at.x, y: at.y + 1 }, { x: at.x, y: at.y + 1 }, at.colType, at.rowType)
  }

  function add(buffer: TypedBuffer, key: string) {
    const input = buffer.editor?.input
    if (input) input.value += key
    else buffer.text += key
  }

  function onKeyDown(event: KeyboardEvent) {
    if (event.isComposing || !takesKeys(event)) return
    const printable = event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey
    let buffer = current
    if (!buffer) {
      const inEditor = event.target instanceof Element && !!event.target.closest('revogr-edit')
      if (!printable || inEditor) return
      buffer = current = start()
    }
    if (printable) add(buffer, event.key)
    else if (event.key === 'Backspace') {
      const input = buffer.editor?.input
      if (input) input.value = input.value.slice(0, -1)
      else buffer.text = buffer.text.slice(0, -1)
    } else if (event.key === 'Enter' && !event.shiftKey) {
      buffer.enter = true
      current = null
      if (buffer.editor) buffer.editor.saveNow()
      else if (buffer.requested) void saveWithoutEditor(buffer)
    } else if (event.key === 'Escape') {
      drop(buffer)
    } else return
    event.preventDefault()
    event.stopPropagation()
  }

  /**
   * A press on a cell while the page's focus is outside the grid (on the section's menu item, a button
   * just clicked): the grid takes the cell as focused at once, but it keeps the press from moving the
   * page's focus and moves it there itself only once it has drawn the new focus. Until then keys go to
   * what had the focus: the menu item answers Enter (it opens its section) and the grid ignores a key
   * already answered, so the clicked cell's editor never opens; a focused button would take Enter as a
   * click. So the page's focus goes to the cell with the press.
   */
  function takeKeysToCell(target: EventTarget | null) {
    const el = grid()
    const active = el?.ownerDocument.activeElement
    if (!el || !(target instanceof Element) || !el.contains(target) || (active && el.contains(active))) return
    const cell = target.closest('.rgCell')
    if (cell instanceof HTMLElement) cell.focus({ preventScroll: true })
  }

  function drop(buffer: TypedBuffer) {
    buffer.dropped = true
    if (current === buffer) current = null
    if (buffer.editor) buffer.editor.closeNow()
    else if (!buffer.cell) done(buffer)
  }

  /** The buffer an editor opening on this cell is for: the oldest one waiting for it. */
  const bufferFor = (cell: EditCell | undefined) =>
    cell ? waiting.find((buffer) => !buffer.editor && buffer.cell?.model === cell.model && buffer.cell.prop === String(cell.prop)) : undefined

  class CellEditor implements EditorBase, BufferedEditor {
    element: Element | null = null
    editCell?: EditCell
    input: HTMLInputElement | null = null
    /** The row the editor was opened on: RevoGrid hands the editor the row now at its place on each redraw. */
    private row: object | null = null
    private buffer: TypedBuffer | null = null
    private closed = false
    /** Counts the edits this editor has served (see restartIfCarriedOn). */
    private session = 0
    /**
     * The cell whose edit it saved or closed. RevoGrid keeps an editor for as long as its element stays
     * in the page, which may carry it on to another cell's edit; each redraw hands it a new editCell
     * object, so the cell is told by its place.
     */
    private endedOn: string | null = null
    private place = () => (this.editCell ? `${this.editCell.type}:${this.editCell.x}:${this.editCell.y}:${String(this.editCell.prop)}` : null)
    /** Saved or closed: the keys no longer go to it (see CellTyping.editing). */
    get ended(): boolean {
      return this.endedOn !== null && this.endedOn === this.place()
    }

    constructor(
      _column: ColumnDataSchemaModel,
      private readonly save: (value: unknown, preventFocus?: boolean) => void,
      private readonly close: (focusNext?: boolean) => void
    ) {}

    private attach(input: HTMLInputElement | null) {
      if (!input || input === this.input) return
      this.input = input
      this.row ??= this.editCell?.model ?? null
      for (const editor of opened) if (!editor.input?.isConnected) opened.delete(editor)
      opened.add(this)
      const buffer = bufferFor(this.editCell)
      if (buffer) {
        this.buffer = buffer
        buffer.editor = this
        input.value = buffer.text
      } else {
        input.value = this.editCell?.val === undefined || this.editCell.val === null ? '' : String(this.editCell.val)
      }
    }

    async componentDidRender() {
      const buffer = this.buffer
      if (buffer?.dropped) return this.closeNow()
      if (buffer?.enter) return this.saveNow()
      await nextTask()
      // A redraw after the save (or close) renders the editor once more before the grid drops it: it
      // must not take the focus back from the grid's cell.
      if (this.ended || this.buffer?.enter || this.buffer?.dropped || !this.input) return
      this.input.focus()
      // From here the keys reach the input itself.
      if (this.buffer) done(this.buffer)
    }

    saveNow() {
      const buffer = this.buffer
      this.buffer = null
      const value = this.input?.value
      this.input?.blur()
      const moved = this.commit(value, 'Enter')
      // The next buffer looks for its cell once the focus has moved down.
      if (buffer) void moved.then(() => done(buffer))
    }

    closeNow() {
      const buffer = this.buffer
      this.buffer = null
      this.endedOn = this.place()
      if (!this.closed) this.close(false)
      this.closed = true
      if (buffer) done(buffer)
    }

    /**
     * Saves for the row the editor was opened on (RevoGrid sends beforeedit within the save). On Enter
     * the editor closes at once and the focus moves down here, not by RevoGrid: its own move comes
     * later and, when a click has moved the focus meanwhile, it closes whatever editor is open by then,
     * the next cell's, which a fast typist has already opened (their keys were lost). Tab is left to
     * RevoGrid: it moves right from the open editor itself.
     */
    private commit(value: string | undefined, key: 'Enter' | 'Tab'): Promise<void> {
      const cell = this.editCell
      this.endedOn = this.place()
      saving = this.row
      try {
        this.save(value, true)
      } finally {
        saving = null
      }
      if (key === 'Tab') return Promise.resolve()
      this.closed = true
      this.close(false)
      return cell ? moveDown({ x: cell.x, y: cell.y, colType: cell.colType, rowType: cell.type }).catch(() => {}) : Promise.resolve()
    }

    appendPendingInput(value: string): boolean {
      if (!this.input) return false
      this.input.value += value
      return true
    }

    getValue() {
      return this.input?.value
    }

    beforeDisconnect() {
      this.input?.blur()
    }

    private onKeyDown(event: KeyboardEvent) {
      if ((event.key === 'Enter' || event.key === 'Tab') && !event.isComposing) {
        if (event.key === 'Enter') answered.add(event)
        this.input?.blur()
        void this.commit(this.input?.value, event.key)
      }
    }

    /**
     * RevoGrid keeps an editor for as long as its element stays in the page, which may carry it on to
     * the next cell's edit (the next cell opened before the grid redrew without the ended one). That
     * edit starts afresh: a new input, bound to the keys typed for it as a new editor's would be.
     */
    private restartIfCarriedOn() {
      if (this.endedOn === null || (this.endedOn === this.place() && !bufferFor(this.editCell))) return
      this.session++
      this.endedOn = null
      this.closed = false
      this.buffer = null
      this.row = null
      this.input = null
    }

    render(h: HyperFunc<VNode>) {
      this.restartIfCarriedOn()
      // No `value` here: a redraw would write it back over what was typed.
      return h('input', {
        key: this.session,
        type: 'text',
        enterKeyHint: 'enter',
        ref: (input: HTMLInputElement | null) => this.attach(input),
        onKeyDown: (event: KeyboardEvent) => this.onKeyDown(event)
      })
    }
  }

  return {
    onKeyDown,
    onPointerDown(event) {
      if (current && !current.enter) drop(current)
      takeKeysToCell(event.target)
    },
    closeEditor() {
      for (const buffer of [...waiting]) drop(buffer)
      if (current) drop(current)
      for (const editor of opened) if (editor.input?.isConnected) editor.closeNow()
      opened.clear()
    },
    editors: { bulkCell: CellEditor },
    editorName: 'bulkCell',
    savingRow: () => saving,
    answered: (event) => answered.has(event),
    editing(target) {
      const editor = target.closest('revogr-edit')
      return !!editor && [...opened].some((open) => !open.ended && !!open.input?.isConnected && editor.contains(open.input))
    }
  }
}
