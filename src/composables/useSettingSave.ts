/**
 * Saving one setting at once (Settings view): whether it is being saved, the message when it could not
 * be, and "Saved." shown for a moment after it was.
 */
import type { AppSettings } from '@shared/contract'
import { onBeforeUnmount, ref } from 'vue'
import { messageOf } from '../bridge/sellerDesk'
import { useAppSettingsStore } from '../stores/appSettings'

const SAVED_SHOWN_MS = 2500

export function useSettingSave() {
  const appSettings = useAppSettingsStore()
  const error = ref<string | null>(null)
  const saving = ref(false)
  const saved = ref(false)
  let savedTimer: ReturnType<typeof setTimeout> | undefined

  /** Saves the patch; `onSaved` runs once the main side has taken it, before "Saved." shows. */
  async function save(patch: Partial<AppSettings>, onSaved?: () => void): Promise<void> {
    error.value = null
    saving.value = true
    try {
      await appSettings.update(patch)
      onSaved?.()
      saved.value = true
      clearTimeout(savedTimer)
      savedTimer = setTimeout(() => (saved.value = false), SAVED_SHOWN_MS)
    } catch (e) {
      error.value = messageOf(e)
    } finally {
      saving.value = false
    }
  }

  onBeforeUnmount(() => clearTimeout(savedTimer))
  return { error, saving, saved, save }
}
