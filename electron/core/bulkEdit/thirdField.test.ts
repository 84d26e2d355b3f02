/**
 * A listing field added to the descriptors alone (its key, `weightGrams`, differs from its wire name, `weight_g`) is carried everywhere a bulk edit goes: a test-only
 * numeric field (a weight in grams, which the sandbox stores when started to) is staged and checked by
 * the change set, exported and imported, sent in the PATCH under its wire name, written to the queue,
 * read back into the snapshot, and reported as a conflict in its own words. Nothing here names price or
 * quantity code paths: if a module still chose between two fields by name, the weight would be treated
 * as one of them and these expectations would fail.
 */
import Papa from 'papaparse'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { z } from 'zod'
import { startSandbox, type Sandbox } from '../../sandbox'
import { gridRowReader } from '../../shared/gridRow'
import { fieldSet, LISTING_FIELDS, numberField, type FieldSet } from '../../shared/listingFields'
import type { ValueProblem } from '../../shared/valueProblem'
import { createSellerApi } from '../sellerApi'
import type { Workspace } from '../workspace'
import { createBulkEdit, type BulkEdit } from './bulkEdit'
import { syncedWorkspace } from './syncedWorkspace.fixture'

const KEY = 'sk_test_third_field_123456'

function weightProblem(grams: number): ValueProblem | null {
  const label = 'Weight'
  if (!Number.isFinite(grams)) return { kind: 'not-finite', label }
  if (grams < 0) return { kind: 'negative', label }
  if (!Number.isInteger(grams)) return { kind: 'not-whole', label }
  if (grams > 100_000) return { kind: 'above-max', label, max: '100,000 g' }
  return null
}

/** Read from the listing as the marketplace sent it (the snapshot keeps each listing's document whole). */
const weightField = numberField({
  key: 'weightGrams',
  wire: 'weight_g',
  column: "coalesce((SELECT json_extract(j.json, '$.weight_g') FROM sell_request_docs j WHERE j.id = s.id), 0)",
  label: 'Weight',
  plural: 'weights',
  fileHeader: 'weight',
  fileWidth: 10,
  unit: 'units',
  example: '180',
  changeExample: '+10',
  rule: z.number().refine((grams) => weightProblem(grams) === null),
  check: weightProblem,
  max: 100_000,
  formatMax: '100,000',
  format: (grams) => `${grams}`
})

const fields: FieldSet = fieldSet([...LISTING_FIELDS, weightField])

let sandbox: Sandbox
let workspace: Workspace
let bulk: BulkEdit

function open(with3: FieldSet = fields): BulkEdit {
  return createBulkEdit({
    snapshot: workspace.snapshot,
    api: createSellerApi({ baseUrl: sandbox.baseUrl, apiKey: KEY, backoffMs: 5, fields: with3.all }),
    online: () => true,
    onProgress: () => {},
    refresh: () => workspace.sync.sync(),
    fields: with3
  })
}

beforeEach(async () => {
  sandbox = await startSandbox({ apiKey: KEY, orders: 3, sellRequests: 20, seed: 7, now: new Date(), extraNumericFields: ['weight_g'] })
  workspace = await syncedWorkspace(sandbox, KEY, 'third-field')
  bulk = open()
})
afterEach(async () => {
  await bulk.close()
  await workspace.close()
  await sandbox.close()
})

const csv = (base64: string) =>
  Papa.parse<string[]>(
    Buffer.from(base64, 'base64')
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .trim()
  ).data
const weightOn = (id: string) => sandbox.state.sellRequest(id)!.extra?.['weight_g']

