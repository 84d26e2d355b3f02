/**
 * The seller's app-wide settings (sync interval, history window, new-order notifications) as the main
 * side keeps them; followed while the Settings view is open, so a change made elsewhere shows at once.
 */
import type { AppSettings } from '@shared/contract'
import { defineStore } from 'pinia'
import { ref } from 'vue'
import { call, messageOf, onEvent } from '../bridge/sellerDesk'

export const useAppSettingsStore = defineStore('appSettings', () => {
  const settings = ref<AppSettings | null>(null)
  const loadError = ref<string | null>(null)

  async function load(): Promise<void> {
    loadError.value = null
    try {
      settings.value = await call('settings.get', {})
    } catch (e) {
      loadError.value = messageOf(e)
    }
  }

  /** Saves some settings; resolves with all of them as saved. Throws ContractError. */
  async function update(patch: Partial<AppSettings>): Promise<AppSettings> {
    const saved = await call('settings.update', patch)
    settings.value = saved
    return saved
  }

  /** Reads the settings and follows changes; returns the function that stops following. */
  function follow(): () => void {
    const stop = onEvent('settings.changed', (next) => {
      settings.value = next
    })
    void load()
    return stop
  }

  return { settings, loadError, load, update, follow }
})
