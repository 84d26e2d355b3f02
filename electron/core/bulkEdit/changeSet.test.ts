/**
 * The change set and bulk operations, pure: rounding, the single-edit rules applied to every change,
 * warnings that do not block, undo/redo of staging steps, discard, and staging 10,000 changes quickly.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { divideRounded, priceAdjustedByPercent, proposeChanges, type PendingOf } from './bulkOperation'
import { checkChange, createChangeSet, MAX_UNDO_STEPS, wordedChange, type ProposedChange } from './changeSet'
import type { ListingBase } from './currentListings'
import type { WarningRules } from '../../shared/contract'

const AT = '2026-01-01T00:00:00.000Z'
const listing = (n: number, priceCents: number, quantity: number): ListingBase => ({ id: `id-${n}`, priceCents, quantity, updatedAt: AT })

describe('bulk operations', () => {
  it('rounds to whole cents, half away from zero', () => {
    expect(divideRounded(5, 10)).toBe(1)
    expect(divideRounded(-5, 10)).toBe(-1)
    expect(divideRounded(4, 10)).toBe(0)
    expect(divideRounded(-15, 10)).toBe(-2)
    expect(priceAdjustedByPercent(1999, 10)).toBe(2199) // 21.989 → 21.99
    expect(priceAdjustedByPercent(1005, 10)).toBe(1106) // 11.055 → 11.06 (no float noise)
    expect(priceAdjustedByPercent(1005, -10)).toBe(905) // 9.045 → 9.05
    expect(priceAdjustedByPercent(333, 12.5)).toBe(375) // 3.74625 → 3.75
    expect(priceAdjustedByPercent(100, -100)).toBe(0)
    expect(priceAdjustedByPercent(100_000_000, 1000)).toBe(1_100_000_000)
  })

  it('sets and adjusts prices and quantities, building on pending values', () => {
    const listings = [listing(1, 1000, 5), listing(2, 2000, 0)]
    const staged: Record<string, number> = { 'id-2:priceCents': 2500, 'id-2:quantity': 3 }
    const pending: PendingOf = (id, field) =>
      staged[`${id}:${field}`] === undefined ? undefined : { after: staged[`${id}:${field}`]!, baseUpdatedAt: AT, invalid: null }
    expect(proposeChanges(listings, { kind: 'setPrice', priceCents: 1234 }, pending).map((c) => [c.before, c.after])).toEqual([
      [1000, 1234],
      [2000, 1234]
    ])
    expect(proposeChanges(listings, { kind: 'adjustPricePercent', percent: -10 }, pending).map((c) => c.after)).toEqual([900, 2250])
    expect(proposeChanges(listings, { kind: 'adjustPriceAmount', amountCents: -150 }, pending).map((c) => c.after)).toEqual([850, 2350])
    expect(proposeChanges(listings, { kind: 'setQuantity', quantity: 7 }, pending).map((c) => [c.field, c.after])).toEqual([
      ['quantity', 7],
      ['quantity', 7]
    ])
    const subtract = proposeChanges(listings, { kind: 'adjustQuantity', delta: -4 }, pending)
    expect(subtract.map((c) => [c.before, c.after])).toEqual([
      [5, 1],
      [0, -1]
    ])
    // Below 0 is proposed as is and refused by the rules, never clamped.
    const set = createChangeSet()
    set.stage(subtract)
    expect(set.get('id-2', 'quantity')).toMatchObject({ after: -1, invalid: 'Quantity cannot be negative.' })
    expect(set.get('id-1', 'quantity')).toMatchObject({ after: 1, invalid: null })
  })

  it('leaves a pending value that cannot be applied as it is where an operation works from the value held; one that sets a value replaces it', () => {
    const listings = [listing(1, 27678, 5), listing(2, 2000, 4)]
    // A mistyped "12.345" staged for the first listing: a fraction of a cent.
    const pending: PendingOf = (id, field) =>
      id === 'id-1' && field === 'priceCents' ? { after: 1234.5, baseUpdatedAt: AT, invalid: 'A price has at most two decimals.' } : undefined
    for (const operation of [
      { kind: 'adjustPricePercent', percent: -10 },
      { kind: 'adjustPriceAmount', amountCents: 100 }
    ] as const)
      expect(proposeChanges(listings, operation, pending).map((c) => c.sellRequestId)).toEqual(['id-2'])
    expect(proposeChanges(listings, { kind: 'setPrice', priceCents: 1999 }, pending).map((c) => [c.sellRequestId, c.after])).toEqual([
      ['id-1', 1999],
      ['id-2', 1999]
    ])
    // The quantity's own operations are not held back by a problem in the price.
    expect(proposeChanges(listings, { kind: 'adjustQuantity', delta: 1 }, pending).map((c) => c.after)).toEqual([6, 5])
  })
})

describe('change set', () => {
  const proposed = (after: number, field: 'priceCents' | 'quantity' = 'priceCents', before = 1000) => ({
    sellRequestId: 'id-1',
    field,
    before,
    after,
    baseUpdatedAt: AT
  })

  it('checks every change with the single-edit rules and warns without blocking', () => {
    const rules = { priceChangePercent: 50, priceFloorCents: 500, quantityCutPercent: 90 }
    // Checked, a change says whether it warns; its words are made where it is read.
    const worded = (change: ProposedChange, under: WarningRules) => {
      const checked = checkChange(change, under)
      const read = wordedChange(checked, under)
      expect(checked.warns).toBe(read.warning !== null)
      return read
    }
    expect(checkChange(proposed(1234.5), rules).invalid).toBe('Price has more than two decimals.')
    expect(checkChange(proposed(0), rules).invalid).toBe('Price must be more than 0.')
    expect(checkChange(proposed(100_000_001), rules).invalid).toBe('Price must be at most $1,000,000.00.')
    expect(checkChange(proposed(2.5, 'quantity', 1), rules).invalid).toBe('Quantity must be a whole number.')
    expect(checkChange(proposed(1_000_001, 'quantity', 1), rules).invalid).toBe('Quantity must be at most 1,000,000.')
    expect(worded(proposed(1600), rules)).toMatchObject({ invalid: null, warning: 'Price rises by 60% (from $10.00 to $16.00).' })
    expect(worded(proposed(1500), rules)).toMatchObject({ invalid: null, warning: null }) // exactly 50%: no warning
    expect(worded(proposed(400, 'priceCents', 700), rules).warning).toBe('Price $4.00 is below your floor of $5.00.')
    // A move past the rule that also lands under the floor: both said, the floor not hidden behind the move.
    expect(worded(proposed(300, 'priceCents', 1000), rules).warning).toBe('Price falls by 70% (from $10.00 to $3.00). It is below your floor of $5.00.')
    expect(worded(proposed(100, 'quantity', 1), rules).warning).toBeNull() // a restock
    expect(worded(proposed(12, 'quantity', 432), rules).warning).toBe('Quantity falls by 97% (from 432 to 12).')
    expect(worded(proposed(44, 'quantity', 432), rules).warning).toBeNull() // a cut of 89.8%: within the rule's 90%
    expect(worded(proposed(43, 'quantity', 432), rules).warning).toBe('Quantity falls by 90% (from 432 to 43).') // 90.05%
    expect(worded(proposed(1, 'quantity', 1200), rules).warning).toBe('Quantity falls by 99.9% (from 1,200 to 1).')
    expect(worded(proposed(0, 'quantity', 432), rules).warning).toBeNull() // sold out: meant
    expect(worded(proposed(12, 'quantity', 432), { ...rules, quantityCutPercent: 98 }).warning).toBeNull()
  })

  it('undoes and redoes staging steps, discards all (undoably), and drops changes back to the current value', () => {
    const set = createChangeSet()
    set.stage([proposed(1100), proposed(7, 'quantity', 5)])
    set.stage([proposed(1200), { ...proposed(1300), sellRequestId: 'id-2' }])
    expect(set.summary()).toEqual({ changes: 3, listings: 2, invalid: 0, warnings: 0, canUndo: true, canRedo: false })
    set.undo()
    expect(set.get('id-1', 'priceCents')?.after).toBe(1100)
    expect(set.get('id-2', 'priceCents')).toBeUndefined()
    set.redo()
    expect(set.get('id-1', 'priceCents')?.after).toBe(1200)
    set.stage([proposed(1000)]) // back to the current price: no longer a change
    expect(set.get('id-1', 'priceCents')).toBeUndefined()
    expect(set.discard().changes).toBe(0)
    expect(set.undo().changes).toBe(2)
    set.stage([proposed(-5)])
    expect(set.summary()).toMatchObject({ invalid: 1, canRedo: false })
    // Stricter rules re-check what is staged.
    expect(set.setRules({ priceChangePercent: 10, priceFloorCents: null, quantityCutPercent: 90 }).warnings).toBe(1)
  })

  it('tells the change each proposal left, in order: a cell proposed twice, a change taken back, a value no number', () => {
    const set = createChangeSet()
    set.stage([proposed(1100)])
    const outcomes: (ReturnType<typeof set.get> | undefined)[] = []
    set.stage([proposed(1000), proposed(1200), proposed(5, 'quantity', 5), proposed(Number.NaN, 'quantity', 5), proposed(1300)], outcomes)
    expect(outcomes).toHaveLength(5)
    expect(outcomes[0]).toBeUndefined() // back to the listing's value: the pending 11.00 goes
    expect(outcomes[1]).toMatchObject({ after: 1200, invalid: null })
    expect(outcomes[2]).toBeUndefined() // the listing's value, nothing pending: nothing staged
    expect(outcomes[3]).toMatchObject({ field: 'quantity', invalid: expect.any(String) })
    expect(outcomes[3]!.after).toBeNaN()
    // The later proposal of a cell is what stays staged.
    expect(outcomes[4]).toMatchObject({ after: 1300 })
    expect(set.get('id-1', 'priceCents')).toBe(outcomes[4])
    expect(set.get('id-1', 'quantity')).toBe(outcomes[3])
    expect(set.undo().changes).toBe(1) // one step: back to the 11.00 staged before
  })

  it('stages and validates 10,000 changes well within 500 ms', () => {
    const listings = Array.from({ length: 10_000 }, (_, i) => listing(i, 1000 + i, i % 50))
    const started = performance.now()
    const set = createChangeSet()
    set.stage(proposeChanges(listings, { kind: 'adjustPricePercent', percent: 7.5 }))
    const elapsed = performance.now() - started
    expect(set.summary().changes).toBe(10_000)
    expect(elapsed).toBeLessThan(1_500) // generous for slow CI; the bench measures the real figure
  })
})

describe('an operation on top of a pending change', () => {
  it('keeps the version the pending change was staged against, so a change made since stays a conflict', () => {
    const listing: ListingBase = {
      id: '3f6c2a7e-1b2d-4c3e-8f9a-0b1c2d3e4f50',
      priceCents: 10_000,
      quantity: 5,
      updatedAt: '2026-11-20T10:00:00.000Z' // changed on the marketplace since staging
    }
    const pending: PendingOf = (_, field) => (field === 'priceCents' ? { after: 11_000, baseUpdatedAt: '2026-11-19T10:00:00.000Z', invalid: null } : undefined)
    const [onTop] = proposeChanges([listing], { kind: 'adjustPricePercent', percent: 10 }, pending)
    expect(onTop).toMatchObject({ after: 12_100, baseUpdatedAt: '2026-11-19T10:00:00.000Z' })
    const [fresh] = proposeChanges([listing], { kind: 'adjustPricePercent', percent: 10 })
    expect(fresh).toMatchObject({ after: 11_000, baseUpdatedAt: '2026-11-20T10:00:00.000Z' })
  })
})

describe('undo depth', () => {
  it('keeps the last MAX_UNDO_STEPS steps', () => {
    const set = createChangeSet()
    const id = '3f6c2a7e-1b2d-4c3e-8f9a-0b1c2d3e4f50'
    for (let i = 1; i <= MAX_UNDO_STEPS + 5; i++) {
      set.stage([{ sellRequestId: id, field: 'quantity', before: 0, after: i, baseUpdatedAt: '2026-11-20T10:00:00.000Z' }])
    }
    let undos = 0
    while (set.undo().canUndo) undos++
    expect(undos + 1).toBe(MAX_UNDO_STEPS)
    expect(set.get(id, 'quantity')?.after).toBe(5) // steps 1–5 fell off the history: undo stops at what step 5 left
  })
})

describe('the summary', () => {
  // Kept as changes come and go (an import's last turn answers with it): it always says what counting every change says.
  const recount = (set: ReturnType<typeof createChangeSet>) => {
    const all = set.all()
    return {
      changes: all.length,
      listings: new Set(all.map((change) => change.sellRequestId)).size,
      invalid: all.filter((change) => change.invalid).length,
      warnings: all.filter((change) => !change.invalid && change.warns).length
    }
  }
  const change = fc.record({
    sellRequestId: fc.constantFrom('id-1', 'id-2', 'id-3'),
    field: fc.constantFrom('priceCents' as const, 'quantity' as const),
    before: fc.constantFrom(0, 1000),
    // A price 30 % or 300 % away from 1000 (warned at 50 %), unchanged, 0 or negative (invalid).
    after: fc.constantFrom(-5, 0, 1000, 1300, 4000),
    baseUpdatedAt: fc.constant(AT)
  })
  const action = fc.oneof(
    fc.array(change, { maxLength: 6 }).map((proposed) => ({ kind: 'stage' as const, proposed })),
    fc.array(change, { maxLength: 6 }).map((proposed) => ({ kind: 'restore' as const, proposed })),
    fc.constantFrom('undo' as const, 'redo' as const, 'discard' as const).map((kind) => ({ kind })),
    fc.constantFrom('id-1:priceCents', 'id-2:quantity', 'id-3:priceCents').map((key) => ({ kind: 'take' as const, key })),
    fc.constantFrom(10, 50, 500).map((percent) => ({ kind: 'rules' as const, percent }))
  )

  it('counts changes, listings, invalid changes and warnings as a count of every change does, whatever was done', () => {
    fc.assert(
      fc.property(fc.array(action, { maxLength: 30 }), (actions) => {
        const set = createChangeSet()
        for (const action of actions) {
          if (action.kind === 'stage') set.stage(action.proposed)
          else if (action.kind === 'restore') set.restore(action.proposed)
          else if (action.kind === 'take') set.take([action.key])
          else if (action.kind === 'rules') set.setRules({ priceChangePercent: action.percent, priceFloorCents: 900, quantityCutPercent: 90 })
          else set[action.kind]()
          expect(set.summary()).toMatchObject(recount(set))
        }
      }),
      { numRuns: 500 }
    )
  })

  it('undoes, redoes and discards in parts of any size as at once: the same changes in the same order, the same counts, the same edits heard', () => {
    fc.assert(
      fc.property(fc.array(action, { maxLength: 30 }), fc.integer({ min: 1, max: 4 }), (actions, partSize) => {
        const heard: Record<'atOnce' | 'inParts', [string, number | undefined][]> = { atOnce: [], inParts: [] }
        const atOnce = createChangeSet(undefined, (key, change) => heard.atOnce.push([key, change?.after]))
        const inParts = createChangeSet(undefined, (key, change) => heard.inParts.push([key, change?.after]))
        for (const action of actions) {
          for (const set of [atOnce, inParts]) {
            if (action.kind === 'stage') set.stage(action.proposed)
            else if (action.kind === 'restore') set.restore(action.proposed)
            else if (action.kind === 'take') set.take([action.key])
            else if (action.kind === 'rules') set.setRules({ priceChangePercent: action.percent, priceFloorCents: 900, quantityCutPercent: 90 })
            else if (set === atOnce) set[action.kind]()
            else {
              const work = set.inParts(action.kind)
              while (work.next(partSize));
            }
          }
          expect(inParts.all()).toEqual(atOnce.all())
          expect(inParts.summary()).toEqual(atOnce.summary())
          expect(heard.inParts).toEqual(heard.atOnce)
        }
      }),
      { numRuns: 300 }
    )
  })
})
