/**
 * What a batch offers to send again, in words: its failed changes and those canceled before they were
 * sent (conflicts are not: they need staging anew). The button names what it sends, so "Retry failed"
 * shows only when a change failed; a batch with neither offers no button. Pure: no bridge, no store.
 */
import type { BatchStatus } from '@shared/contract'
import { formatCount } from '@shared/formatCount'

export interface RetryButton {
  label: string
  title: string
}

export function retryButton(batch: Pick<BatchStatus, 'failed' | 'cancelled'>): RetryButton | null {
  const { failed, cancelled } = batch
  if (failed > 0 && cancelled > 0)
    return {
      label: 'Retry failed and canceled',
      title: `Send the ${formatCount(failed, 'failed change', 'failed changes')} again, and the ${formatCount(cancelled, 'canceled one', 'canceled ones')}`
    }
  if (failed > 0) return { label: 'Retry failed', title: `Send the ${formatCount(failed, 'failed change', 'failed changes')} again` }
  if (cancelled > 0) return { label: 'Send canceled', title: `Send the ${formatCount(cancelled, 'change', 'changes')} canceled before sending` }
  return null
}
