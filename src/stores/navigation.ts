/**
 * Which part of the workspace the seller is looking at. A plain store for now; the seam where a
 * router (or deep links such as "open this order") would plug in later.
 */
import { defineStore } from 'pinia'
import { ref } from 'vue'

export type Section = 'orders' | 'sellRequests' | 'settings'

export const useNavigationStore = defineStore('navigation', () => {
  const section = ref<Section>('orders')

  function open(next: Section) {
    section.value = next
  }

  return { section, open }
})
