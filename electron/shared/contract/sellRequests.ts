/** The Sell requests list, its filter, and editing or deleting one listing. */
import { z } from 'zod'
import type { SellRequest } from '../domain'
import { MAX_PRICE_CENTS, MAX_QUANTITY, priceCentsInput, quantityInput, sellRequestIdInput } from '../userInput'
import { call, MAX_PAGE_TAKE, noInput, pageInput, statusList, type ListResult } from './common'

const textList = z.array(z.string().max(200)).max(200).optional()
export const centsBound = z.number().int('Whole cents, please.').min(0, 'A price cannot be negative.').max(MAX_PRICE_CENTS).optional()
export const quantityBound = z.number().int('A whole number, please.').min(0, 'A quantity cannot be negative.').max(MAX_QUANTITY).optional()

export const sellRequestListInput = z
  .object({
    ...pageInput,
    statuses: statusList,
    brands: textList,
    categories: textList,
    minPriceCents: centsBound,
    maxPriceCents: centsBound,
    /** Listings with at least / at most this many units (not the listing's own `minQuantity`). */
    quantityAtLeast: quantityBound,
    quantityAtMost: quantityBound,
    sortBy: z.enum(['updated', 'price', 'quantity', 'name']).default('updated')
  })
  .strict()

/** The Sell requests list's filter (search, statuses, brands, categories, price and quantity ranges), without paging or sort. */
export const sellRequestFilterInput = sellRequestListInput.pick({
  searchTerm: true,
  statuses: true,
  brands: true,
  categories: true,
  minPriceCents: true,
  maxPriceCents: true,
  quantityAtLeast: true,
  quantityAtMost: true
})
export type SellRequestFilter = z.infer<typeof sellRequestFilterInput>

export const sellRequestEditInput = z
  .object({ id: sellRequestIdInput, priceCents: priceCentsInput.optional(), quantity: quantityInput.optional() })
  .strict()
  .refine((edit) => edit.priceCents !== undefined || edit.quantity !== undefined, 'Change the price, the quantity, or both.')

export const sellRequestCalls = {
  'sellRequests.list': call<ListResult<SellRequest>>()(sellRequestListInput),
  'sellRequests.facets': call<{ brands: string[]; categories: string[] }>()(noInput),
  'sellRequests.edit': call<SellRequest>()(sellRequestEditInput),
  /**
   * Which of these listings the snapshot still holds (the others were deleted since they were shown):
   * the list asks about the rows it keeps in place that its read no longer brings.
   */
  'sellRequests.existing': call<{ ids: string[] }>()(
    z.object({ ids: z.array(sellRequestIdInput).max(MAX_PAGE_TAKE, `Ask about at most ${MAX_PAGE_TAKE} listings at once (a page's).`) }).strict()
  ),
  /** `alreadyDeleted`: the marketplace no longer had it (404); it is gone here too, as asked. */
  'sellRequests.delete': call<{ id: string; alreadyDeleted: boolean }>()(z.object({ id: sellRequestIdInput }).strict())
} as const
