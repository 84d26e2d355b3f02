/**
 * A sync that could not bring a whole list, in words: "1,204 of 1,516 orders could be synced". Shown in
 * the header and in Settings instead of "Synced just now", so a seller never takes a partial copy for
 * the whole.
 */
import type { SyncShortfall } from '@shared/contract'

const RESOURCE = { orders: 'orders', sellRequests: 'sell requests' } as const
const number = new Intl.NumberFormat('en-US')

export function describeShortfall({ resource, synced, total }: SyncShortfall): string {
  const what = RESOURCE[resource]
  if (synced < total) return `${number.format(synced)} of ${number.format(total)} ${what} could be synced`
  if (synced > total) return `${number.format(synced)} ${what} synced, but the marketplace counts ${number.format(total)}`
  return `${number.format(synced)} ${what} synced while the marketplace kept changing them: some may be out of date`
}

/** All shortfalls in one sentence; null when the last sync was complete. */
export function describeIncomplete(shortfalls: readonly SyncShortfall[]): string | null {
  return shortfalls.length ? shortfalls.map(describeShortfall).join('; ') : null
}

/** What the seller can do about it (a tooltip beside the sentence). */
export const INCOMPLETE_HINT =
  'The marketplace’s count and the rows its pages returned disagreed, even after reading every page again. Seller Desk reads every page again when the count moves, every few hours, and with “Sync everything again” in Settings; if it stays incomplete, the marketplace itself may be miscounting or hiding rows.'
