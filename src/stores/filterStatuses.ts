/**
 * The values the seller can filter by: every distinct order, item and sell request status in the
 * snapshot (including values Seller Desk does not know, shown as sent), and the listings' brands and
 * categories. Read again after each sync.
 */
import { defineStore } from 'pinia'
import { ref } from 'vue'
import { call } from '../bridge/sellerDesk'

export const useFilterStatusesStore = defineStore('filterStatuses', () => {
  const orders = ref<string[]>([])
  const orderItems = ref<string[]>([])
  const sellRequests = ref<string[]>([])
  const brands = ref<string[]>([])
  const categories = ref<string[]>([])
  let latest = 0

  /** Failures leave the previous choices: a filter with fewer choices is no reason to interrupt the seller. */
  async function load(): Promise<void> {
    const ticket = ++latest
    try {
      const [statuses, facets] = await Promise.all([call('filters.statuses', {}), call('sellRequests.facets', {})])
      if (ticket !== latest) return
      orders.value = statuses.orders
      orderItems.value = statuses.orderItems
      sellRequests.value = statuses.sellRequests
      brands.value = facets.brands
      categories.value = facets.categories
    } catch {
      // Kept as they were.
    }
  }

  function reset() {
    latest++
    orders.value = []
    orderItems.value = []
    sellRequests.value = []
    brands.value = []
    categories.value = []
  }

  return { orders, orderItems, sellRequests, brands, categories, load, reset }
})
