/**
 * A running sync in a few words for the sync bar: "Syncing orders… 12 / 200 pages · 1,200 items", in
 * fewer for a narrow header ("Syncing orders…": its bar shows how far), and how full its progress bar
 * is (null when the end is not known yet).
 */
import type { SyncStatus } from '@shared/contract'
import { formatCount } from '@shared/formatCount'

export interface SyncProgressText {
  text: string
  /** What is synced, without the counts: the words of a narrow header. */
  short: string
  /** 0–100, or null while the number of pages is not known. */
  percentage: number | null
}

const RESOURCE = { orders: 'orders', sellRequests: 'sell requests' } as const
const number = new Intl.NumberFormat(undefined)

export function describeSyncProgress(status: SyncStatus): SyncProgressText {
  if (!status.resource) return { text: 'Syncing…', short: 'Syncing…', percentage: null }
  if (status.kind === 'olderOrders') {
    const head = 'Checking older orders…'
    if (status.pagesTotal <= 0) return { text: head, short: head, percentage: null }
    const pages = `${number.format(status.pagesDone)} / ${formatCount(status.pagesTotal, 'page', 'pages')}`
    const found = `${number.format(status.items)} to ship`
    return { text: `${head} ${pages} · ${found}`, short: head, percentage: Math.min(100, Math.round((status.pagesDone / status.pagesTotal) * 100)) }
  }
  const verb = status.kind === 'incremental' ? 'Updating' : 'Syncing'
  const head = `${verb} ${RESOURCE[status.resource]}…`
  if (status.pagesTotal <= 0) return { text: head, short: head, percentage: null }
  // Changed sell requests are found by walking pages newest first until an unchanged one: no known end.
  const openEnded = status.kind === 'incremental' && status.resource === 'sellRequests'
  const pages = openEnded
    ? formatCount(status.pagesDone, 'page', 'pages')
    : `${number.format(status.pagesDone)} / ${formatCount(status.pagesTotal, 'page', 'pages')}`
  const items = formatCount(status.items, 'item', 'items')
  const percentage = openEnded ? null : Math.min(100, Math.round((status.pagesDone / status.pagesTotal) * 100))
  return { text: `${head} ${pages} · ${items}`, short: head, percentage }
}
