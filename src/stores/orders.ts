/**
 * The seller's orders as the Orders view shows them: one page, read from the snapshot, with the search,
 * date range, order and item statuses, and sort the seller chose. Dates are instants (ISO with `Z`);
 * the main side turns them into the API's form.
 */
import type { CallInput } from '@core/contract'
import type { Order } from '@core/domain'
import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import { call } from '../bridge/sellerDesk'
import { usePagedList } from './pagedList'

export type OrderSortBy = NonNullable<CallInput<'orders.list'>['sortBy']>

export const useOrdersStore = defineStore('orders', () => {
  /** Orders on or after this instant. */
  const fromDate = ref<string | null>(null)
  /** Orders on or before this instant. */
  const toDate = ref<string | null>(null)
  /** Orders in any of these statuses (none: all). */
  const statuses = ref<string[]>([])
  /** Orders with at least one item in any of these statuses (none: all). */
  const itemStatuses = ref<string[]>([])

  const list = usePagedList<Order, OrderSortBy>(
    (query) =>
      call('orders.list', {
        ...query,
        ...(fromDate.value ? { fromDate: fromDate.value } : {}),
        ...(toDate.value ? { toDate: toDate.value } : {}),
        ...(statuses.value.length ? { statuses: statuses.value } : {}),
        ...(itemStatuses.value.length ? { itemStatuses: itemStatuses.value } : {})
      }),
    { by: 'date', dir: 'DESC' }
  )

  /** A filter other than the search is set. */
  const narrowed = computed(() => fromDate.value !== null || toDate.value !== null || statuses.value.length > 0 || itemStatuses.value.length > 0)

  function setDateRange(from: string | null, to: string | null) {
    fromDate.value = from
    toDate.value = to
    return list.refilter()
  }

  function setStatuses(next: string[]) {
    statuses.value = next
    return list.refilter()
  }

  function setItemStatuses(next: string[]) {
    itemStatuses.value = next
    return list.refilter()
  }

  function clearOwnFilters() {
    fromDate.value = null
    toDate.value = null
    statuses.value = []
    itemStatuses.value = []
  }

  /** Drops the search, the date range and the statuses; keeps the sort and page size. */
  function clearFilters() {
    clearOwnFilters()
    list.searchTerm.value = ''
    return list.refilter()
  }

  function reset() {
    clearOwnFilters()
    list.reset()
  }

  return { ...list, fromDate, toDate, statuses, itemStatuses, narrowed, setDateRange, setStatuses, setItemStatuses, clearFilters, reset }
})
