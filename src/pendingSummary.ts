/**
 * Bulk edit's count of what is still to be sent, as its toolbar says it. Applying takes the changes out
 * of the pending ones at once, while they are sent over minutes: what the running batch has not sent
 * yet is said first, so a seller never reads "No pending changes" while changes are still on their way.
 */
import type { BatchStatus, ChangeSetSummary } from '@shared/contract'
import { formatCount } from '@shared/formatCount'

export function pendingSummary(summary: Pick<ChangeSetSummary, 'changes' | 'listings'>, running: Pick<BatchStatus, 'pending'> | null): string {
  const sending = running && running.pending > 0 ? `${formatCount(running.pending, 'change', 'changes')} still being sent` : null
  const staged =
    summary.changes > 0
      ? `${formatCount(summary.changes, 'pending change', 'pending changes')} on ${formatCount(summary.listings, 'listing', 'listings')}`
      : null
  if (sending && staged) return `${sending} · ${staged}`
  return sending ?? staged ?? 'No pending changes'
}
