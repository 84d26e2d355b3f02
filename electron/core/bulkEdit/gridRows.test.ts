/**
 * The grid's rows and marks: every listing of the snapshot with the properties sellers filter by, in
 * name order, a page at a time, and every pending change as a compact cell mark.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../sandbox'
import type { Workspace } from '../workspace'
import { createListingsMemo } from './currentListings'
import { everyMark } from './everyMark.fixture'
import { gridRow } from '../../shared/gridRow'
import { statusLabel } from '../../shared/plainWords'
import { gridVersion } from '../snapshot/listingGrid'
import { LISTING_FIELD_SET } from '../../shared/listingFields'
import { syncedWorkspace } from './syncedWorkspace.fixture'
import { createBulkEdit } from './bulkEdit'
import { createSellerApi } from '../sellerApi'

const KEY = 'sk_test_grid_rows_123456'
let sandbox: Sandbox
let workspace: Workspace

beforeAll(async () => {
  sandbox = await startSandbox({ apiKey: KEY, orders: 3, sellRequests: 25, seed: 12, now: new Date() })
  // Properties as the spec allows them: a key missing, a value that is not a string, an unknown key.
  const odd = sandbox.state.sellRequests[0]!.properties as unknown as Record<string, unknown>
  Object.assign(odd, { storage: 256, finish: 'matte' })
  delete odd['carrier']
  // A status the spec does not name.
  ;(sandbox.state.sellRequests[1] as { status: string }).status = 'partially-sold'
  workspace = await syncedWorkspace(sandbox, KEY, 'grid')
})
afterAll(async () => {
  await workspace.close()
  await sandbox.close()
})

/** Every page of the grid's rows, `limit` at a time. */
async function allRows(limit: number) {
  const rows = []
  for (let offset = 0; ; offset += limit) {
    const page = await workspace.bulk.gridRows({ offset, limit })
    rows.push(...page.rows)
    if (offset + limit >= page.total) return rows
  }
}

it('lists every listing in name order, page by page, with its grade, color, storage and carrier as text, and its status in words', async () => {
  const rows = await allRows(4)
  const listings = workspace.snapshot.dump().sellRequests
  expect(rows).toHaveLength(listings.length)
  expect((await workspace.bulk.gridRows({ offset: 0, limit: 100 })).rows).toEqual(rows)
  const byName = [...listings].sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  expect(rows.map((row) => gridRow.id(row))).toEqual(byName.map((listing) => listing.id))
  for (const row of rows) {
    const listing = listings.find((l) => l.id === gridRow.id(row))!
    const text = (key: string) => (listing.properties[key] === undefined || listing.properties[key] === null ? '' : String(listing.properties[key]))
    expect(row).toEqual([
      listing.id,
      listing.name,
      listing.sku,
      listing.brand,
      text('grade'),
      text('color'),
      text('storage'),
      text('carrier'),
      statusLabel(listing.status),
      listing.updatedAt,
      listing.priceCents,
      listing.quantity
    ])
    expect([gridRow.value(row, 'priceCents'), gridRow.value(row, 'quantity'), gridRow.updatedAt(row)]).toEqual([
      listing.priceCents,
      listing.quantity,
      listing.updatedAt
    ])
  }
  const odd = rows.find((row) => gridRow.id(row) === sandbox.state.sellRequests[0]!.id)!
  expect([gridRow.text(odd, 'storage'), gridRow.text(odd, 'carrier')]).toEqual(['256', ''])
  const statuses = new Set(rows.map((row) => gridRow.text(row, 'status')))
  expect(statuses).toContain('Open')
  expect(statuses).toContain('Partially sold')
  expect([...statuses].filter((status) => !/^[A-Z]/.test(status))).toEqual([])
})

