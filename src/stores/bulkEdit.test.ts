/**
 * The bulk-edit store reading the grid's rows page by page: the first page fills the grid at once and
 * the rest arrive behind it, marks of changes staged on rows not read yet land when those rows do, a
 * read whose listings change underneath starts over, a later read keeps the rows shown until done, and
 * the counts and batch a read shows are not older than a step or a batch's progress made meanwhile.
 */
import {
  accountKeyOf,
  type BatchStatus,
  BULK_GRID_FIRST_PAGE,
  BULK_GRID_PAGE,
  type ChangeSetState,
  type GridListingRow,
  type GridRowsPage,
  type SessionInfo,
  type StagedCell,
  type StagedCellsPage,
  type UnappliedChange,
  type UnappliedChangesPage
} from '@shared/contract'
import { gridRow } from '@shared/gridRow'
import type { GridRow } from './gridCells'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, expect, it, vi } from 'vitest'
import { watch } from 'vue'

const bridge = vi.hoisted(() => ({ call: vi.fn(), events: new Map<string, (payload: unknown) => void>() }))

vi.mock('../bridge/sellerDesk', () => ({
  call: bridge.call,
  ContractError: class ContractError extends Error {
    constructor(readonly data: { kind: string; message: string }) {
      super(data.message)
    }
    get kind() {
      return this.data.kind
    }
  },
  onEvent: (name: string, handler: (payload: unknown) => void) => {
    bridge.events.set(name, handler)
    return () => bridge.events.delete(name)
  },
  messageOf: (error: unknown) => (error instanceof Error ? error.message : 'Something went wrong. Try again.')
}))

const { useBulkEditStore } = await import('./bulkEdit')
const { useSessionStore } = await import('./session')
const { ContractError } = (await import('../bridge/sellerDesk')) as unknown as { ContractError: new (data: { kind: string; message: string }) => Error }

const TOTAL = BULK_GRID_FIRST_PAGE + BULK_GRID_PAGE + 100

const listing = (i: number, priceCents = 10_000 + i): GridListingRow =>
  gridRow.make(
    {
      id: `l${String(i).padStart(5, '0')}`,
      name: `Listing ${i}`,
      sku: `SKU-${i}`,
      brand: 'Brand',
      grade: 'A',
      color: '',
      storage: '',
      carrier: '',
      status: 'Open',
      updatedAt: '2026-01-01T00:00:00.000Z'
    },
    (field) => ({ priceCents, quantity: 3 })[field as 'priceCents' | 'quantity']
  )

