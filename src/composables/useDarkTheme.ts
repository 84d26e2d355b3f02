/**
 * Whether the app is dark now: the seller's theme setting, where 'system' (also while the settings are
 * being read) follows the OS. One place, for the app frame and for parts that draw themselves (the grid).
 */
import { useOsTheme } from 'naive-ui'
import { computed } from 'vue'
import { useAppSettingsStore } from '../stores/appSettings'

export function useDarkTheme() {
  const osTheme = useOsTheme()
  const appSettings = useAppSettingsStore()
  const choice = computed(() => appSettings.settings?.theme ?? 'system')
  const dark = computed(() => (choice.value === 'system' ? osTheme.value === 'dark' : choice.value === 'dark'))
  return { choice, dark }
}