it('reads the grid properties of the listings asked for (exports)', () => {
  const [first, second] = sandbox.state.sellRequests
  const properties = workspace.snapshot.listingProperties([first!.id, second!.id, 'no-such-id'])
  expect(properties.size).toBe(2)
  expect(properties.get(first!.id)).toMatchObject({ storage: '256', carrier: '' })
  expect(properties.get(second!.id)).toEqual({
    grade: String(second!.properties['grade'] ?? ''),
    color: String(second!.properties['color'] ?? ''),
    storage: String(second!.properties['storage'] ?? ''),
    carrier: String(second!.properties['carrier'] ?? '')
  })
})

it('marks each pending change: the new value, why it cannot be applied, and what to double-check', async () => {
  const [a, b] = workspace.snapshot.dump().sellRequests
  workspace.bulk.stage([
    { sellRequestId: a!.id, priceCents: a!.priceCents * 3, quantity: -1 },
    { sellRequestId: b!.id, quantity: b!.quantity + 1 }
  ])
  const cells = everyMark(workspace.bulk)
  expect(cells).toHaveLength(3)
  expect(cells).toContainEqual([a!.id, 'priceCents', a!.priceCents * 3, null, a!.priceCents])
  expect(cells).toContainEqual([a!.id, 'quantity', -1, 'Quantity cannot be negative.', null])
  expect(cells).toContainEqual([b!.id, 'quantity', b!.quantity + 1, null, null])
  await workspace.bulk.discard()
  expect(everyMark(workspace.bulk)).toEqual([])
})

it('an answer carries only the marks a call touched: new and changed cells, cells no longer staged; all of them after new rules', async () => {
  const [a, b, c] = workspace.snapshot.dump().sellRequests
  workspace.bulk.stage([
    { sellRequestId: a!.id, priceCents: a!.priceCents + 1 },
    { sellRequestId: b!.id, quantity: b!.quantity + 1 },
    { sellRequestId: c!.id, priceCents: c!.priceCents + 1 }
  ])
  everyMark(workspace.bulk) // the grid read every mark
  workspace.bulk.stage([{ sellRequestId: c!.id, quantity: -1 }])
  expect(workspace.bulk.marksSince()).toEqual({ whole: false, cells: [[c!.id, 'quantity', -1, 'Quantity cannot be negative.', null]], cleared: [] })
  expect(workspace.bulk.marksSince()).toEqual({ whole: false, cells: [], cleared: [] }) // nothing since

  await workspace.bulk.undo()
  expect(workspace.bulk.marksSince()).toEqual({ whole: false, cells: [], cleared: [[c!.id, 'quantity']] })
  // Back to the listing's own value: the change goes, and so does its mark.
  workspace.bulk.stage([
    { sellRequestId: a!.id, priceCents: a!.priceCents },
    { sellRequestId: b!.id, quantity: b!.quantity + 5 }
  ])
  const step = workspace.bulk.marksSince()
  expect(step.whole).toBe(false)
  expect(step.cleared).toEqual([[a!.id, 'priceCents']])
  expect(step.cells).toEqual([[b!.id, 'quantity', b!.quantity + 5, null, null]])

  // New rules may change any verdict: every mark comes, replacing all.
  await workspace.bulk.setRules({ priceChangePercent: 50, priceFloorCents: 10_000_000, quantityCutPercent: 90 })
  expect(workspace.bulk.marksSince()).toEqual({ whole: true, cells: everyMark(workspace.bulk), cleared: [] })
  await workspace.bulk.setRules({ priceChangePercent: 50, priceFloorCents: null, quantityCutPercent: 90 })
  workspace.bulk.marksSince()
  await workspace.bulk.discard()
  expect(workspace.bulk.marksSince()).toEqual({ whole: true, cells: [], cleared: [] }) // more touched than staged: all (none) is smaller

  // The grid reads every mark after an import: until it does, an answer carries all of them.
  everyMark(workspace.bulk)
  await workspace.bulk.importFile('prices.csv', new TextEncoder().encode(`id,price\n${a!.id},${((a!.priceCents + 7) / 100).toFixed(2)}\n`))
  workspace.bulk.stage([{ sellRequestId: b!.id, quantity: b!.quantity + 2 }])
  expect(workspace.bulk.marksSince()).toEqual({ whole: true, cells: everyMark(workspace.bulk), cleared: [] })
  expect(everyMark(workspace.bulk)).toHaveLength(2)
  await workspace.bulk.discard()
  workspace.bulk.marksSince()
})