/** The core as the store sees it: listings in grid order, a version, marks, and pages that can be held. */
function fakeCore() {
  const core = {
    listings: Array.from({ length: TOTAL }, (_, i) => listing(i)),
    version: 'v1',
    cells: [] as StagedCell[],
    offsets: [] as number[],
    /** Pages past the first wait for this, when set. */
    hold: null as Promise<void> | null,
    /** Runs before a page is answered (changes the listings under a read). */
    beforePage: null as ((offset: number) => void) | null,
    /** The pages of marks asked for: [offset, read]. */
    markPages: [] as [number, number | undefined][],
    /** Reads of the marks begun, and the one a later page may name (others have ended). */
    markReads: 0,
    /** Ends the read under way before its page at this offset is asked (another read began), once. */
    endReadAt: null as number | null,
    /** What a change-set call answers. */
    stageAnswer: null as Omit<ChangeSetState, 'summary'> | null,
    /** Runs before a page of marks is answered. */
    beforeMarksPage: null as ((offset: number) => void) | null,
    summary: { changes: 0, listings: 0, invalid: 0, warnings: 0, canUndo: false, canRedo: false },
    /** The batch being applied, as a status tells it. */
    running: null as BatchStatus | null,
    /** The last batch's changes that did not apply: the batch a status notes, and its changes as the queue holds them. */
    unapplied: null as BatchStatus | null,
    unappliedChanges: [] as UnappliedChange[],
    /** The pages of those changes asked for: their offsets. */
    unappliedPages: [] as number[]
  }
  const MARKS_PAGE = 700
  const UNAPPLIED_PAGE = 2
  /** The change set's counts now: each answer carries a copy, as one crossing the bridge does. */
  const summary = core.summary
  bridge.call.mockImplementation(async (name: string, input: Record<string, unknown>) => {
    if (name === 'bulk.gridRows') {
      const { offset, limit } = input as { offset: number; limit: number }
      core.offsets.push(offset)
      if (offset > 0 && core.hold) await core.hold
      core.beforePage?.(offset)
      return { rows: core.listings.slice(offset, offset + limit), total: core.listings.length, version: core.version } satisfies GridRowsPage
    }
    if (name === 'bulk.status')
      return {
        changeSet: { ...summary },
        rules: { priceChangePercent: 50, priceFloorCents: null, quantityCutPercent: 90 },
        running: core.running,
        pendingBatch: null,
        unapplied: core.unapplied
      }
    if (name === 'bulk.unappliedChanges') {
      const { offset } = input as { offset: number }
      core.unappliedPages.push(offset)
      return { total: core.unappliedChanges.length, changes: core.unappliedChanges.slice(offset, offset + UNAPPLIED_PAGE) } satisfies UnappliedChangesPage
    }
    if (name === 'bulk.dismissUnapplied') {
      core.unapplied = null
      return { unapplied: null }
    }
    if (name === 'bulk.stagedCells') {
      const { offset, read } = input as { offset: number; read?: number }
      core.markPages.push([offset, read])
      core.beforeMarksPage?.(offset)
      if (read === undefined) core.markReads++
      if (offset === core.endReadAt) {
        core.endReadAt = null
        core.markReads++
      }
      if (read !== undefined && read !== core.markReads) throw new ContractError({ kind: 'not-found', message: 'That read of the marks has ended.' })
      return { read: core.markReads, total: core.cells.length, cells: core.cells.slice(offset, offset + MARKS_PAGE) } satisfies StagedCellsPage
    }
    if (name === 'bulk.gridVersion') return { version: core.version }
    if (name === 'bulk.history') return []
    if (name === 'bulk.stage')
      return { summary: { ...summary }, ...(core.stageAnswer ?? { whole: false, cells: core.cells, cleared: [] }) } satisfies ChangeSetState
    if (name === 'bulk.discard') return { summary: { ...summary }, whole: true, cells: [], cleared: [] } satisfies ChangeSetState
    if (name === 'bulk.setRules') return { summary: { ...summary }, whole: true, cells: core.cells, cleared: [] } satisfies ChangeSetState
    throw new Error(`unexpected ${name}`)
  })
  return core
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0))
async function until(condition: () => boolean) {
  for (let i = 0; i < 200 && !condition(); i++) await settle()
  expect(condition()).toBe(true)
}

const signedIn = (baseUrl: string | null): SessionInfo => ({
  signedIn: true,
  baseUrl,
  lastBaseUrl: baseUrl,
  demo: baseUrl === null,
  keyStorage: null,
  keyStorageNotice: null
})

beforeEach(() => {
  setActivePinia(createPinia())
  bridge.call.mockReset()
  useSessionStore().apply(signedIn(null))
})