it('stages, exports, imports and applies a third field added to the descriptors, and reports its conflicts in its own words', async () => {
  const [a, b, c, d] = [...sandbox.state.sellRequests].sort((x, y) => (x.id < y.id ? -1 : 1))
  const priceOfA = a!.priceCents

  // Change set: the descriptor's rule marks a value, as for any field.
  let summary = bulk.stage([
    { sellRequestId: a!.id, weightGrams: 180, priceCents: priceOfA + 100 },
    { sellRequestId: b!.id, weightGrams: -5 }
  ])
  expect(summary).toMatchObject({ changes: 3, listings: 2, invalid: 1 })
  const staged = bulk.changes({ page: 1, take: 10, only: 'all' }).rows
  expect(staged.find((row) => row.sellRequestId === a!.id && row.field === 'weightGrams')).toMatchObject({
    before: 0,
    after: 180,
    invalid: null,
    warning: null
  })
  expect(staged.find((row) => row.sellRequestId === b!.id)).toMatchObject({ field: 'weightGrams', invalid: 'Weight cannot be negative.' })
  expect(() => bulk.stage([{ sellRequestId: a!.id, heightMm: 3 }])).toThrow(/no listing field “heightMm”/)

  // Export: the field has its columns, the pending value and the current one.
  const exported = csv((await bulk.exportFile('csv', { kind: 'listings', selection: { ids: [a!.id, b!.id] } })).base64)
  const header = exported[0]!
  expect(header.slice(5, 11)).toEqual(['Price', 'Quantity', 'Weight', 'Current price', 'Current quantity', 'Current weight'])
  const rowOf = (id: string) => exported.find((row) => row[0] === id)!
  expect(rowOf(a!.id).slice(5, 11)).toEqual([
    ((priceOfA + 100) / 100).toFixed(2),
    String(a!.quantity),
    '180',
    (priceOfA / 100).toFixed(2),
    String(a!.quantity),
    '0'
  ])
  expect(rowOf(b!.id)[7]).toBe('0') // an invalid pending value is not exported as wanted

  // Import: the field's column is read by its descriptor, its problems named by its label.
  const file = `id,weight\r\n${c!.id},250\r\n${d!.id},heavy\r\n`
  const report = await bulk.importFile('weights.csv', new TextEncoder().encode(file))
  expect(report).toMatchObject({ rows: 2, staged: 1 })
  expect(report.problems).toEqual([{ row: 3, message: 'Weight “heavy” is not a number.' }])
  await expect(bulk.importFile('none.csv', new TextEncoder().encode(`id,colour\r\n${c!.id},red\r\n`))).rejects.toThrow(
    'needs a “price”, “quantity” or “weight” column'
  )

  // Saved with the account: a change set reopened with the same fields has the weights; one without them leaves them out.
  await bulk.close()
  bulk = open()
  expect(bulk.status().changeSet).toMatchObject({ changes: 4, invalid: 1 })
  const withoutWeight = open(fieldSet(LISTING_FIELDS))
  expect(withoutWeight.status().changeSet).toMatchObject({ changes: 1, invalid: 0 })
  await withoutWeight.close()

  // Apply: the PATCH carries the field under its wire name; the marketplace, the queue and the snapshot end with it.
  bulk.stage([{ sellRequestId: b!.id, weightGrams: 0 }]) // back to its value: no longer pending
  const started = await bulk.apply(true)
  expect(started.label).toBe('1 price and 2 weights on 2 listings')
  await bulk.whenIdle()
  expect(bulk.history(1)[0]).toMatchObject({ id: started.id, applied: 3, failed: 0, conflict: 0 })
  expect(weightOn(a!.id)).toBe(180)
  expect(weightOn(c!.id)).toBe(250)
  expect(sandbox.state.sellRequest(a!.id)!.priceCents).toBe(priceOfA + 100)
  const rows = bulk.batchRows({ batchId: started.id, page: 1, take: 10 }).rows
  expect(
    rows
      .filter((row) => row.field === 'weightGrams')
      .map((row) => [row.sellRequestId, row.before, row.after, row.status])
      .sort()
  ).toEqual(
    [
      [a!.id, 0, 180, 'applied'],
      [c!.id, 0, 250, 'applied']
    ].sort()
  )
  const read = gridRowReader(fields.all.map((field) => field.key))
  const gridRows = (await bulk.gridRows({ offset: 0, limit: 10_000 })).rows
  expect(
    read.value(
      gridRows.find((row) => read.id(row) === a!.id)!,
      'weightGrams'
    )
  ).toBe(180)

  // A conflict on the field is told with its wire name and its own format.
  bulk.stage([{ sellRequestId: c!.id, weightGrams: 300 }])
  sandbox.state.editSellRequest(c!.id, { extra: { weight_g: 999 } }, Date.now())
  const second = await bulk.apply(true)
  await bulk.whenIdle()
  const [conflict] = bulk.batchRows({ batchId: second.id, page: 1, take: 10 }).rows
  expect(conflict).toMatchObject({ field: 'weightGrams', status: 'conflict' })
  expect(conflict!.message).toContain('(weight_g is now 999)')
  expect(weightOn(c!.id)).toBe(999)

  // Undo of the first batch stages the weights back from the current values.
  summary = bulk.undoBatch(started.id)
  const reverse = bulk.changes({ page: 1, take: 10, only: 'all' }).rows.filter((row) => row.field === 'weightGrams')
  expect(reverse.map((row) => [row.sellRequestId, row.before, row.after]).sort()).toEqual(
    [
      [a!.id, 180, 0],
      [c!.id, 999, 0]
    ].sort()
  )
})