it('a stage answers with the sent cells by their place: those not staged, those with a problem; the marks of cells touched otherwise, as marksSince', async () => {
  const [a, b, c] = workspace.snapshot.dump().sellRequests
  workspace.bulk.stage([{ sellRequestId: c!.id, quantity: c!.quantity + 3 }])
  workspace.bulk.marksSince()
  // Places: a's price 0, a's quantity 1 (the field list's order, not the order given), b's quantity 2, c's quantity 3.
  const sent = [
    { sellRequestId: a!.id, quantity: -1, priceCents: a!.priceCents * 3 },
    { sellRequestId: b!.id, quantity: b!.quantity },
    { sellRequestId: c!.id, quantity: null }
  ]
  workspace.bulk.stage(sent)
  expect(workspace.bulk.marksOfSent(sent)).toEqual({
    whole: false,
    cells: [],
    cleared: [],
    sent: {
      unstaged: [2, 3],
      problems: [
        [0, null, a!.priceCents],
        [1, 'Quantity cannot be negative.', null]
      ]
    }
  })
  // What it says is every mark there is.
  expect(everyMark(workspace.bulk)).toEqual(
    expect.arrayContaining([
      [a!.id, 'priceCents', a!.priceCents * 3, null, a!.priceCents],
      [a!.id, 'quantity', -1, 'Quantity cannot be negative.', null]
    ])
  )
  expect(everyMark(workspace.bulk)).toHaveLength(2)

  // A cell touched by another call since the last answer (its marks not yet sent): the touched cells' marks, ids and all.
  workspace.bulk.stage([{ sellRequestId: b!.id, quantity: b!.quantity + 1 }])
  const next = [{ sellRequestId: c!.id, priceCents: c!.priceCents + 1 }]
  workspace.bulk.stage(next)
  const answer = workspace.bulk.marksOfSent(next)
  expect(answer.sent).toBeUndefined()
  expect(answer.whole).toBe(false)
  expect(answer.cells).toEqual(
    expect.arrayContaining([
      [b!.id, 'quantity', b!.quantity + 1, null, null],
      [c!.id, 'priceCents', c!.priceCents + 1, null, null]
    ])
  )
  expect(answer.cells).toHaveLength(2)
  // Nothing sent stages nothing: no outcomes, and nothing else touched since.
  const nothing: typeof next = []
  workspace.bulk.stage(nothing)
  expect(workspace.bulk.marksOfSent(nothing)).toEqual({ whole: false, cells: [], cleared: [], sent: { unstaged: [], problems: [] } })
  await workspace.bulk.discard()
  workspace.bulk.marksSince()
})

