/**
 * The one place where a code the marketplace (or Seller Desk itself) sends becomes words a seller
 * reads: order, item and listing statuses, shipping methods, bulk-apply results. Lists, the grid, the
 * drawer, the filters and every export call these, so a status is called the same everywhere.
 *
 * The spec names some values and says the full sets are not known, so any other value still shows, as
 * words made from it ("partially-shipped" → "Partially shipped"). Callers keep the code itself at hand
 * (a tooltip) for support. Part of the shared core: no Node, no DOM.
 */
import { formatNumber } from './formatCount'

/**
 * A code as words: separators become spaces and the first letter is a capital ("on-hold-by-buyer" →
 * "On hold by buyer", "PLATFORM_SHIPPING" → "Platform shipping"). Text that already reads as words (has
 * a space, or mixed case) is left as sent, and short all-capital words stay acronyms ("UPS_GROUND" →
 * "UPS ground").
 */
export function readableCode(code: string): string {
  const text = code.trim()
  if (text === '' || /\s/.test(text) || (/[a-z]/.test(text) && /[A-Z]/.test(text))) return text
  // Short all-capital words are acronyms (UPS, DHL, USPS): kept as they are.
  const words = text
    .split(/[-_.]+/)
    .filter(Boolean)
    .map((word) => (/^[A-Z]{2,4}$/.test(word) ? word : word.toLowerCase()))
    .join(' ')
  return words ? words[0]!.toUpperCase() + words.slice(1) : text
}

/** Words that start a sentence, for use inside one ("Awaiting shipment" → "awaiting shipment"); acronyms stay. */
export function inSentence(words: string): string {
  return /^[A-Z][a-z]/.test(words) ? words[0]!.toLowerCase() + words.slice(1) : words
}

export type StatusTone = 'default' | 'success' | 'info' | 'warning' | 'error'

/** In lifecycle order: the order filters list them in. */
const KNOWN_STATUSES: Record<string, { label: string; tone: StatusTone; help?: string }> = {
  open: { label: 'Open', tone: 'success' },
  'payment-confirmed': { label: 'Payment confirmed', tone: 'success' },
  'awaiting-shipment': {
    label: 'Awaiting shipment',
    tone: 'warning',
    help: 'Paid by the buyer; you still have to prepare (pack and label) these units.'
  },
  'ready-to-ship': {
    label: 'Ready to ship',
    tone: 'info',
    help: 'Prepared and waiting for the carrier; mark them shipped on the marketplace once they leave.'
  },
  'seller-shipped': { label: 'Shipped', tone: 'success' },
  canceled: { label: 'Canceled', tone: 'error' }
}

const STATUS_ORDER = Object.keys(KNOWN_STATUSES)

const own = (table: object, key: string) => Object.prototype.hasOwnProperty.call(table, key)

/** An order, item or listing status as words ("seller-shipped" → "Shipped"; "" → "—"). */
export function statusLabel(status: string): string {
  return own(KNOWN_STATUSES, status) ? KNOWN_STATUSES[status]!.label : readableCode(status) || '—'
}

export function statusTone(status: string): StatusTone {
  return own(KNOWN_STATUSES, status) ? KNOWN_STATUSES[status]!.tone : 'default'
}

/** What a status means for the seller, where Seller Desk knows it; null otherwise. */
export function statusHelp(status: string): string | null {
  return own(KNOWN_STATUSES, status) ? (KNOWN_STATUSES[status]!.help ?? null) : null
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
  const rank = (value: string) => (own(KNOWN_STATUSES, value) ? STATUS_ORDER.indexOf(value) : STATUS_ORDER.length)
  return values.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b)).map((value) => ({ value, label: statusLabel(value) }))
}

/** Units of an order's items per item status, in lifecycle order (as the filters list them). */
export function unitsByStatus(items: readonly { status: string; quantity: number }[]): { status: string; units: number }[] {
  const units = new Map<string, number>()
  for (const item of items) units.set(item.status, (units.get(item.status) ?? 0) + item.quantity)
  return statusOptions([...units.keys()]).map(({ value }) => ({ status: value, units: units.get(value)! }))
}

/** An order's items by status, in units: "2 awaiting shipment · 1 ready to ship". */
export function itemStatusSummary(items: readonly { status: string; quantity: number }[]): string {
  return unitsByStatus(items)
    .map(({ status, units }) => `${formatNumber(units)} ${inSentence(statusLabel(status))}`)
    .join(' · ')
}

/** The statuses an item may move to, as a list ("Shipped, Canceled"). */
export function statusList(statuses: readonly string[]): string {
  return statuses.map(statusLabel).join(', ')
}

/** How an item is shipped ("PLATFORM_SHIPPING" → "Platform shipping"); "" for none. */
export function shippingMethodLabel(method: string | null): string {
  return method ? readableCode(method) : ''
}

/** Seller Desk's own results of applying one change; US spelling, as the marketplace's "Canceled". */
const BATCH_RESULTS = {
  applied: 'Applied',
  failed: 'Failed',
  conflict: 'Conflict',
  cancelled: 'Canceled',
  pending: 'Pending'
} as const

export function batchResultLabel(result: keyof typeof BATCH_RESULTS): string {
  return BATCH_RESULTS[result]
}