it('shows the first page at once with every row counted, fills the rest as pages arrive, and says how far it is', async () => {
  const core = fakeCore()
  let release = () => {}
  core.hold = new Promise((resolve) => (release = resolve))
  const store = useBulkEditStore()
  const loading = store.load()
  await until(() => store.loaded)

  expect(store.rows).toHaveLength(TOTAL)
  expect(store.rowCount).toBe(TOTAL)
  expect(store.rows.slice(0, BULK_GRID_FIRST_PAGE).map((row) => row.id)).toEqual(core.listings.slice(0, BULK_GRID_FIRST_PAGE).map((row) => gridRow.id(row)))
  expect(store.rows[BULK_GRID_FIRST_PAGE]!.id).toBe('') // not read yet
  expect(store.progress).toEqual({ read: BULK_GRID_FIRST_PAGE, total: TOTAL })
  expect(store.complete).toBe(false)
  let completed = false
  void store.whenComplete().then(() => (completed = true))
  await settle()
  expect(completed).toBe(false)

  release()
  await loading
  expect(core.offsets).toEqual([0, BULK_GRID_FIRST_PAGE, BULK_GRID_FIRST_PAGE + BULK_GRID_PAGE])
  expect(store.rows.map((row) => row.id)).toEqual(core.listings.map((row) => gridRow.id(row)))
  expect(store.rows[TOTAL - 1]).toMatchObject({
    name: `Listing ${TOTAL - 1}`,
    price: (100 + (TOTAL - 1) / 100).toFixed(2),
    priceNow: (100 + (TOTAL - 1) / 100).toFixed(2),
    quantity: 3
  })
  expect(store.progress).toBeNull()
  expect(store.complete).toBe(true)
  await settle()
  expect(completed).toBe(true)
})

it('marks pending changes on rows as they arrive: staged before the read, and staged while it runs', async () => {
  const core = fakeCore()
  const late = gridRow.id(core.listings[TOTAL - 1]!)
  const middle = gridRow.id(core.listings[BULK_GRID_FIRST_PAGE + 10]!)
  const early = gridRow.id(core.listings[1]!)
  core.cells = [
    [late, 'priceCents', 12_345, null, 5_000],
    [early, 'quantity', -1, 'Quantity cannot be negative.', null]
  ]
  let release = () => {}
  core.hold = new Promise((resolve) => (release = resolve))
  const store = useBulkEditStore()
  const loading = store.load()
  await until(() => store.loaded)
  expect(store.rows[1]).toMatchObject({ quantity: -1, quantityMark: { invalid: 'Quantity cannot be negative.', after: -1, warnsFrom: null } })

  // A change on a row not read yet, answered while the read runs (an import, Change many on a saved selection).
  core.cells = [[middle, 'priceCents', 99_900, null, null]]
  await store.editCells([{ id: early, field: 'priceCents', text: '1' }])
  release()
  await loading
  expect(store.rows[TOTAL - 1]).toMatchObject({ price: '123.45', priceMark: { invalid: null, after: 12_345, warnsFrom: 5_000 } })
  expect(store.rows[BULK_GRID_FIRST_PAGE + 10]).toMatchObject({ price: '999.00', priceMark: { invalid: null, after: 99_900, warnsFrom: null } })
  expect(store.rows[BULK_GRID_FIRST_PAGE + 11]).toMatchObject({ priceMark: null, quantityMark: null })
})

it('starts over when the listings change while it reads, and ends with the new ones', async () => {
  const core = fakeCore()
  core.beforePage = (offset) => {
    if (offset !== BULK_GRID_FIRST_PAGE || core.version !== 'v1') return
    // A sync brought a listing that sorts first, so every later page moved by one.
    core.listings = [listing(-1), ...core.listings]
    core.version = 'v2'
  }
  const store = useBulkEditStore()
  await store.load()
  expect(core.offsets.filter((offset) => offset === 0)).toHaveLength(2)
  expect(store.rows.map((row) => row.id)).toEqual(core.listings.map((row) => gridRow.id(row)))
  expect(new Set(store.rows.map((row) => row.id)).size).toBe(TOTAL + 1)
  expect(store.complete).toBe(true)
})

it('reads the listings again behind the rows shown, and swaps them in once every page is in', async () => {
  const core = fakeCore()
  const store = useBulkEditStore()
  await store.load()
  const shown = store.rows
  core.listings = core.listings.map((row, i) => (i === TOTAL - 1 ? listing(i, 1) : row))
  core.version = 'v2'
  let release = () => {}
  core.hold = new Promise((resolve) => (release = resolve))
  const reading = store.loadIfChanged()
  await until(() => core.offsets.length > 4)
  expect(store.rows).toBe(shown)
  expect(store.progress).toBeNull()
  expect(store.complete).toBe(true)
  release()
  await reading
  expect(store.rows).not.toBe(shown)
  expect(store.rows[TOTAL - 1]).toMatchObject({ priceNow: '0.01', price: '0.01' })
})