it('a stage answers by place only for what it staged: not after another call changed cells, nor for a listing sent twice', async () => {
  const [a, b] = workspace.snapshot.dump().sellRequests
  workspace.bulk.marksSince()
  // Another call's change between the stage and its answer: its mark comes too, ids and all.
  const sent = [{ sellRequestId: a!.id, priceCents: a!.priceCents + 5 }]
  workspace.bulk.stage(sent)
  workspace.bulk.stage([{ sellRequestId: b!.id, quantity: b!.quantity + 4 }])
  const later = workspace.bulk.marksOfSent(sent)
  expect(later.sent).toBeUndefined()
  expect(later.cells).toEqual(
    expect.arrayContaining([
      [a!.id, 'priceCents', a!.priceCents + 5, null, null],
      [b!.id, 'quantity', b!.quantity + 4, null, null]
    ])
  )
  // One listing twice: the later value is staged, and said with its id (the first cell's place would name a value not staged).
  const twice = [
    { sellRequestId: a!.id, priceCents: a!.priceCents + 6 },
    { sellRequestId: a!.id, priceCents: a!.priceCents + 7 }
  ]
  workspace.bulk.stage(twice)
  const answer = workspace.bulk.marksOfSent(twice)
  expect(answer.sent).toBeUndefined()
  expect(answer.cells).toEqual([[a!.id, 'priceCents', a!.priceCents + 7, null, null]])
  // New rules between the stage and its answer: every mark, judged by them.
  const again = [{ sellRequestId: a!.id, priceCents: a!.priceCents * 3 }]
  workspace.bulk.stage(again)
  await workspace.bulk.setRules({ priceChangePercent: 500, priceFloorCents: null, quantityCutPercent: 90 })
  const judged = workspace.bulk.marksOfSent(again)
  expect(judged.sent).toBeUndefined()
  expect(judged.whole).toBe(true)
  expect(judged.cells).toEqual(expect.arrayContaining([[a!.id, 'priceCents', a!.priceCents * 3, null, null]]))
  await workspace.bulk.setRules({ priceChangePercent: 50, priceFloorCents: null, quantityCutPercent: 90 })
  await workspace.bulk.discard()
  workspace.bulk.marksSince()
})

it('a stage answers by place from what staging did, whatever the values: a value no number is marked at its place; a value of another type is refused, changing nothing', async () => {
  const [a, b] = workspace.snapshot.dump().sellRequests
  workspace.bulk.marksSince()
  // NaN (a caller in the core; JSON cannot carry it) is staged and marked invalid at its place.
  const sent = [
    { sellRequestId: a!.id, priceCents: Number.NaN },
    { sellRequestId: b!.id, quantity: b!.quantity + 1 }
  ]
  workspace.bulk.stage(sent)
  expect(workspace.bulk.marksOfSent(sent)).toEqual({
    whole: false,
    cells: [],
    cleared: [],
    sent: { unstaged: [], problems: [[0, expect.any(String), null]] }
  })
  expect(everyMark(workspace.bulk)).toHaveLength(2)
  // A value that is neither a number nor null would have no place among the cells sent: refused.
  const text = [{ sellRequestId: a!.id, priceCents: '12.00', quantity: 4 }]
  expect(() => workspace.bulk.stage(text)).toThrow('A new price is a number, or null to take its change back.')
  expect(workspace.bulk.marksSince()).toEqual({ whole: false, cells: [], cleared: [] })
  expect(everyMark(workspace.bulk)).toHaveLength(2)
  await workspace.bulk.discard()
  workspace.bulk.marksSince()
})

it('reads a page in parts, a turn each, as one version: listings changed between two parts make it read again', async () => {
  const inParts = createBulkEdit({
    snapshot: workspace.snapshot,
    api: createSellerApi({ baseUrl: sandbox.baseUrl, apiKey: KEY }),
    online: () => true,
    onProgress: () => {},
    gridPart: 3
  })
  try {
    const whole = await workspace.bulk.gridRows({ offset: 2, limit: 100 })
    expect(await inParts.gridRows({ offset: 2, limit: 10 })).toEqual({ ...whole, rows: whole.rows.slice(0, 10) })
    expect(await inParts.gridRows({ offset: 0, limit: 100 })).toEqual(await workspace.bulk.gridRows({ offset: 0, limit: 100 }))

    // The first part is read when the call begins; a listing of it goes before the next part is read.
    const gone = gridRow.id(whole.rows[0]!)
    const reading = inParts.gridRows({ offset: 0, limit: 10 })
    // Asked in this turn: with the snapshot's thread idle it is written before this line ends.
    const removed = workspace.snapshot.removeSellRequest(gone)
    const page = await reading
    await removed
    const after = await workspace.bulk.gridRows({ offset: 0, limit: 10 })
    expect(page).toEqual(after)
    expect(page.rows.map((row) => gridRow.id(row))).not.toContain(gone)
    expect(page.version).toBe(workspace.bulk.gridVersion())
  } finally {
    await inParts.close()
    // The listing is still the marketplace's: the next sync's check finds it missing and brings it back.
    await workspace.sync.sync()
    expect(workspace.snapshot.dump().sellRequests).toHaveLength(sandbox.state.sellRequests.length)
  }
})

