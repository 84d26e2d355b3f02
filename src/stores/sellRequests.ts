/**
 * The seller's sell requests (listings) as the Sell requests view shows them: one page with the
 * seller's search and sort, and the two changes the marketplace allows: edit price / quantity, delete.
 */
import type { SellRequest } from '@core/domain'
import { defineStore } from 'pinia'
import { call } from '../bridge/sellerDesk'
import { usePagedList } from './pagedList'

export interface SellRequestChanges {
  priceCents?: number
  quantity?: number
}

export const useSellRequestsStore = defineStore('sellRequests', () => {
  const list = usePagedList((query) => call('sellRequests.list', query))

  /** Sends only the given changes; the row is replaced with what the marketplace returns. Throws ContractError. */
  async function edit(id: string, changes: SellRequestChanges): Promise<SellRequest> {
    const updated = await call('sellRequests.edit', { id, ...changes })
    list.replaceRows((rows) => rows.map((row) => (row.id === updated.id ? updated : row)))
    // A page requested before the edit would answer with the old values: ask again.
    if (list.loading.value) void list.load()
    return updated
  }

  /** Deletes on the marketplace, then reloads the page so it fills up again. Throws ContractError. */
  async function remove(id: string): Promise<void> {
    await call('sellRequests.delete', { id })
    list.replaceRows((rows) => rows.filter((row) => row.id !== id))
    list.total.value = Math.max(0, list.total.value - 1)
    await list.load()
  }

  /** Drops the search; keeps the sort and page size. */
  function clearFilters() {
    list.searchTerm.value = ''
    list.page.value = 1
    return list.load()
  }

  return { ...list, edit, remove, clearFilters }
})
