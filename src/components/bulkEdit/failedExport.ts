/**
 * Whether a batch's results offer its failed changes as a file, to fix and import again: only when a
 * change failed or met a conflict (changed on the marketplace meanwhile), something the seller has to
 * look at. Changes canceled before they were sent need no fixing: the batch offers to send them as they
 * are (retryButton). Pure: no bridge, no store.
 */
import type { BatchStatus } from '@shared/contract'

export const offersFailedExport = (batch: Pick<BatchStatus, 'failed' | 'conflict'>): boolean => batch.failed + batch.conflict > 0
