/**
 * The seller's sell requests (listings) as the Sell requests view shows them: one page read from the
 * snapshot with the seller's search, statuses and sort, and the two changes the marketplace allows:
 * edit price / quantity, delete. Changes go to the marketplace; the main side updates the snapshot when
 * they succeed, and the page is read from it again.
 */
import type { CallInput } from '@core/contract'
import type { SellRequest } from '@core/domain'
import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import { call } from '../bridge/sellerDesk'
import { usePagedList } from './pagedList'

export type SellRequestSortBy = NonNullable<CallInput<'sellRequests.list'>['sortBy']>

export interface SellRequestChanges {
  priceCents?: number
  quantity?: number
}

export const useSellRequestsStore = defineStore('sellRequests', () => {
  /** Sell requests in any of these statuses (none: all). */
  const statuses = ref<string[]>([])

  const list = usePagedList<SellRequest, SellRequestSortBy>(
    (query) => call('sellRequests.list', { ...query, ...(statuses.value.length ? { statuses: statuses.value } : {}) }),
    { by: 'updated', dir: 'DESC' }
  )

  /** A filter other than the search is set. */
  const narrowed = computed(() => statuses.value.length > 0)

  function setStatuses(next: string[]) {
    statuses.value = next
    return list.refilter()
  }

  /** Sends only the given changes; the row shows what the marketplace returned, then the page is read again. Throws ContractError. */
  async function edit(id: string, changes: SellRequestChanges): Promise<SellRequest> {
    const updated = await call('sellRequests.edit', { id, ...changes })
    list.replaceRows((rows) => rows.map((row) => (row.id === updated.id ? updated : row)))
    // The new values may move the row (sorted by update, price, quantity): read the page again.
    void list.load({ quiet: true })
    return updated
  }

  /** Deletes on the marketplace, then reads the page again so it fills up. Throws ContractError. */
  async function remove(id: string): Promise<void> {
    try {
      await call('sellRequests.delete', { id })
    } catch (e) {
      // Perhaps already gone on the marketplace (the snapshot then dropped it too): show the page as it is now.
      void list.load({ quiet: true })
      throw e
    }
    list.replaceRows((rows) => rows.filter((row) => row.id !== id))
    list.total.value = Math.max(0, list.total.value - 1)
    await list.load({ quiet: true })
  }

  /** Drops the search and the statuses; keeps the sort and page size. */
  function clearFilters() {
    statuses.value = []
    list.searchTerm.value = ''
    return list.refilter()
  }

  function reset() {
    statuses.value = []
    list.reset()
  }

  return { ...list, statuses, narrowed, setStatuses, edit, remove, clearFilters, reset }
})
