import fc from 'fast-check'
import type { z } from 'zod'
import { describe, expect, it } from 'vitest'
import { BULK_MAX_CHANGES, bulkSelectionInput, bulkStageInput, selectedIds, stageChanges } from './bulkEdit'

/** What a schema answers: accepted with its value, or refused with its first message. */
function verdict(schema: z.ZodType, value: unknown) {
  const parsed = schema.safeParse(value)
  return parsed.success ? { accepted: parsed.data } : { refused: parsed.error.issues[0]?.message }
}

const guid = fc.oneof(
  fc.uuid(),
  fc.uuid().map((id) => id.toUpperCase()),
  fc.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
)
/** Ids, and what is almost one or not one at all. */
const anId = fc.oneof(
  guid,
  guid.map((id) => `${id} `),
  guid.map((id) => id.slice(1)),
  guid.map((id) => id.replace(/-/g, '')),
  fc.string(),
  fc.integer(),
  fc.constant(null)
)
/** Field values a caller may send, good or not. */
const aValue = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -0, null, undefined),
  fc.string(),
  fc.boolean(),
  fc.array(fc.integer(), { maxLength: 2 })
)
/** A change: any of its keys may be missing, and one more key may come with it. */
const aChange = fc.oneof(
  { weight: 4, arbitrary: fc.record({ sellRequestId: anId, priceCents: aValue, quantity: aValue }, { requiredKeys: [] }) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.record({ sellRequestId: guid, priceCents: aValue }), fc.constantFrom('price', 'id', 'constructor', '__proto__', 'toString'), aValue)
      .map(([change, key, value]) => Object.assign(JSON.parse(JSON.stringify(change)) as object, JSON.parse(`{${JSON.stringify(key)}: 1}`), { [key]: value }))
  },
  { weight: 1, arbitrary: fc.anything() }
)
const validChange = fc.record(
  { sellRequestId: guid, priceCents: fc.oneof(fc.integer(), fc.constant(null)), quantity: fc.oneof(fc.integer(), fc.constant(null)) },
  { requiredKeys: ['sellRequestId'] }
)
/** Valid changes and one more whose field holds any value: refused or not by that value alone. */
const allButOneValid = fc
  .tuple(fc.array(validChange, { maxLength: 4 }), guid, fc.constantFrom('priceCents', 'quantity'), aValue)
  .map(([changes, sellRequestId, key, value]) => [...changes, { sellRequestId, [key]: value }])

describe('the bulk calls checked in one loop', () => {
  it("bulk.stage's changes are accepted and refused exactly as zod's schema accepts and refuses them, with the same first message", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.array(aChange, { maxLength: 6 }),
          fc.array(validChange, { maxLength: 6 }),
          allButOneValid,
          fc.sparseArray(validChange, { maxLength: 6 }),
          fc.anything({ withSparseArray: true })
        ),
        (changes) => {
          expect(verdict(bulkStageInput.shape.changes, changes)).toEqual(verdict(stageChanges, changes))
        }
      ),
      { numRuns: 3_000 }
    )
  })

  it('a stage of changes zod accepts is taken as sent; too many, none, or one bad among them is refused whole with the reason', () => {
    const id = '0b5e4c1c-6a36-4d7e-9f51-8b1f3a2d9e10'
    const sent = [{ sellRequestId: id, priceCents: 1_999 }, { sellRequestId: id.toUpperCase(), quantity: null }, { sellRequestId: id }]
    expect(bulkStageInput.parse({ account: 'demo', changes: sent }).changes).toEqual(sent)
    expect(verdict(bulkStageInput.shape.changes, [])).toEqual(verdict(stageChanges, []))
    expect(verdict(stageChanges, [])).toHaveProperty('refused')
    const tooMany = Array.from({ length: BULK_MAX_CHANGES + 1 }, () => ({ sellRequestId: id, quantity: 1 }))
    expect(verdict(bulkStageInput, { account: 'demo', changes: tooMany })).toEqual({ refused: 'At most 100,000 changes at a time.' })
    const oneBad = [...sent, { sellRequestId: 'not-an-id', quantity: 1 }]
    expect(verdict(bulkStageInput, { account: 'demo', changes: oneBad })).toEqual({ refused: 'That is not a sell request id (expected a UUID).' })
    expect(bulkStageInput.safeParse({ account: 'demo', changes: [{ sellRequestId: id, quantity: Number.NaN }] }).success).toBe(false)
    expect(bulkStageInput.safeParse({ account: 'demo' }).success).toBe(false)
  })

  it("a selection's ids are accepted and refused exactly as zod's schema accepts and refuses them, with the same first message", () => {
    const ids = bulkSelectionInput.options[0].shape.ids
    fc.assert(
      fc.property(
        fc.oneof(
          fc.array(anId, { maxLength: 6 }),
          fc.array(guid, { maxLength: 6 }),
          fc.tuple(fc.array(guid, { maxLength: 4 }), anId).map(([ids, id]) => [...ids, id]),
          fc.sparseArray(guid, { maxLength: 6 }),
          fc.anything({ withSparseArray: true })
        ),
        (sent) => {
          expect(verdict(ids, sent)).toEqual(verdict(selectedIds, sent))
        }
      ),
      { numRuns: 3_000 }
    )
    expect(
      verdict(
        ids,
        Array.from({ length: BULK_MAX_CHANGES + 1 }, () => '0b5e4c1c-6a36-4d7e-9f51-8b1f3a2d9e10')
      )
    ).toEqual(
      verdict(
        selectedIds,
        Array.from({ length: BULK_MAX_CHANGES + 1 }, () => '0b5e4c1c-6a36-4d7e-9f51-8b1f3a2d9e10')
      )
    )
  })
})
