/**
 * The change set: the seller's pending changes to listing fields (prices, quantities), before they are
 * applied. Each change is checked by its field's descriptor (listingFields.ts), with the same rules as a
 * single edit: an invalid one is kept, marked with the reason, and never applied; what the descriptor
 * warns about (a large price move, a price under the floor, a large quantity cut) does not block. Staging is done in steps that can be undone and redone.
 */
import { DEFAULT_WARNING_RULES, type BulkField, type ChangeSetSummary, type StagedChange, type WarningRules } from '../../shared/contract'
import { LISTING_FIELD_SET, listingValue, type FieldSet } from '../../shared/listingFields'
import { problemMessageOrNull } from '../../shared/valueProblem'
import type { ListingBase } from './currentListings'

/** A change as proposed (by an operation, a paste or an import), before it is checked. */
export interface ProposedChange {
  sellRequestId: string
  field: BulkField
  before: number
  after: number
  baseUpdatedAt: string
}

export const changeKey = (sellRequestId: string, field: BulkField) => `${sellRequestId}:${field}`

/**
 * A change of one field of a listing as the snapshot holds it now. Objects here are written out field by
 * field, not spread from another (`{ ...base, field }`): an import makes one per change, and a spread
 * walks every property of its source each time (bench/bulkApply.bench.ts times a 50,000-row import).
 */
export function proposedChange(listing: ListingBase, field: BulkField, after: number): ProposedChange {
  return { sellRequestId: listing.id, field, before: fieldValue(listing, field), after, baseUpdatedAt: listing.updatedAt }
}

/** A listing's value of a bulk-edit field. */
export const fieldValue = (listing: ListingBase, field: BulkField): number => listingValue(listing, field)

/** changeKey's parts (the field never holds a colon; an id may). */
export function changeKeyParts(key: string): { sellRequestId: string; field: BulkField } {
  const at = key.lastIndexOf(':')
  return { sellRequestId: key.slice(0, at), field: key.slice(at + 1) as BulkField }
}

/**
 * A pending change as the change set holds it: checked, with the reason it cannot be applied and whether
 * it deserves a second look. The warning's words are made where a change is read (wordedChange), not as
 * it is staged: a paste stages 10,000 changes, and only those a page shows are read.
 */
export interface PendingChange extends ProposedChange {
  /** Why this change cannot be applied, or null. */
  invalid: string | null
  /** Whether the field's warning rule (a large price move, below the floor…) concerns it; never with `invalid`. */
  warns: boolean
}

/** Checks a proposed change by its field's descriptor: the reason it cannot be applied, and whether it deserves a second look. */
export function checkChange(change: ProposedChange, rules: WarningRules, fields: FieldSet = LISTING_FIELD_SET): PendingChange {
  const descriptor = fields.get(change.field)
  const invalid = problemMessageOrNull(descriptor.check(change.after))
  const warns = invalid === null && descriptor.warns(change.before, change.after, rules)
  const { sellRequestId, field, before, after, baseUpdatedAt } = change
  return { sellRequestId, field, before, after, baseUpdatedAt, invalid, warns }
}

/** A pending change as the seller reads it: its warning in words (the field's, under `rules`), or null. */
export function wordedChange(change: PendingChange, rules: WarningRules, fields: FieldSet = LISTING_FIELD_SET): StagedChange {
  const { sellRequestId, field, before, after, baseUpdatedAt, invalid, warns } = change
  const warning = warns ? fields.get(field).warning(before, after, rules) : null
  return { sellRequestId, field, before, after, baseUpdatedAt, invalid, warning }
}

/** One staging step: for each key it touched, the change before and after the step (undefined: none). */
type Step = { key: string; was: PendingChange | undefined; now: PendingChange | undefined }[]

export interface ChangeSet {
  /** Puts back a saved change set (checked again; not an undoable step; changes to fields not in the set are left out). */
  restore(saved: Iterable<ProposedChange>): ChangeSetSummary
  /**
   * Stages proposed changes as one step. A change back to the listing's current value removes the pending
   * one. `outcomes`, when given, gets each proposal's change as that proposal left it (undefined: none),
   * in order.
   */
  stage(proposed: Iterable<ProposedChange>, outcomes?: (PendingChange | undefined)[]): ChangeSetSummary
  /**
   * A step staged in parts (an import read a turn at a time): each `add` stages like `stage`, and
   * `close` records them as one step. Nothing else may change the change set while it is open.
   */
  openStep(): { add(proposed: Iterable<ProposedChange>, outcomes?: (PendingChange | undefined)[]): void; close(): ChangeSetSummary }
  /** Removes the given changes (e.g. once they are in an apply batch): not a step, and it clears undo/redo. */
  take(keys: Iterable<string>): void
  undo(): ChangeSetSummary
  redo(): ChangeSetSummary
  /** Removes every pending change, as one step (undoable). */
  discard(): ChangeSetSummary
  /**
   * An undo, a redo or a discard done a part at a time (a step may hold an import's tens of thousands of
   * changes): each `next(count)` makes up to `count` more of its changes and answers whether any are
   * left. Nothing else may change the change set until none are. `undo`, `redo` and `discard` do it at once.
   */
  inParts(kind: StepKind): { next(count: number): boolean }
  /** Changes the warning rules and checks every pending change again. */
  setRules(rules: WarningRules): ChangeSetSummary
  rules(): WarningRules
  get(sellRequestId: string, field: BulkField): PendingChange | undefined
  /** Every pending change, in staging order. */
  all(): PendingChange[]
  summary(): ChangeSetSummary
  /** How many changes are pending. */
  size(): number
}

