/**
 * The seller's app-wide settings, in settings.json in the user-data folder (replaced atomically).
 * The schema is shared with the contract: the same rules check the file and every update.
 */
import { join } from 'node:path'
import { readJsonFile, writeFileAtomic } from '../atomicFile'
import { appSettingsSchema, type AppSettings } from '../../shared/contract'

export interface AppSettingsStore {
  get(): AppSettings
  update(patch: Partial<AppSettings>): Promise<AppSettings>
  onChange(listener: (settings: AppSettings) => void): () => void
}

export async function openAppSettings(userDataDir: string): Promise<AppSettingsStore> {
  const file = join(userDataDir, 'settings.json')
  const { value } = await readJsonFile<unknown>(file, {})
  // Unknown or invalid values fall back to defaults one field at a time.
  let settings = appSettingsSchema.parse(value && typeof value === 'object' ? value : {})
  const listeners = new Set<(settings: AppSettings) => void>()
  return {
    get: () => settings,
    async update(patch) {
      settings = appSettingsSchema.parse({ ...settings, ...patch })
      await writeFileAtomic(file, JSON.stringify(settings, null, 2))
      listeners.forEach((listener) => listener(settings))
      return settings
    },
    onChange(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    }
  }
}