it('a read of the rows overtaken by a staging step keeps the step’s counts, not those of the status asked when the read began', async () => {
  const core = fakeCore()
  const store = useBulkEditStore()
  await store.load()
  core.version = 'v2'
  let release = () => {}
  core.hold = new Promise((resolve) => (release = resolve))
  const asked = core.offsets.length
  const reading = store.loadIfChanged()
  await until(() => core.offsets.length > asked + 1) // the read's status is asked, its pages held
  core.summary.changes = 1
  core.summary.listings = 1
  await store.editCells([{ id: gridRow.id(core.listings[0]!), field: 'priceCents', text: '12.00' }])
  expect(store.summary.changes).toBe(1)
  release()
  await reading
  expect(store.summary.changes).toBe(1)
  expect(store.summary.listings).toBe(1)
})

it('a read of the rows during which a batch ended does not bring the batch back as running', async () => {
  const core = fakeCore()
  const store = useBulkEditStore()
  store.follow()
  await store.load()
  const batch: BatchStatus = {
    ...{ id: 'b1', label: '1 price on 1 listing', createdAt: '2026-01-01T00:00:00.000Z', startedAt: '2026-01-01T00:00:00.000Z', finishedAt: null },
    ...{ running: true, total: 1, pending: 1, applied: 0, failed: 0, conflict: 0, cancelled: 0, etaMs: null, undoOf: null, undoneAt: null }
  }
  core.running = batch
  core.version = 'v2'
  let release = () => {}
  core.hold = new Promise((resolve) => (release = resolve))
  const asked = core.offsets.length
  const reading = store.loadIfChanged()
  await until(() => core.offsets.length > asked + 1) // the read's status is asked (the batch running), its pages held
  core.running = null
  bridge.events.get('bulk.progress')!({ ...batch, running: false, pending: 0, applied: 1, finishedAt: '2026-01-01T00:00:01.000Z' })
  expect(store.running).toBeNull()
  release()
  await reading
  expect(store.running).toBeNull()
})

it('reads every mark a page at a time, begins again when another read ended its own, and reads them all when an answer had too many to carry', async () => {
  const core = fakeCore()
  // Both fields of every row: more marks than a page.
  const everyCell = (priceCents: number): StagedCell[] =>
    core.listings.flatMap((row) => [
      [gridRow.id(row), 'priceCents', priceCents, null, null] as StagedCell,
      [gridRow.id(row), 'quantity', 7, null, null] as StagedCell
    ])
  core.cells = everyCell(55_500)
  core.endReadAt = 1_400
  const store = useBulkEditStore()
  await store.load()
  // The first read was ended before its third page: a second read, from the start, under its own name.
  expect(core.markPages.slice(0, 3)).toEqual([
    [0, undefined],
    [700, 1],
    [1_400, 1]
  ])
  expect(core.markPages.slice(3)).toEqual(Array.from({ length: Math.ceil((2 * TOTAL) / 700) }, (_, i) => [i * 700, i === 0 ? undefined : 3]))
  expect(store.rows.every((row) => row.price === '555.00' && row.quantity === 7 && row.priceMark && row.quantityMark)).toBe(true)

  // An answer that asks for a read instead of carrying the marks (a redo of a large step).
  core.cells = everyCell(66_600)
  core.stageAnswer = { whole: true, reread: true, cells: [], cleared: [] }
  const reads = core.markReads
  await store.editCells([{ id: store.rows[0]!.id, field: 'priceCents', text: '666' }])
  expect(core.markReads).toBe(reads + 1)
  expect(store.rows.every((row) => row.price === '666.00' && row.quantity === 7)).toBe(true)
})

