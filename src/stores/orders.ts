/**
 * The seller's orders as the Orders view shows them: one page, with the search, sort and date range
 * the seller chose. Dates are instants (ISO with `Z`); the main side turns them into the API's form.
 */
import { defineStore } from 'pinia'
import { ref } from 'vue'
import { call } from '../bridge/sellerDesk'
import { usePagedList } from './pagedList'

export const useOrdersStore = defineStore('orders', () => {
  /** Orders on or after this instant. */
  const fromDate = ref<string | null>(null)
  /** Orders on or before this instant. */
  const toDate = ref<string | null>(null)

  const list = usePagedList((query) =>
    call('orders.list', {
      ...query,
      ...(fromDate.value ? { fromDate: fromDate.value } : {}),
      ...(toDate.value ? { toDate: toDate.value } : {})
    })
  )

  function setDateRange(from: string | null, to: string | null) {
    fromDate.value = from
    toDate.value = to
    list.page.value = 1
    return list.load()
  }

  /** Drops the search and the date range; keeps the sort and page size. */
  function clearFilters() {
    fromDate.value = null
    toDate.value = null
    list.searchTerm.value = ''
    list.page.value = 1
    return list.load()
  }

  function reset() {
    fromDate.value = null
    toDate.value = null
    list.reset()
  }

  return { ...list, fromDate, toDate, setDateRange, clearFilters, reset }
})