it('has a version that a sync bringing nothing keeps and an edit or a deletion changes; each page carries it and the total', async () => {
  const version = () => workspace.bulk.gridVersion()
  const first = version()
  expect(await workspace.bulk.gridRows({ offset: 3, limit: 2 })).toMatchObject({ version: first, total: workspace.snapshot.dump().sellRequests.length })
  await workspace.sync.sync()
  expect(version()).toBe(first)
  const [listing] = workspace.snapshot.dump().sellRequests
  await workspace.editSellRequest(listing!.id, { quantity: listing!.quantity + 1 })
  const edited = version()
  expect(edited).not.toBe(first)
  expect((await workspace.bulk.gridRows({ offset: 0, limit: 2 })).version).toBe(edited)
  await workspace.deleteSellRequest(listing!.id)
  expect(version()).not.toBe(edited)
  expect(version().split(':')[0]).toBe(String(workspace.snapshot.dump().sellRequests.length))
  expect((await workspace.bulk.gridRows({ offset: 0, limit: 2 })).total).toBe(workspace.snapshot.dump().sellRequests.length)
})

it('has a version that a new price or quantity changes even when the listing keeps its update time', () => {
  const db = workspace.snapshot.database
  const [listing] = workspace.snapshot.dump().sellRequests
  const version = () => gridVersion(db, LISTING_FIELD_SET).version
  const first = version()
  db.prepare('UPDATE sell_requests SET price_cents = price_cents + 1 WHERE id = ?').run(listing!.id)
  const priced = version()
  expect(priced).not.toBe(first)
  db.prepare('UPDATE sell_requests SET quantity = quantity + 1 WHERE id = ?').run(listing!.id)
  expect(version()).not.toBe(priced)
  // The columns as the listing's document has them again: nothing but this test writes them apart (a
  // sync leaves a listing it reads unchanged as it is).
  db.prepare('UPDATE sell_requests SET price_cents = price_cents - 1, quantity = quantity - 1 WHERE id = ?').run(listing!.id)
  expect(version()).toBe(first)
})

it('stages on the values the grid read while the listings are unchanged, and on the snapshot once they change', async () => {
  const { snapshot } = workspace
  const read = { rows: await allRows(10) }
  const row = read.rows[2]!
  const [id, priceCents, updatedAt] = [gridRow.id(row), gridRow.value(row, 'priceCents'), gridRow.updatedAt(row)]
  workspace.bulk.stage([{ sellRequestId: id, priceCents: priceCents + 100 }])
  expect(workspace.bulk.changes({ page: 1, take: 5, only: 'all' }).rows[0]).toMatchObject({ before: priceCents, baseUpdatedAt: updatedAt })
  await workspace.bulk.discard()

  // Changed elsewhere and brought by a sync: staging now starts from the listing as the snapshot has it.
  const generation = snapshot.listingsGeneration()
  const changed = sandbox.state.editSellRequest(id, { priceCents: priceCents + 5_000 }, Date.now())!
  await workspace.sync.sync()
  expect(snapshot.listingsGeneration()).toBeGreaterThan(generation)
  workspace.bulk.stage([{ sellRequestId: id, priceCents: priceCents + 100 }])
  const staged = workspace.bulk.changes({ page: 1, take: 5, only: 'all' }).rows[0]!
  expect(staged).toMatchObject({ before: priceCents + 5_000, baseUpdatedAt: new Date(changed.updatedAt).toISOString() })
  expect(staged.baseUpdatedAt).not.toBe(updatedAt)
  await workspace.bulk.discard()
})