/** What `ChangeSet.inParts` does: the undo, the redo or the discard. */
export type StepKind = 'undo' | 'redo' | 'discard'

/** Undo reaches back this many staging steps; each keeps a copy of what it replaced, so memory stays bounded. */
export const MAX_UNDO_STEPS = 50

/**
 * `onEdit` hears every change to what is staged (the key, and the change now there or undefined), for
 * keeping a saved copy; a new verdict under new rules is not an edit.
 */
export function createChangeSet(
  initialRules: WarningRules = DEFAULT_WARNING_RULES,
  onEdit: (key: string, change: PendingChange | undefined) => void = () => {},
  fields: FieldSet = LISTING_FIELD_SET
): ChangeSet {
  let rules = { ...initialRules }
  const check = (change: ProposedChange) => checkChange(change, rules, fields)
  const changes = new Map<string, PendingChange>()
  const done: Step[] = []
  const undone: Step[] = []
  // What the summary counts, kept as changes come and go: a summary never goes over every change (an
  // import's last turn answers with one, after staging 50,000).
  const perListing = new Map<string, number>()
  let invalid = 0
  let warnings = 0

  function counted(change: PendingChange, by: 1 | -1) {
    const left = (perListing.get(change.sellRequestId) ?? 0) + by
    if (left === 0) perListing.delete(change.sellRequestId)
    else perListing.set(change.sellRequestId, left)
    if (change.invalid) invalid += by
    else if (change.warns) warnings += by
  }

  /** Sets or removes the change at `key`, keeping the counts. */
  function set(key: string, change: PendingChange | undefined) {
    const was = changes.get(key)
    if (was) counted(was, -1)
    if (change) {
      changes.set(key, change)
      counted(change, 1)
    } else changes.delete(key)
  }

  function put(key: string, change: PendingChange | undefined) {
    set(key, change)
    onEdit(key, change)
  }

  function record(step: Step) {
    if (step.length === 0) return
    done.push(step)
    if (done.length > MAX_UNDO_STEPS) done.shift() // the oldest step can no longer be undone
    undone.length = 0
  }

  /** See ChangeSet.openStep. */
  function openStep(): ReturnType<ChangeSet['openStep']> {
    const step: Step = []
    const seen = new Map<string, number>()
    return {
      add(proposed, outcomes) {
        for (const change of proposed) {
          const key = changeKey(change.sellRequestId, change.field)
          const was = changes.get(key)
          const now = change.after === change.before ? undefined : check(change)
          outcomes?.push(now)
          if (was === now) continue
          // The same key twice in one step: the later proposal wins, the step keeps the first `was`.
          const at = seen.get(key)
          if (at !== undefined) step[at]!.now = now
          else {
            seen.set(key, step.length)
            step.push({ key, was, now })
          }
          put(key, now)
        }
      },
      close() {
        record(step)
        return summary()
      }
    }
  }

  /** See ChangeSet.inParts. */
  function inParts(kind: StepKind): { next(count: number): boolean } {
    if (kind === 'discard') {
      // Every change goes, in staging order; the step is recorded once all have.
      const keys = [...changes.keys()]
      const step: Step = []
      let at = 0
      return {
        next(count) {
          for (const end = Math.min(keys.length, at + count); at < end; at++) {
            const key = keys[at]!
            step.push({ key, was: changes.get(key), now: undefined })
            put(key, undefined)
          }
          if (at < keys.length) return true
          record(step)
          return false
        }
      }
    }
    const undo = kind === 'undo'
    const step = (undo ? done : undone).pop()
    if (!step) return { next: () => false }
    // An undo puts back what each change replaced, the step's last change first; a redo makes them again in order.
    let at = undo ? step.length - 1 : 0
    return {
      next(count) {
        for (let made = 0; made < count && at >= 0 && at < step.length; made++) {
          const { key, was, now } = step[at]!
          put(key, undo ? was : now)
          at += undo ? -1 : 1
        }
        if (at >= 0 && at < step.length) return true
        ;(undo ? undone : done).push(step)
        return false
      }
    }
  }

  /** Does all of an undo, a redo or a discard at once. */
  function atOnce(kind: StepKind): ChangeSetSummary {
    const work = inParts(kind)
    while (work.next(Infinity));
    return summary()
  }

  function summary(): ChangeSetSummary {
    return { changes: changes.size, listings: perListing.size, invalid, warnings, canUndo: done.length > 0, canRedo: undone.length > 0 }
  }

  return {
    size: () => changes.size,
    restore(saved) {
      // A saved change to a field this version does not edit has nothing to apply it: it is left out.
      for (const change of saved) if (fields.has(change.field)) set(changeKey(change.sellRequestId, change.field), check(change))
      return summary()
    },
    stage(proposed, outcomes) {
      const step = openStep()
      step.add(proposed, outcomes)
      return step.close()
    },
    openStep,
    take(keys) {
      for (const key of keys) put(key, undefined)
      done.length = 0
      undone.length = 0
    },
    undo: () => atOnce('undo'),
    redo: () => atOnce('redo'),
    discard: () => atOnce('discard'),
    inParts,
    setRules(next) {
      rules = { ...next }
      const recheck = (change: PendingChange | undefined) => (change ? check(change) : undefined)
      for (const [key, change] of changes) set(key, check(change))
      // Steps keep their changes checked under the rules in force, so an undo restores a current verdict.
      for (const step of [...done, ...undone]) {
        for (const entry of step) {
          entry.was = recheck(entry.was)
          entry.now = recheck(entry.now)
        }
      }
      return summary()
    },
    rules: () => ({ ...rules }),
    get: (sellRequestId, field) => changes.get(changeKey(sellRequestId, field)),
    all: () => [...changes.values()],
    summary
  }
}
