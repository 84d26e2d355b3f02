/**
 * Rows the marketplace sends in a form Seller Desk cannot read (a price of "abc", an order with no id),
 * in words: "2 sell requests could not be read". The sync that met them did its work and is no failed
 * sync; still, those rows are not in the app (or show as they were when last read), so the header and
 * Settings say so beside when it synced, never a plain "Synced" alone over rows that are missing.
 */
import type { SyncUnreadable } from '@shared/contract'

const RESOURCE = {
  orders: { one: 'order', many: 'orders' },
  sellRequests: { one: 'sell request', many: 'sell requests' }
} as const
const number = new Intl.NumberFormat('en-US')

const rowsOf = ({ resource, count }: Pick<SyncUnreadable, 'resource' | 'count'>) =>
  `${number.format(count)} ${count === 1 ? RESOURCE[resource].one : RESOURCE[resource].many}`

/** One list's rows in a few words: "2 sell requests could not be read". */
export const unreadableHeadline = (list: Pick<SyncUnreadable, 'resource' | 'count'>): string => `${rowsOf(list)} could not be read`

/** A row by what a seller knows it by, else its id, else where the list holds it. */
const rowName = ({ id, label, position }: SyncUnreadable['first'][number]) => label ?? id ?? `a row with no id (row ${number.format(position + 1)} of the list)`

/**
 * One list's rows in full: how many, which (the first few) and why, and how many of them show as last
 * read: "2 sell requests could not be read: SR-1 (price: expected an amount in dollars), and 1 more;
 * 1 of them shows as last read, the other is not in Seller Desk".
 */
export function describeUnreadableList(list: SyncUnreadable): string {
  const named = list.first.map((row) => `${rowName(row)} (${row.problem})`)
  const more = list.count - list.first.length
  const which = more > 0 ? `${named.join(', ')}, and ${number.format(more)} more` : named.join(', ')
  const shown = list.count - list.missing
  const held =
    shown === 0
      ? list.count === 1
        ? 'it is not in Seller Desk'
        : 'none of them is in Seller Desk'
      : list.missing === 0
        ? list.count === 1
          ? 'it shows as it was when last read'
          : 'they show as they were when last read'
        : `${number.format(shown)} of them ${shown === 1 ? 'shows' : 'show'} as last read, ${number.format(list.missing)} ${list.missing === 1 ? 'is' : 'are'} not in Seller Desk`
  return `${unreadableHeadline(list)}: ${which}; ${held}`
}

/** Every list's unreadable rows in the header's few words, short enough never to be cut ("2 rows unreadable"); null when the last sync read every row. */
export function unreadableLabel(lists: readonly SyncUnreadable[]): string | null {
  const count = lists.reduce((sum, list) => sum + list.count, 0)
  return count === 0 ? null : `${number.format(count)} ${count === 1 ? 'row' : 'rows'} unreadable`
}

/** Every list's unreadable rows in a few words; null when the last sync read every row. */
export function describeUnreadable(lists: readonly SyncUnreadable[]): string | null {
  return lists.length ? lists.map(unreadableHeadline).join('; ') : null
}

/** Every list's unreadable rows in full; null when the last sync read every row. */
export function describeUnreadableDetail(lists: readonly SyncUnreadable[]): string | null {
  return lists.length ? lists.map(describeUnreadableList).join('. ') : null
}

/** Why, and what the seller can do about it. */
export const UNREADABLE_HINT =
  'The marketplace sends these rows with values Seller Desk cannot read, so it skipped them and synced the rest. Correct them on the marketplace (or ask its support); the next sync reads them. Bulk changes to a listing it cannot read are not sent.'
