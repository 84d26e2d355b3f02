/**
 * What an empty list says: that nothing matches the seller's search or filters, that the first sync is
 * still bringing the data, that nothing could be synced yet, or (truly empty) the list's own text.
 */

export interface EmptyListSituation {
  /** Plural noun: "orders". */
  many: string
  /** The search as applied (trimmed), or ''. */
  term: string
  /** A filter other than the search is set. */
  narrowed: boolean
  /** What the list says when it is empty because there is nothing. */
  nothingText: string
  /** The snapshot has never completed a sync (null: not known yet). */
  neverSynced: boolean | null
  syncing: boolean
  online: boolean
}

export function emptyListText(s: EmptyListSituation): string {
  if (s.term && s.narrowed) return `No ${s.many} match “${s.term}” with the chosen filters.`
  if (s.term) return `No ${s.many} match “${s.term}”.`
  if (s.narrowed) return `No ${s.many} match the chosen filters.`
  if (s.neverSynced) {
    if (s.syncing) return `Getting your ${s.many} from the marketplace… They appear here as soon as the first sync is done.`
    if (!s.online) return `Nothing synced yet. Your ${s.many} appear here once Seller Desk reaches the marketplace.`
    return `Nothing synced yet. Use Sync now to get your ${s.many} from the marketplace.`
  }
  return s.nothingText
}
