/** The app itself: what it is, its app-wide settings, and opening pages outside it. */
import { z } from 'zod'
import { MAX_QUANTITY } from '../userInput'
import { call, noInput } from './common'

export interface AppInfo {
  name: string
  version: string
  platform: string
  /** Where the main side runs: the Electron app or the browser preview host. */
  runtime: 'electron' | 'preview'
  /** The computer's regional format for dates (a BCP 47 tag; shared/dateLocale.ts): how days typed with numbers are read. */
  dateLocale: string
}

export const themeChoices = ['system', 'light', 'dark'] as const
export type ThemeChoice = (typeof themeChoices)[number]

/** App-wide settings: each field falls back to its default when missing or invalid. */
export const appSettingsSchema = z.object({
  syncIntervalMinutes: z.number().int().min(1).max(240).catch(5),
  historyDays: z.number().int().min(7).max(3650).catch(90),
  notifyNewOrders: z.boolean().catch(true),
  /** Listings with fewer units than this count as low on stock (dashboard). */
  lowStockThreshold: z.number().int().min(1).max(MAX_QUANTITY).catch(5),
  /** Light or dark look; 'system' follows the OS setting. */
  theme: z.enum(themeChoices).catch('system')
})
export type AppSettings = z.infer<typeof appSettingsSchema>

export const appSettingsUpdateInput = z
  .object({
    syncIntervalMinutes: z.number().int('Whole minutes, please.').min(1, 'At least 1 minute.').max(240, 'At most 240 minutes.'),
    historyDays: z.number().int('Whole days, please.').min(7, 'At least 7 days.').max(3650, 'At most 3650 days.'),
    notifyNewOrders: z.boolean(),
    lowStockThreshold: z.number().int('A whole number, please.').min(1, 'At least 1.').max(MAX_QUANTITY, 'At most 1,000,000.'),
    theme: z.enum(themeChoices, { error: 'Choose system, light or dark.' })
  })
  .partial()
  .strict()

export const appCalls = {
  'app.info': call<AppInfo>()(noInput),
  'settings.get': call<AppSettings>()(noInput),
  'settings.update': call<AppSettings>()(appSettingsUpdateInput),
  /** Opens an https page of an allow-listed carrier in the seller's default browser (refused otherwise). */
  'shell.openExternal': call<{ opened: boolean }>()(z.object({ url: z.string().min(1).max(2048) }).strict())
} as const
