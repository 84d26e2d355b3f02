/**
 * The dashboard's figures, computed by the main side from the snapshot in the seller's time zone (the
 * zone this computer is set to). Read when the Dashboard opens and again after each sync.
 */
import type { Dashboard } from '@shared/contract'
import { defineStore } from 'pinia'
import { ref, shallowRef } from 'vue'
import { call, messageOf } from '../bridge/sellerDesk'

/** The IANA zone this computer is set to ("Europe/Berlin"). */
export const localTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'

export const useDashboardStore = defineStore('dashboard', () => {
  const figures = shallowRef<Dashboard | null>(null)
  const loading = ref(false)
  const error = ref<string | null>(null)
  let latest = 0

  async function load(options: { quiet?: boolean } = {}): Promise<void> {
    const ticket = ++latest
    if (!options.quiet) loading.value = true
    try {
      const next = await call('dashboard.get', { timeZone: localTimeZone() })
      if (ticket !== latest) return
      figures.value = next
      error.value = null
    } catch (e) {
      if (ticket === latest) error.value = messageOf(e)
    } finally {
      if (ticket === latest) loading.value = false
    }
  }

  /**
   * Reads the figures again, quietly, if they have been read or are being read (after a sync or an
   * edit): a read still on its way may have summed the snapshot before the sync wrote it.
   */
  function reloadIfShown(): Promise<void> {
    return figures.value || loading.value || error.value ? load({ quiet: true }) : Promise.resolve()
  }

  function reset() {
    latest++
    figures.value = null
    loading.value = false
    error.value = null
  }

  return { figures, loading, error, load, reloadIfShown, reset }
})