it('the listings memo answers from what the grid read only at the same snapshot generation', () => {
  const [listing] = workspace.snapshot.dump().sellRequests
  let generation = 7
  const memo = createListingsMemo(
    (ids) => workspace.snapshot.bulkEdit.listingsById(ids),
    () => generation
  )
  expect(memo.byId([listing!.id]).get(listing!.id)).toMatchObject({ priceCents: listing!.priceCents }) // nothing read yet: SQLite
  // A row as a grid read it at generation 7, with a price the snapshot does not hold.
  const text = {
    id: listing!.id,
    name: '',
    sku: '',
    brand: '',
    grade: '',
    color: '',
    storage: '',
    carrier: '',
    status: '',
    updatedAt: '2020-01-01T00:00:00.000Z'
  }
  memo.remember([gridRow.make(text, (field) => ({ priceCents: 1, quantity: 2 })[field]!)], 7)
  expect(memo.byId([listing!.id, 'no-such-id']).get(listing!.id)).toEqual({
    id: listing!.id,
    priceCents: 1,
    quantity: 2,
    updatedAt: '2020-01-01T00:00:00.000Z'
  })
  expect(memo.byId(['no-such-id']).size).toBe(0)
  generation = 8
  expect(memo.byId([listing!.id]).get(listing!.id)).toMatchObject({ priceCents: listing!.priceCents, updatedAt: listing!.updatedAt })
  generation = 7 // once stale, the memo is dropped for good
  expect(memo.byId([listing!.id]).get(listing!.id)).toMatchObject({ priceCents: listing!.priceCents })
})

it('the listings memo takes the grid pages as they come, and answers from them once they cover every listing', async () => {
  const db = workspace.snapshot.database
  const [listing, other] = workspace.snapshot.dump().sellRequests
  const memo = createListingsMemo(
    (ids) => workspace.snapshot.bulkEdit.listingsById(ids),
    () => 7
  )
  const text = (id: string) => ({
    id,
    name: '',
    sku: '',
    brand: '',
    grade: '',
    color: '',
    storage: '',
    carrier: '',
    status: '',
    updatedAt: '2020-01-01T00:00:00.000Z'
  })
  const row = (id: string) => gridRow.make(text(id), (field) => ({ priceCents: 1, quantity: 2 })[field]!)
  const fromMemo = { priceCents: 1, quantity: 2, updatedAt: '2020-01-01T00:00:00.000Z' }

  memo.remember([row(listing!.id)], 7, { offset: 0, total: 2 })
  expect(memo.byId([listing!.id]).get(listing!.id)).toMatchObject({ priceCents: listing!.priceCents }) // half read: SQLite
  memo.remember([row(other!.id)], 7, { offset: 1, total: 2 })
  expect(memo.byId([listing!.id, other!.id]).get(other!.id)).toMatchObject(fromMemo) // every page: the memo

  // A page out of order, or read at another generation, drops what was kept.
  memo.remember([row(listing!.id)], 7, { offset: 0, total: 2 })
  memo.remember([row(other!.id)], 7, { offset: 5, total: 2 })
  expect(memo.byId([other!.id]).get(other!.id)).toMatchObject({ priceCents: other!.priceCents })
  memo.remember([row(listing!.id)], 7, { offset: 0, total: 2 })
  memo.remember([row(other!.id)], 6, { offset: 1, total: 2 })
  expect(memo.byId([other!.id]).get(other!.id)).toMatchObject({ priceCents: other!.priceCents })

  // The grid's own reads fill it: a stage then starts from the values the grid read.
  await allRows(3)
  const [a] = workspace.snapshot.dump().sellRequests
  db.prepare('UPDATE sell_requests SET price_cents = price_cents + 7 WHERE id = ?').run(a!.id) // not through the snapshot: the generation stays
  workspace.bulk.stage([{ sellRequestId: a!.id, priceCents: a!.priceCents + 100 }])
  expect(workspace.bulk.changes({ page: 1, take: 5, only: 'all' }).rows[0]).toMatchObject({ before: a!.priceCents })
  await workspace.bulk.discard()
  db.prepare('UPDATE sell_requests SET price_cents = price_cents - 7 WHERE id = ?').run(a!.id)
})