it('marks a stage’s sent cells from its answer by their place: each listing’s fields in the field list’s order, without reading the marks again', async () => {
  const core = fakeCore()
  const store = useBulkEditStore()
  await store.load()
  const [a, b, c] = store.rows as [GridRow, GridRow, GridRow]
  // Marked before: c's quantity, which the paste takes back (emptied).
  core.cells = [[c.id, 'quantity', 9, null, null]]
  await store.editCells([{ id: c.id, field: 'quantity', text: '9' }])
  expect(c.quantityMark).not.toBeNull()
  const reads = core.markReads
  // Places: a's price 0 (warned, judged against 100.00), a's quantity 1 (given first), b's price 2, c's quantity 3.
  core.stageAnswer = {
    whole: false,
    cells: [],
    cleared: [],
    sent: {
      unstaged: [2, 3],
      problems: [
        [0, null, 10_000],
        [1, 'Quantity cannot be negative.', null]
      ]
    }
  }
  await store.editCells([
    { id: a.id, field: 'quantity', text: '-1' },
    { id: a.id, field: 'priceCents', text: '123.40' },
    { id: b.id, field: 'priceCents', text: '100.01' },
    { id: c.id, field: 'quantity', text: '' }
  ])
  expect(core.markReads).toBe(reads)
  expect(a).toMatchObject({
    price: '123.40',
    priceMark: { invalid: null, after: 12_340, warnsFrom: 10_000 },
    quantity: -1,
    quantityMark: { invalid: 'Quantity cannot be negative.', after: -1, warnsFrom: null }
  })
  expect(b).toMatchObject({ price: b.priceNow, priceMark: null })
  expect(c).toMatchObject({ quantity: c.quantityNow, quantityMark: null })
})

it('stops reading the marks once the account changed, and marks nothing of the one before', async () => {
  const core = fakeCore()
  core.cells = core.listings.flatMap((row) => [[gridRow.id(row), 'priceCents', 55_500, null, null] as StagedCell])
  const store = useBulkEditStore()
  await store.load()
  expect(store.rows.every((row) => row.priceMark)).toBe(true)

  // An undo's answer asks for every mark; while they are read, the seller switches account.
  core.stageAnswer = { whole: true, reread: true, cells: [], cleared: [] }
  core.markPages = []
  core.beforeMarksPage = (offset) => {
    if (offset === 700) store.reset()
  }
  await store.editCells([{ id: store.rows[0]!.id, field: 'priceCents', text: '1' }])
  expect(core.markPages.map(([offset]) => offset)).toEqual([0, 700])
  expect(store.rows).toEqual([])
  expect(store.loaded).toBe(false)
})

it('says when an open cell editor must close: a discard, not an edit of the seller’s nor a read of new rows', async () => {
  const core = fakeCore()
  const store = useBulkEditStore()
  await store.load()
  const id = store.rows[0]!.id
  const replaced = store.cellsReplaced

  // The seller's own edit (typed in one cell while an editor opens on the next): the editor stays.
  core.cells = [[id, 'priceCents', 12_300, null, null]]
  await store.editCells([{ id, field: 'priceCents', text: '123' }])
  expect(store.cellsReplaced).toBe(replaced)

  await store.discard()
  expect(store.cellsReplaced).toBe(replaced + 1)
  expect(store.rows[0]).toMatchObject({ price: store.rows[0]!.priceNow, priceMark: null })

  // Rows read again (a sync in the background) while the seller types: what they type stays.
  core.version = 'v2'
  await store.loadIfChanged()
  expect(store.cellsReplaced).toBe(replaced + 1)
})

