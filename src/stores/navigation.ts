/**
 * Which part of the workspace the seller is looking at. A plain store for now; the seam where a
 * router (or deep links such as "open this order") would plug in later.
 */
import type { WorkspaceView } from '@shared/contract'
import { defineStore } from 'pinia'
import { ref } from 'vue'

export type Section = WorkspaceView

/**
 * Where a signed-in seller lands when no view is remembered for the account. The Dashboard is the
 * first menu item; landing on it needs the existing specs (which expect Orders after sign-in) updated.
 */
export const LANDING_SECTION: Section = 'dashboard'

export const useNavigationStore = defineStore('navigation', () => {
  const section = ref<Section>(LANDING_SECTION)

  function open(next: Section) {
    section.value = next
  }

  return { section, open }
})
