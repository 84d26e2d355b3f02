/**
 * The Orders list's one-click date ranges, in whole local days up to the end of today: kept by name in
 * the seller's preferences so "Today" is today again tomorrow.
 */
import type { WorkspacePreferences } from '@shared/contract'
import { instantsOfLocalDays, lastLocalDays, thisLocalMonth, type InstantRange } from './localDayRange'

export type DatePreset = NonNullable<NonNullable<WorkspacePreferences['orders']>['datePreset']>

export const DATE_PRESETS: { value: DatePreset; label: string }[] = [
  { value: 'today', label: 'Today' },
  { value: 'last7', label: '7 days' },
  { value: 'last30', label: '30 days' },
  { value: 'thisMonth', label: 'This month' }
]

export function presetRange(preset: DatePreset, now: Date = new Date()): InstantRange {
  const [first] = { today: lastLocalDays(1, now), last7: lastLocalDays(7, now), last30: lastLocalDays(30, now), thisMonth: thisLocalMonth(now) }[preset]
  return instantsOfLocalDays(first, now.getTime())
}