it('tells a listing’s values as the grid read them last, by id, in the field’s unit', async () => {
  const core = fakeCore()
  const store = useBulkEditStore()
  await store.load()
  const row = core.listings[7]!
  const now = store.listingNow(gridRow.id(row))!
  expect(now.updatedAt).toBe(gridRow.updatedAt(row))
  expect(now.value('priceCents')).toBe(gridRow.value(row, 'priceCents'))
  expect(now.value('quantity')).toBe(3)
  expect(store.listingNow('no-such-listing')).toBeUndefined()
  expect(store.rowById(gridRow.id(row))).toBe(store.rows[7])
})

it('a paste in flight as the seller switches accounts names the account it was made for; its refusal is dropped quietly, one for the open account is not', async () => {
  fakeCore()
  const store = useBulkEditStore()
  const session = useSessionStore()
  await store.load()
  const answer = bridge.call.getMockImplementation()!
  const accountB = accountKeyOf(signedIn('https://b.example'))
  const refusal = () =>
    new ContractError({
      kind: 'not-signed-in',
      message: 'That account is no longer the one open in Seller Desk, so its pending changes were left as they are.'
    })
  /** What the core says the open session is, and what it answers a stage. */
  let open = signedIn(null)
  let stage: (input: Record<string, unknown>) => Promise<unknown> = async () => {
    throw refusal()
  }
  const staged: Record<string, unknown>[] = []
  bridge.call.mockImplementation(async (name: string, input: Record<string, unknown>) => {
    if (name === 'session.get') return open
    if (name === 'bulk.stage') {
      staged.push(input)
      return stage(input)
    }
    return answer(name, input)
  })
  const paste = () => store.editCells([{ id: store.rows[0]!.id, field: 'priceCents', text: '1' }])

  // Answered after the window heard of the switch (and dropped what it showed of the demo).
  let refuse = () => {}
  stage = () => new Promise((_, reject) => (refuse = () => reject(refusal())))
  const first = paste()
  await until(() => staged.length === 1)
  expect(staged[0]).toMatchObject({ account: 'demo' })
  open = signedIn('https://b.example')
  session.apply(open)
  store.reset()
  refuse()
  await expect(first).resolves.toEqual([])
  expect(store.summary.changes).toBe(0)

  // Answered before the window heard of it: the session read afresh tells, and is put in place.
  session.apply(signedIn(null))
  await store.load()
  stage = async () => {
    throw refusal()
  }
  await expect(paste()).resolves.toEqual([])
  expect(staged[1]).toMatchObject({ account: 'demo' })
  expect(session.identity).toBe(accountB)

  // Refused while that account is still the open one: a failure the seller is told of.
  open = signedIn(null)
  session.apply(open)
  await store.load()
  await expect(paste()).rejects.toThrow(/no longer the one open/)
})

/** A batch that ended with some changes not applied. */
const endedBatch = (counts: Partial<BatchStatus>): BatchStatus => ({
  ...{ id: 'b7', label: '3 prices on 3 listings', createdAt: '2026-01-01T00:00:00.000Z', startedAt: '2026-01-01T00:00:00.000Z' },
  ...{ finishedAt: '2026-01-01T00:00:02.000Z', running: false, total: 3, pending: 0, applied: 0, failed: 0, conflict: 0, cancelled: 0 },
  ...{ etaMs: null, undoOf: null, undoneAt: null },
  ...counts
})

