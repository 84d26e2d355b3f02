/**
 * Remembers how the seller left the workspace, per account: the open view, each list's filters, sort,
 * page size and column widths. Kept by the main side in the user-data folder (beside the account's
 * snapshot), so it survives restarts of the app and of the browser preview (whose page origin changes).
 * Read once when an account opens, before the lists are first read. A change of view is saved at
 * once (a reload right after it must come back there); filters and widths shortly after each change,
 * and whatever is still waiting when the page goes away.
 */
import type { WorkspacePreferences } from '@shared/contract'
import { defineStore } from 'pinia'
import { ref, watch } from 'vue'
import { call } from '../bridge/sellerDesk'
import { useNavigationStore } from './navigation'
import { useSessionStore } from './session'
import { useOrdersStore } from './orders'
import { useSellRequestsStore } from './sellRequests'

const SAVE_DELAY_MS = 400

export const usePreferencesStore = defineStore('preferences', () => {
  const orders = useOrdersStore()
  const sellRequests = useSellRequestsStore()
  const navigation = useNavigationStore()
  const session = useSessionStore()
  /** The account whose preferences are open: every read and save names it, so a save the window makes as the seller leaves it never lands in the next account. */
  let account: string | null = null
  /** Counts opens and closes: a read that comes back after another open or a close puts nothing in place. */
  let generation = 0
  /** The account's preferences have been read (or could not be: defaults then). */
  const ready = ref(false)
  let stopSaving: (() => void) | null = null
  let timer: ReturnType<typeof setTimeout> | undefined
  const saveWaiting = () => {
    if (timer !== undefined) save()
  }

  const current = (): WorkspacePreferences => ({
    view: navigation.section,
    orders: orders.preferences(),
    sellRequests: sellRequests.preferences()
  })

  function save() {
    clearTimeout(timer)
    timer = undefined
    if (account === null) return
    // Not being able to remember a filter is no reason to interrupt the seller.
    void call('preferences.set', { account, preferences: current() }).catch(() => undefined)
  }

  /** Reads the signed-in account's preferences, puts them in place, then saves every change. */
  async function open(): Promise<void> {
    close()
    const opening = session.identity
    if (opening === null) return
    account = opening
    const mine = generation
    const sectionBefore = navigation.section
    try {
      const saved = await call('preferences.get', { account: opening })
      if (generation !== mine) return
      if (saved.orders) orders.restore(saved.orders)
      if (saved.sellRequests) sellRequests.restore(saved.sellRequests)
      // A view the seller opened while the preferences were being read wins over the remembered one.
      if (saved.view && navigation.section === sectionBefore) navigation.open(saved.view)
    } catch {
      // Defaults.
    }
    if (generation !== mine) return
    ready.value = true
    const stopView = watch(() => navigation.section, save)
    const stopRest = watch(
      current,
      () => {
        clearTimeout(timer)
        timer = setTimeout(save, SAVE_DELAY_MS)
      },
      { deep: true }
    )
    window.addEventListener('pagehide', saveWaiting)
    stopSaving = () => {
      stopView()
      stopRest()
      window.removeEventListener('pagehide', saveWaiting)
    }
    // The watchers see changes from now on: a view opened before they existed is saved here.
    if (navigation.section !== sectionBefore) save()
  }

  /** Stops saving (sign-out): a change of the last moment is dropped rather than written to another account. */
  function close() {
    stopSaving?.()
    stopSaving = null
    clearTimeout(timer)
    timer = undefined
    ready.value = false
    account = null
    generation++
  }

  return { ready, open, close }
})
