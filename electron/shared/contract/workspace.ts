/** How the seller left the workspace (view, filters, sort, column widths), and the status lists the filters offer. */
import { z } from 'zod'
import { call, isoInstant, noInput } from './common'
import { accountKeyInput } from './session'
import { centsBound, quantityBound } from './sellRequests'

/** Views a seller can be looking at. */
export const workspaceViews = ['dashboard', 'orders', 'sellRequests', 'bulkEdit', 'settings'] as const
export type WorkspaceView = (typeof workspaceViews)[number]

const idList = z.array(z.string().max(200)).max(200)
const columnWidths = z.record(z.string().max(60), z.number().min(40).max(2000)).refine((widths) => Object.keys(widths).length <= 50, 'Too many columns.')
const listPreferences = {
  searchTerm: z.string().max(200).optional(),
  sortBy: z.string().max(40).optional(),
  sortDir: z.enum(['ASC', 'DESC']).optional(),
  take: z.number().int().min(1).max(200).optional(),
  columnWidths: columnWidths.optional()
}

/** How the seller left the workspace (per account): view, filters, sort, page size, column widths. */
export const workspacePreferencesSchema = z
  .object({
    view: z.enum(workspaceViews).optional(),
    orders: z
      .object({
        ...listPreferences,
        /** A preset is kept by name so "Today" is today again tomorrow. */
        datePreset: z.enum(['today', 'last7', 'last30', 'thisMonth']).optional(),
        fromDate: isoInstant.optional(),
        toDate: isoInstant.optional(),
        statuses: idList.optional(),
        itemStatuses: idList.optional()
      })
      .strict()
      .optional(),
    sellRequests: z
      .object({
        ...listPreferences,
        statuses: idList.optional(),
        brands: idList.optional(),
        categories: idList.optional(),
        minPriceCents: centsBound,
        maxPriceCents: centsBound,
        quantityAtLeast: quantityBound,
        quantityAtMost: quantityBound,
        /** The quantity range's names in preferences saved before `quantityAtLeast` / `quantityAtMost`: read when those are absent. */
        minQuantity: quantityBound,
        maxQuantity: quantityBound
      })
      .strict()
      .optional()
  })
  .strict()
export type WorkspacePreferences = z.infer<typeof workspacePreferencesSchema>

export const workspaceCalls = {
  'filters.statuses': call<{ orders: string[]; orderItems: string[]; sellRequests: string[] }>()(noInput),
  /** The named account's preferences; refused when another account is open. */
  'preferences.get': call<WorkspacePreferences>()(z.object({ account: accountKeyInput }).strict()),
  /** Saves the named account's preferences; refused when another account is open. */
  'preferences.set': call<WorkspacePreferences>()(z.object({ account: accountKeyInput, preferences: workspacePreferencesSchema }).strict())
} as const