it('notes the last batch’s changes that did not apply as the core says, narrows to their listings with each reason, and follows the note as batches end', async () => {
  const core = fakeCore()
  core.unapplied = endedBatch({ applied: 0, failed: 2, conflict: 1 })
  core.unappliedChanges = [
    ['l00001', 'priceCents', 'failed', 10_101, 'The marketplace had a problem (HTTP 500). Try again later.'],
    ['l00001', 'quantity', 'failed', 7, 'The marketplace had a problem (HTTP 500). Try again later.'],
    ['l00004', 'priceCents', 'conflict', 10_104, 'Changed on the marketplace since you staged this (price is now $1.00).']
  ]
  const store = useBulkEditStore()
  store.follow()
  await store.load()
  expect(store.unapplied).toMatchObject({ id: 'b7', failed: 2, conflict: 1 })
  expect(store.unappliedShown).toBeNull()

  // Read a page at a time, one reason per listing with each of its changes.
  await store.showUnapplied()
  expect(core.unappliedPages).toEqual([0, 2])
  expect([...store.unappliedShown!.reasons.keys()]).toEqual(['l00001', 'l00004'])
  expect(store.unappliedShown!.reasons.get('l00001')).toBe(
    'Price $101.01: The marketplace had a problem (HTTP 500). Try again later. · Quantity 7: The marketplace had a problem (HTTP 500). Try again later.'
  )

  // A retry ends with the conflict left: the note says so, and the listings shown are read again.
  const retried = endedBatch({ applied: 2, conflict: 1 })
  bridge.events.get('bulk.progress')!({ ...retried, running: true, pending: 2, finishedAt: null })
  expect(store.unapplied).toBeNull()
  core.unapplied = retried
  core.unappliedChanges = core.unappliedChanges.slice(2)
  bridge.events.get('bulk.progress')!(retried)
  await until(() => store.unappliedShown?.reasons.size === 1)
  expect(store.unapplied).toMatchObject({ failed: 0, conflict: 1 })

  // A newer batch applied whole: no note, and the whole grid again.
  core.unapplied = null
  bridge.events.get('bulk.progress')!(endedBatch({ id: 'b8', applied: 3 }))
  await until(() => store.unapplied === null)
  expect(store.unappliedShown).toBeNull()
})

it('puts the note away for the account it was shown for', async () => {
  const core = fakeCore()
  core.unapplied = endedBatch({ failed: 1, applied: 2 })
  core.unappliedChanges = [['l00002', 'priceCents', 'failed', 10_102, 'Refused.']]
  const store = useBulkEditStore()
  await store.load()
  await store.showUnapplied()
  await store.dismissUnapplied()
  expect(bridge.call).toHaveBeenCalledWith('bulk.dismissUnapplied', { account: 'demo', batchId: 'b7' })
  expect(store.unapplied).toBeNull()
  expect(store.unappliedShown).toBeNull()
})

it('a retry, resume or cancel names the account open as it is asked; refused because the seller switched meanwhile, it is dropped quietly and shows nothing of that account', async () => {
  fakeCore()
  const store = useBulkEditStore()
  const session = useSessionStore()
  await store.load()
  const answer = bridge.call.getMockImplementation()!
  const asked: [string, Record<string, unknown>][] = []
  let open = signedIn(null)
  let batchCall: () => Promise<BatchStatus> = async () => endedBatch({ running: true, pending: 2, failed: 0, finishedAt: null })
  bridge.call.mockImplementation(async (name: string, input: Record<string, unknown>) => {
    if (name === 'session.get') return open
    if (name === 'bulk.retryFailed' || name === 'bulk.resume' || name === 'bulk.cancel') {
      asked.push([name, input])
      return batchCall()
    }
    return answer(name, input)
  })

  await store.retryFailed('b7')
  await store.resume('b7')
  await store.cancel('b7')
  expect(asked).toEqual([
    ['bulk.retryFailed', { account: 'demo', batchId: 'b7' }],
    ['bulk.resume', { account: 'demo', batchId: 'b7' }],
    ['bulk.cancel', { account: 'demo', batchId: 'b7' }]
  ])
  expect(store.shownBatch).toMatchObject({ id: 'b7', running: true })

  // Refused by the core once the seller switched to another account: nothing of the demo's batch is shown there.
  store.reset()
  let refuse = () => {}
  batchCall = () =>
    new Promise((_, reject) => (refuse = () => reject(new ContractError({ kind: 'not-signed-in', message: 'That account is no longer the one open.' }))))
  for (const send of [() => store.retryFailed('b7'), () => store.resume('b7'), () => store.cancel('b7')]) {
    session.apply(signedIn(null))
    const pending = send()
    await until(() => asked.length === 4)
    expect(asked.pop()![1]).toMatchObject({ account: 'demo' })
    open = signedIn('https://b.example')
    session.apply(open)
    store.reset()
    refuse()
    await expect(pending).resolves.toBeUndefined()
    expect(store.shownBatch).toBeNull()
    expect(store.running).toBeNull()
    open = signedIn(null)
  }
})

