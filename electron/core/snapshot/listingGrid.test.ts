/**
 * The bulk-edit grid's reads from the snapshot: pages in the grid's order, the total and the version
 * they carry, and the property columns written at every sync and put.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { generateMarketplace } from '../../sandbox'
import { wireSellRequest, type WireSellRequest } from '../../sandbox/wire'
import { gridRow } from '../../shared/gridRow'
import { LISTING_FIELD_SET } from '../../shared/listingFields'
import { statusLabel } from '../../shared/plainWords'
import { sellRequestFromWire } from '../sellerApi/wire'
import { gridVersion } from './listingGrid'
import { openSnapshot, type SellRequestBatch, type Snapshot, type SyncRun } from './snapshot'

const BASE = 'http://127.0.0.1:1'
const fields = LISTING_FIELD_SET

/** Listings as the marketplace sends them; properties may be missing, null, numbers or booleans (the wire allows them). */
type Wire = Omit<WireSellRequest, 'properties'> & { properties: Record<string, string | number | boolean | null> }

let generated: Wire[]
let dir: string
let snapshot: Snapshot

const batch = (rows: Wire[]): SellRequestBatch => ({
  rows: rows.map((row) => sellRequestFromWire(row as Parameters<typeof sellRequestFromWire>[0])),
  wire: { json: JSON.stringify(rows), path: '$' }
})

async function fullSync(rows: Wire[]) {
  const run: SyncRun = {
    resource: 'sellRequests',
    startedMs: Date.now(),
    windowFromMs: null,
    total: rows.length,
    pageSize: 10,
    covered: [],
    cursorMs: null,
    round: 1,
    totalDropped: false,
    firstTotal: null
  }
  await snapshot.beginRun(run)
  for (let from = 0; from < rows.length; from += 10) {
    run.covered = [[0, Math.min(rows.length, from + 10)]]
    await snapshot.stagePages(run, [batch(rows.slice(from, from + 10))])
  }
  await snapshot.commitRun('sellRequests')
}

/** SQLite's NOCASE (ASCII letters folded), then the id: the grid's order. */
const nocase = (text: string) => text.replace(/[A-Z]/g, (c) => c.toLowerCase())
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
const gridOrder = (rows: Wire[]) => [...rows].sort((a, b) => compare(nocase(a.name), nocase(b.name)) || compare(a.id, b.id)).map((row) => row.id)

function allPages(limit: number): { ids: string[]; totals: Set<number>; versions: Set<string> } {
  const ids: string[] = []
  const totals = new Set<number>()
  const versions = new Set<string>()
  for (let offset = 0; ; offset += limit) {
    const page = snapshot.gridRows({ offset, limit }, fields)
    totals.add(page.total)
    versions.add(page.version)
    ids.push(...page.rows.map((row) => gridRow.id(row)))
    if (page.rows.length < limit) break
  }
  return { ids, totals, versions }
}

beforeEach(async () => {
  generated = generateMarketplace({ seed: 21, orders: 0, sellRequests: 53 }).sellRequests.map((s) => wireSellRequest(s, BASE) as Wire)
  // Names that differ only in case, and the same name twice: the order still holds (name without case, then id).
  generated[0]!.name = 'apple iPhone'
  generated[1]!.name = 'Apple iPhone'
  generated[2]!.name = 'APPLE IPHONE'
  generated[3]!.name = generated[4]!.name
  dir = mkdtempSync(join(tmpdir(), 'seller-desk-listing-grid-'))
  snapshot = openSnapshot(join(dir, 'snapshot.sqlite'))
  await fullSync(generated)
})
afterEach(() => snapshot.close())

it('reads the listings page by page in the grid order (name without case, then id), each page with the total', () => {
  for (const limit of [1, 7, 53, 60]) {
    const { ids, totals } = allPages(limit)
    expect(ids).toEqual(gridOrder(generated))
    expect([...totals]).toEqual([53])
  }
  // The edges: the last row alone, past the end, a limit past the end.
  expect(snapshot.gridRows({ offset: 52, limit: 10 }, fields).rows.map((row) => gridRow.id(row))).toEqual([gridOrder(generated)[52]])
  expect(snapshot.gridRows({ offset: 53, limit: 10 }, fields)).toMatchObject({ rows: [], total: 53 })
  expect(snapshot.gridRows({ offset: 1_000, limit: 10 }, fields)).toMatchObject({ rows: [], total: 53 })
  expect(snapshot.gridRows({ offset: 10, limit: 5 }, fields).rows.map((row) => gridRow.id(row))).toEqual(gridOrder(generated).slice(10, 15))
})

it('goes on from where the last page ended only while the listings are unchanged: after a deletion or an arrival, the next page is at its offset', async () => {
  const ids = (page: { rows: readonly unknown[] }) => page.rows.map((row) => gridRow.id(row as never))
  expect(ids(snapshot.gridRows({ offset: 0, limit: 10 }, fields))).toEqual(gridOrder(generated).slice(0, 10))
  // A listing before the tenth goes: the listing at offset 10 is the one that was eleventh.
  const gone = gridOrder(generated)[3]!
  await snapshot.removeSellRequest(gone)
  const left = generated.filter((row) => row.id !== gone)
  expect(ids(snapshot.gridRows({ offset: 10, limit: 10 }, fields))).toEqual(gridOrder(left).slice(10, 20))
  // Read on in turn, an arrival first by name comes between two pages: the next is again at its offset.
  expect(ids(snapshot.gridRows({ offset: 20, limit: 10 }, fields))).toEqual(gridOrder(left).slice(20, 30))
  const arrival = { ...generated[6]!, id: 'zz-new-listing', sku: 'NEW-1', name: 'aaa first by name' }
  await snapshot.applyChanges('sellRequests', [batch([arrival])], Date.now())
  expect(ids(snapshot.gridRows({ offset: 30, limit: 10 }, fields))).toEqual(gridOrder([...left, arrival]).slice(30, 40))
  // A page asked out of turn (the grid's first page again, then a jump) is read at its offset too.
  expect(ids(snapshot.gridRows({ offset: 0, limit: 5 }, fields))).toEqual(gridOrder([...left, arrival]).slice(0, 5))
  expect(ids(snapshot.gridRows({ offset: 40, limit: 5 }, fields))).toEqual(gridOrder([...left, arrival]).slice(40, 45))
})

