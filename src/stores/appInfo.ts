/** The app's name, version, platform and where it runs (the desktop app or the browser preview): asked once. */
import type { AppInfo } from '@shared/contract'
import { defineStore } from 'pinia'
import { ref } from 'vue'
import { call, messageOf } from '../bridge/sellerDesk'

export const useAppInfoStore = defineStore('appInfo', () => {
  const info = ref<AppInfo | null>(null)
  const error = ref<string | null>(null)
  let asking: Promise<AppInfo | null> | null = null

  /** Resolves with the info (null if it could not be read; the reason is in `error`). */
  function load(): Promise<AppInfo | null> {
    if (info.value) return Promise.resolve(info.value)
    asking ??= call('app.info', {})
      .then((value) => {
        info.value = value
        error.value = null
        return value
      })
      .catch((e: unknown) => {
        error.value = messageOf(e)
        return null
      })
      .finally(() => {
        asking = null
      })
    return asking
  }

  return { info, error, load }
})
