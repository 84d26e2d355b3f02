/**
 * What each order, item and listing status is called on screen. The statuses the spec names get a
 * friendly label and a tone; any other value the server sends is shown as words made from it
 * ("on-hold" → "On hold", see readableCode; the spec says the full set is not known). Used by the status tags and by the status filters, so both say the same.
 */

import { readableCode } from './readableCode'

export type StatusTone = 'default' | 'success' | 'info' | 'warning' | 'error'

/** In lifecycle order: the order the filters list them in. */
const KNOWN: Record<string, { label: string; tone: StatusTone }> = {
  open: { label: 'Open', tone: 'success' },
  'payment-confirmed': { label: 'Payment confirmed', tone: 'success' },
  'awaiting-shipment': { label: 'Awaiting shipment', tone: 'warning' },
  'ready-to-ship': { label: 'Ready to ship', tone: 'info' },
  'seller-shipped': { label: 'Shipped', tone: 'success' },
  canceled: { label: 'Canceled', tone: 'error' }
}

const KNOWN_ORDER = Object.keys(KNOWN)

const isKnown = (status: string) => Object.prototype.hasOwnProperty.call(KNOWN, status)

export function statusLabel(status: string): string {
  return isKnown(status) ? KNOWN[status]!.label : readableCode(status) || '—'
}

export function statusTone(status: string): StatusTone {
  return isKnown(status) ? KNOWN[status]!.tone : 'default'
}

/** A type, not an interface, so it fits naive-ui's option type (which is indexable). */
export type StatusOption = {
  label: string
  value: string
}

/**
 * Filter choices: the statuses the snapshot holds plus any still selected (so a choice never turns
 * into a bare value), known ones first in lifecycle order, then the others alphabetically.
 */
export function statusOptions(present: readonly string[], selected: readonly string[] = []): StatusOption[] {
  const values = [...new Set([...present, ...selected])].filter((value) => value !== '')
  const rank = (value: string) => (isKnown(value) ? KNOWN_ORDER.indexOf(value) : KNOWN_ORDER.length)
  return values
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
    .map((value) => ({ value, label: statusLabel(value) }))
}