it('answers each row with its columns, its status in words and every field value', () => {
  const byId = new Map(generated.map((row) => [row.id, row]))
  for (const row of snapshot.gridRows({ offset: 0, limit: 100 }, fields).rows) {
    const wire = byId.get(gridRow.id(row))!
    const listing = sellRequestFromWire(wire as Parameters<typeof sellRequestFromWire>[0])
    expect([gridRow.text(row, 'name'), gridRow.text(row, 'sku'), gridRow.text(row, 'brand'), gridRow.text(row, 'status'), gridRow.updatedAt(row)]).toEqual([
      listing.name,
      listing.sku,
      listing.brand,
      statusLabel(listing.status),
      listing.updatedAt
    ])
    for (const field of fields.all) expect(gridRow.value(row, field.key)).toBe((listing as unknown as Record<string, number>)[field.key])
  }
})

it('keeps one version while the listings stay, and a new one (and total) once a sync, a put or a deletion changes them', async () => {
  const { versions } = allPages(10)
  expect(versions.size).toBe(1)
  const [first] = versions
  expect(snapshot.gridVersion(fields)).toBe(first)
  expect(first).toBe(gridVersion(snapshot.database, fields).version)

  // A new price with the same update time (the spec leaves open whether an edit moves it).
  const edited = { ...generated[5]!, price: generated[5]!.price + 1 }
  await snapshot.putSellRequest(batch([edited]))
  const priced = snapshot.gridRows({ offset: 20, limit: 10 }, fields)
  expect(priced.version).not.toBe(first)
  expect(priced.version).toBe(gridVersion(snapshot.database, fields).version)

  // An incremental sync bringing a new listing: total and version move.
  const arrival = { ...generated[6]!, id: 'zz-new-listing', sku: 'NEW-1', name: 'aaa first by name' }
  await snapshot.applyChanges('sellRequests', [batch([arrival])], Date.now())
  const grown = snapshot.gridRows({ offset: 0, limit: 1 }, fields)
  expect(grown.total).toBe(54)
  expect(gridRow.id(grown.rows[0]!)).toBe('zz-new-listing')
  expect(grown.version).not.toBe(priced.version)

  await snapshot.removeSellRequest('zz-new-listing')
  const shrunk = snapshot.gridRows({ offset: 0, limit: 100 }, fields)
  expect(shrunk.total).toBe(53)
  expect(shrunk.rows).toHaveLength(53)
  expect(shrunk.version).not.toBe(grown.version)

  // A sync that brought the same rows again leaves it.
  await snapshot.applyChanges('sellRequests', [batch([edited])], Date.now())
  expect(snapshot.gridRows({ offset: 0, limit: 1 }, fields).version).toBe(shrunk.version)
})

it('writes grade, color, storage and carrier as columns at every sync and put: text, empty when absent or null', async () => {
  const [a, b, c] = generated
  a!.properties = { grade: 'A', color: 'Black', storage: 256, carrier: null, finish: 'matte' }
  b!.properties = { grade: 'B', storage: '128 GB', color: true }
  c!.properties = {}
  await fullSync(generated)
  const properties = () => snapshot.listingProperties([a!.id, b!.id, c!.id, 'no-such-id'])
  expect(properties()).toEqual(
    new Map([
      [a!.id, { grade: 'A', color: 'Black', storage: '256', carrier: '' }],
      [b!.id, { grade: 'B', color: 'true', storage: '128 GB', carrier: '' }],
      [c!.id, { grade: '', color: '', storage: '', carrier: '' }]
    ])
  )
  // The grid's row carries the same text.
  const row = snapshot.gridRows({ offset: 0, limit: 100 }, fields).rows.find((r) => gridRow.id(r) === a!.id)!
  expect(['grade', 'color', 'storage', 'carrier'].map((key) => gridRow.text(row, key as 'grade'))).toEqual(['A', 'Black', '256', ''])

  // An incremental sync changes a property, adds one and drops one; a put changes another.
  await snapshot.applyChanges('sellRequests', [batch([{ ...a!, properties: { grade: 'B', color: 'Black', carrier: 'Verizon' } }])], Date.now())
  await snapshot.putSellRequest(batch([{ ...c!, properties: { color: 'Blue' } }]))
  expect(properties().get(a!.id)).toEqual({ grade: 'B', color: 'Black', storage: '', carrier: 'Verizon' })
  expect(properties().get(c!.id)).toEqual({ grade: '', color: 'Blue', storage: '', carrier: '' })

  // The next full sync writes them from the rows it brings (its staging tables have the columns too).
  await fullSync(generated)
  expect(properties().get(a!.id)).toEqual({ grade: 'A', color: 'Black', storage: '256', carrier: '' })
})
