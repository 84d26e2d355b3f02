/**
 * The words of the note of the last batch's changes that did not apply: the toolbar's line, and each
 * listing's reason in the grid while it shows only those listings. Pure: no bridge, no store.
 */
import type { BatchStatus, UnappliedChange } from '@shared/contract'
import { formatCount, formatNumber } from '@shared/formatCount'
import type { FieldSet } from '@shared/listingFields'
import { batchResultLabel } from '@shared/plainWords'

/** The grid's column of each listing's reason (no row holds it: the grid is given the reasons). */
export const UNAPPLIED_REASON = 'unappliedReason'

/** How many of a batch's changes did not apply: failed, conflicts and cancelled. */
export const unappliedCount = (batch: Pick<BatchStatus, 'failed' | 'conflict' | 'cancelled'>): number => batch.failed + batch.conflict + batch.cancelled

/** "12 changes did not apply (9 failed, 3 changed elsewhere)": the kinds named only when there is more than one. */
export function unappliedLine(batch: Pick<BatchStatus, 'failed' | 'conflict' | 'cancelled'>): string {
  const head = `${formatCount(unappliedCount(batch), 'change', 'changes')} did not apply`
  const kinds = [
    ...(batch.failed ? [`${formatNumber(batch.failed)} failed`] : []),
    ...(batch.conflict ? [`${formatNumber(batch.conflict)} changed elsewhere`] : []),
    ...(batch.cancelled ? [`${formatNumber(batch.cancelled)} canceled`] : [])
  ]
  if (kinds.length > 1) return `${head} (${kinds.join(', ')})`
  if (batch.conflict) return `${head}: changed elsewhere`
  if (batch.cancelled) return `${head}: canceled`
  return head
}

/**
 * Each listing's reason, by listing id: every change of it that did not apply, as the field, the value
 * it was to set and why not ("Price $101.00: The marketplace had a problem…"). A field no descriptor
 * knows is named by its key.
 */
export function unappliedReasons(changes: readonly UnappliedChange[], fields: Pick<FieldSet, 'all'>): Map<string, string> {
  const reasons = new Map<string, string>()
  for (const [id, key, status, after, message] of changes) {
    const field = fields.all.find((candidate) => candidate.key === key)
    const what = field ? `${field.label} ${field.display(after)}` : `${key} ${after}`
    const reason = `${what}: ${message ?? batchResultLabel(status)}`
    const before = reasons.get(id)
    reasons.set(id, before ? `${before} · ${reason}` : reason)
  }
  return reasons
}
