/**
 * The line a seller ticks in Review before applying changes that need a second look: what they say they
 * checked, in plain words for one change or many ("this change", "these 6 changes").
 */
import { formatCount, formatNumber } from '@shared/formatCount'

export function confirmText(changes: number, listings: number, warnings: number): string {
  const to = formatCount(listings, 'listing', 'listings')
  if (changes === 1) return `I checked this change to ${to}${warnings ? ' and its warning' : ''}.`
  const including = !warnings
    ? ''
    : warnings >= changes
      ? ', all with warnings'
      : warnings === 1
        ? ', including one with a warning'
        : `, including ${formatNumber(warnings)} with warnings`
  return `I checked these ${formatNumber(changes)} changes to ${to}${including}.`
}
