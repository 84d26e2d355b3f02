/**
 * The seller's orders as the Orders view shows them: one page, read from the snapshot, with the search,
 * date range (a named preset or custom days), order and item statuses, and sort the seller chose. Dates
 * are instants (ISO with `Z`); the main side turns them into the API's form.
 */
import type { CallInput, OrderItemUnits, WorkspacePreferences } from '@shared/contract'
import type { Order } from '@shared/domain'
import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import { call } from '../bridge/sellerDesk'
import { presetRange, type DatePreset } from '../datePresets'
import { formatTime } from '../formatTime'
import { usePagedList } from './pagedList'

export type OrderSortBy = NonNullable<CallInput<'orders.list'>['sortBy']>
export type OrderPreferences = NonNullable<WorkspacePreferences['orders']>

/** What narrows the list besides paging: every filter at once (the dashboard's links set exactly these). */
export interface OrderFilters {
  searchTerm?: string
  datePreset?: DatePreset | null
  fromDate?: string | null
  toDate?: string | null
  statuses?: string[]
  itemStatuses?: string[]
}

const SORTS: readonly OrderSortBy[] = ['date', 'total']

export const useOrdersStore = defineStore('orders', () => {
  /** The named range the dates come from, or null for custom days (or none). */
  const datePreset = ref<DatePreset | null>(null)
  /** Orders on or after this instant. */
  const fromDate = ref<string | null>(null)
  /** Orders on or before this instant. */
  const toDate = ref<string | null>(null)
  /** Orders in any of these statuses (none: all). */
  const statuses = ref<string[]>([])
  /** Orders with at least one item in any of these statuses (none: all). */
  const itemStatuses = ref<string[]>([])

  /** The filters besides the search, as the main side takes them. */
  function filterInput(): Pick<CallInput<'orders.list'>, 'fromDate' | 'toDate' | 'statuses' | 'itemStatuses'> {
    return {
      ...(fromDate.value ? { fromDate: fromDate.value } : {}),
      ...(toDate.value ? { toDate: toDate.value } : {}),
      ...(statuses.value.length ? { statuses: statuses.value } : {}),
      ...(itemStatuses.value.length ? { itemStatuses: itemStatuses.value } : {})
    }
  }

  /** Units per chosen item status over every order the list matches (null when no item status is chosen). */
  const itemUnits = ref<OrderItemUnits | null>(null)
  let asked = 0

  const list = usePagedList<Order, OrderSortBy>(
    async (query) => {
      const ticket = ++asked
      const answer = await call('orders.list', { ...query, ...filterInput() })
      // Only the latest request's answer is shown, as for the rows.
      if (ticket === asked) itemUnits.value = answer.itemUnits ?? null
      // The note names where the kept orders start by the instant itself: said here as the list says its times.
      const { note, windowFrom } = answer
      return { ...answer, note: note && windowFrom ? note.replaceAll(windowFrom, formatTime(windowFrom)) : note }
    },
    { by: 'date', dir: 'DESC' }
  )

  /** What an export asks for: every order the list matches (all pages), in its order. */
  function exportInput(timeZone: string): CallInput<'orders.exportCsv'> {
    const term = list.searchTerm.value.trim()
    return { ...filterInput(), ...(term ? { searchTerm: term } : {}), sortBy: list.sortBy.value, sortDir: list.sortDir.value, timeZone }
  }

  /** Every order the list matches as CSV (one row per item), built by the core from the snapshot. */
  function exportCsv(timeZone: string) {
    return call('orders.exportCsv', exportInput(timeZone))
  }

  /** The same orders, rows and columns as an Excel workbook (.xlsx), with typed cells. */
  function exportXlsx(timeZone: string) {
    return call('orders.exportXlsx', exportInput(timeZone))
  }

  /** A filter other than the search is set. */
  const narrowed = computed(() => fromDate.value !== null || toDate.value !== null || statuses.value.length > 0 || itemStatuses.value.length > 0)

  function setDateRange(from: string | null, to: string | null) {
    datePreset.value = null
    fromDate.value = from
    toDate.value = to
    return list.refilter()
  }

  function applyPreset(preset: DatePreset | null) {
    datePreset.value = preset
    if (!preset) return
    const range = presetRange(preset)
    fromDate.value = range.fromDate
    toDate.value = range.toDate
  }

  /** One click: today, the last 7 or 30 days, this month. */
  function setDatePreset(preset: DatePreset) {
    applyPreset(preset)
    return list.refilter()
  }

  const setStatuses = (next: string[]) => list.setFilter(statuses, next)
  const setItemStatuses = (next: string[]) => list.setFilter(itemStatuses, next)

  function setOwnFilters(filters: OrderFilters) {
    datePreset.value = null
    fromDate.value = filters.fromDate ?? null
    toDate.value = filters.toDate ?? null
    if (filters.datePreset) applyPreset(filters.datePreset)
    statuses.value = filters.statuses ?? []
    itemStatuses.value = filters.itemStatuses ?? []
    list.searchTerm.value = filters.searchTerm ?? ''
  }

  /** Shows exactly the orders these filters match (everything else cleared), sorted as given, from page 1. */
  function showOnly(filters: OrderFilters, sort?: { by: OrderSortBy; dir: 'ASC' | 'DESC' }) {
    setOwnFilters(filters)
    return list.relistLinked(sort)
  }

  /**
   * Drops the search, the date range and the statuses, and the sort a dashboard link set with them
   * (back to the seller's own sort from before); keeps a sort the seller chose and the page size.
   */
  function clearFilters() {
    setOwnFilters({})
    return list.relistCleared()
  }

  function reset() {
    setOwnFilters({})
    itemUnits.value = null
    list.reset()
  }

  /** What is remembered across restarts (a preset by name, custom dates as instants). */
  function preferences(): OrderPreferences {
    return {
      ...list.viewPreferences(),
      ...(datePreset.value ? { datePreset: datePreset.value } : {}),
      ...(!datePreset.value && fromDate.value ? { fromDate: fromDate.value } : {}),
      ...(!datePreset.value && toDate.value ? { toDate: toDate.value } : {}),
      statuses: statuses.value,
      itemStatuses: itemStatuses.value
    }
  }

  /** Puts remembered choices back (before the list is first read). */
  function restore(saved: OrderPreferences) {
    setOwnFilters(saved)
    list.restoreView(saved, SORTS)
  }

  return {
    ...list,
    datePreset,
    fromDate,
    toDate,
    statuses,
    itemStatuses,
    narrowed,
    itemUnits,
    exportCsv,
    exportXlsx,
    setDateRange,
    setDatePreset,
    setStatuses,
    setItemStatuses,
    showOnly,
    clearFilters,
    reset,
    preferences,
    restore
  }
})