it('new rules: the grid is drawn again once the page holds them, so a warned cell is worded under them, not the rules before', async () => {
  const core = fakeCore()
  const store = useBulkEditStore()
  await store.load()
  const [a] = store.rows as [GridRow]
  core.cells = [[a.id, 'priceCents', 99_900, null, 10_000]]
  // The rules each drawing of the grid would word its cells with.
  const drawnUnder: number[] = []
  watch(
    () => store.revision,
    () => drawnUnder.push(store.rules.priceChangePercent),
    { flush: 'sync' }
  )
  await store.setRules({ priceChangePercent: 70, priceFloorCents: null, quantityCutPercent: 90 })
  expect(store.rules.priceChangePercent).toBe(70)
  expect(drawnUnder.at(-1)).toBe(70)
})

it('a notice about a batch waiting to be sent closes once a status read and the batch itself say it waits no more, not while a newer batch hides it or for another account', async () => {
  const core = fakeCore()
  const store = useBulkEditStore()
  const session = useSessionStore()
  const answer = bridge.call.getMockImplementation()!
  /** What the status names as waiting, and the changes each batch of the open account has not sent. */
  let waiting: BatchStatus | null = endedBatch({ id: 'b1', finishedAt: null, pending: 5 })
  const unsent = new Map<string, Map<string, number>>([['demo', new Map([['b1', 5]])]])
  const asked: string[] = []
  bridge.call.mockImplementation(async (name: string, input: Record<string, unknown>) => {
    if (name === 'bulk.status') return { ...(await answer(name, input)), pendingBatch: waiting }
    if (name === 'bulk.batchRows') {
      const { account, batchId, status } = input as { account: string; batchId: string; status: string }
      asked.push(`${account}:${batchId}`)
      const pending = unsent.get(account)?.get(batchId)
      if (status !== 'pending' || pending === undefined)
        throw new ContractError({ kind: 'not-found', message: 'That batch of changes is not on this computer for this account.' })
      return { total: pending, page: 1, take: 1, rows: [] }
    }
    return answer(name, input)
  })
  let closed = 0
  const stop = store.whileWaiting('b1', () => closed++)

  // Named waiting: nothing to ask.
  await store.readRules()
  await settle()
  expect([closed, asked]).toEqual([0, []])

  // A newer batch queued: the status names none waiting, but the batch itself still holds changes to send.
  waiting = null
  await store.readRules()
  await until(() => asked.length === 1)
  await settle()
  expect(closed).toBe(0)

  // Another account open: its status knows nothing of the batch, nor does the batch belong to it.
  session.apply(signedIn('https://b.example'))
  await store.readRules()
  await until(() => asked.length === 2)
  await settle()
  expect(asked).toEqual(['demo:b1', `${accountKeyOf(signedIn('https://b.example'))}:b1`])
  expect(closed).toBe(0)

  // Back on its account, every change sent meanwhile: the notice closes, once.
  session.apply(signedIn(null))
  unsent.get('demo')!.set('b1', 0)
  await store.readRules()
  await until(() => closed === 1)
  await store.readRules()
  await settle()
  expect(closed).toBe(1)
  expect(asked).toHaveLength(3)
  stop()

  // A batch being sent waits no more either; a later notice about the same batch takes the place of the one before.
  let first = 0
  let second = 0
  store.whileWaiting('b2', () => first++)
  store.whileWaiting('b2', () => second++)
  expect([first, second]).toEqual([1, 0])
  core.running = endedBatch({ id: 'b2', running: true, finishedAt: null, pending: 3 })
  await store.readRules()
  expect([first, second]).toEqual([1, 1])
  expect(asked).toHaveLength(3)
})
