/**
 * The seller's sell requests (listings) as the Sell requests view shows them: one page read from the
 * snapshot with the seller's search, filters (status, brand, category, price and quantity ranges) and
 * sort, and the two changes the marketplace allows: edit price / quantity, delete. Changes go to the
 * marketplace; the main side updates the snapshot when they succeed. An edited row shows the answer where
 * it is (the rows keep their places until the seller reads the list anew or leaves it); after a delete the
 * page is read from the snapshot again.
 */
import type { CallInput, WorkspacePreferences } from '@shared/contract'
import type { SellRequest } from '@shared/domain'
import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import { call, ContractError, messageOf } from '../bridge/sellerDesk'
import { usePagedList, type PageQuery } from './pagedList'

export type SellRequestSortBy = NonNullable<CallInput<'sellRequests.list'>['sortBy']>
export type SellRequestPreferences = NonNullable<WorkspacePreferences['sellRequests']>

export interface SellRequestChanges {
  priceCents?: number
  quantity?: number
}

/** A range of numbers; either end may be open. */
export interface NumberRange {
  min: number | null
  max: number | null
}

/** Every filter at once (the dashboard's low-stock link sets exactly these). */
export interface SellRequestFilters {
  searchTerm?: string
  statuses?: string[]
  brands?: string[]
  categories?: string[]
  price?: NumberRange
  quantity?: NumberRange
}

/** A listing as it was when deleted (what names it apart from same-named ones), and how its delete went. */
export interface DeleteResult {
  id: string
  name: string
  sku: string
  priceCents: number
  properties: SellRequest['properties']
  /** Gone from the marketplace: deleted now, or found deleted already. */
  ok: boolean
  /** Why not (not ok), or how (ok: "Already deleted on the marketplace"); null for a plain delete. */
  message: string | null
}

const SORTS: readonly SellRequestSortBy[] = ['updated', 'price', 'quantity', 'name']
const OPEN: NumberRange = { min: null, max: null }

export const useSellRequestsStore = defineStore('sellRequests', () => {
  /** Sell requests in any of these statuses / brands / categories (none: all). */
  const statuses = ref<string[]>([])
  const brands = ref<string[]>([])
  const categories = ref<string[]>([])
  /** Price range in cents, both ends included. */
  const price = ref<NumberRange>({ ...OPEN })
  /** Quantity range, both ends included. */
  const quantity = ref<NumberRange>({ ...OPEN })

  const readPage = async (query: PageQuery<SellRequestSortBy>) =>
    withPendingEdits(
      await call('sellRequests.list', {
        ...query,
        ...(statuses.value.length ? { statuses: statuses.value } : {}),
        ...(brands.value.length ? { brands: brands.value } : {}),
        ...(categories.value.length ? { categories: categories.value } : {}),
        ...(price.value.min !== null ? { minPriceCents: price.value.min } : {}),
        ...(price.value.max !== null ? { maxPriceCents: price.value.max } : {}),
        ...(quantity.value.min !== null ? { quantityAtLeast: quantity.value.min } : {}),
        ...(quantity.value.max !== null ? { quantityAtMost: quantity.value.max } : {})
      })
    )
  const list = usePagedList<SellRequest, SellRequestSortBy>(
    readPage,
    { by: 'updated', dir: 'DESC' },
    { keyOf: (row) => row.id, existing: async (ids) => (await call('sellRequests.existing', { ids })).ids }
  )

  /** A filter other than the search is set. */
  const narrowed = computed(
    () =>
      statuses.value.length > 0 ||
      brands.value.length > 0 ||
      categories.value.length > 0 ||
      price.value.min !== null ||
      price.value.max !== null ||
      quantity.value.min !== null ||
      quantity.value.max !== null
  )

  const setStatuses = (next: string[]) => list.setFilter(statuses, next)
  const setBrands = (next: string[]) => list.setFilter(brands, next)
  const setCategories = (next: string[]) => list.setFilter(categories, next)
  const setPriceRange = (next: NumberRange) => list.setFilter(price, { ...next })
  const setQuantityRange = (next: NumberRange) => list.setFilter(quantity, { ...next })

  function setOwnFilters(filters: SellRequestFilters) {
    statuses.value = filters.statuses ?? []
    brands.value = filters.brands ?? []
    categories.value = filters.categories ?? []
    price.value = { ...(filters.price ?? OPEN) }
    quantity.value = { ...(filters.quantity ?? OPEN) }
    list.searchTerm.value = filters.searchTerm ?? ''
  }

  /** Shows exactly the listings these filters match (everything else cleared), sorted as given, from page 1. */
  function showOnly(filters: SellRequestFilters, sort?: { by: SellRequestSortBy; dir: 'ASC' | 'DESC' }) {
    setOwnFilters(filters)
    return list.relistLinked(sort)
  }

  /**
   * Which in-table edit last touched a field of a listing (`id.field` → edit number) while it is on
   * its way: only that edit may put the field back or show its answer there. Edits of one listing
   * overlap when the seller changes the price and then the quantity before the first answer came back.
   */
  const fieldOwners = new Map<string, { edit: number; value: number }>()
  let edits = 0
  const fieldsOf = (changes: SellRequestChanges) => Object.keys(changes) as (keyof SellRequestChanges)[]
  const ownerKey = (id: string, field: keyof SellRequestChanges) => `${id}.${field}`

  /**
   * Values of changes the marketplace took without a readable answer that could not be read back
   * ('unconfirmed': most likely made), by `id.field`, with when that was said: the snapshot still holds
   * the values before them, so these are shown over it until a sync completed since has read the
   * marketplace's (syncedAt).
   */
  const unconfirmed = new Map<string, { value: number; atMs: number }>()

  /** Listings kept in place (list.changed) whose change the marketplace took: a later refusal leaves them kept. */
  const madeInPlace = new Set<string>()

  /** A sync completed at this time: what it read is in the snapshot, in place of the values shown over it. */
  function syncedAt(ms: number) {
    for (const [key, entry] of unconfirmed) if (entry.atMs <= ms) unconfirmed.delete(key)
  }

  /** A page as read from the snapshot, with the values of edits still on their way (or unconfirmed) shown as typed. */
  function withPendingEdits<P extends { rows: SellRequest[] }>(page: P): P {
    if (fieldOwners.size === 0 && unconfirmed.size === 0) return page
    return {
      ...page,
      rows: page.rows.map((row) => {
        const pending = (['priceCents', 'quantity'] as const).flatMap((field) => {
          const owner = fieldOwners.get(ownerKey(row.id, field)) ?? unconfirmed.get(ownerKey(row.id, field))
          return owner ? [[field, owner.value] as const] : []
        })
        return pending.length ? { ...row, ...Object.fromEntries(pending) } : row
      })
    }
  }

  /** Fields of the listing that another edit, still on its way, has changed on screen. */
  function pendingElsewhere(id: string, edit: number): (keyof SellRequestChanges)[] {
    return (['priceCents', 'quantity'] as const).filter((field) => {
      const owner = fieldOwners.get(ownerKey(id, field))
      return owner !== undefined && owner.edit !== edit
    })
  }

  /** The marketplace's answer on screen, except fields another edit still on its way has changed. */
  function showAnswer(updated: SellRequest, edit: number) {
    const keep = pendingElsewhere(updated.id, edit)
    list.replaceRows((rows) =>
      rows.map((row) => (row.id === updated.id ? { ...updated, ...Object.fromEntries(keep.map((field) => [field, row[field]])) } : row))
    )
  }

  /**
   * Sends only the given changes; the row shows what the marketplace returned, where it is: the rows
   * keep their places until the seller reads the list anew or leaves it (keepInPlace), the changed row
   * too when its new values sort or filter it off the page. A change the marketplace took but could not
   * be checked ('unconfirmed': most likely made) shows the new values, not the old ones, until the next
   * sync reads them. Throws ContractError.
   */
  async function edit(id: string, changes: SellRequestChanges, editNumber = ++edits): Promise<SellRequest> {
    // Held from the start: a sync ending while the change is on its way moves no row either.
    if (!list.changed.value.has(id)) madeInPlace.delete(id)
    list.keepInPlace(id)
    let updated: SellRequest
    try {
      updated = await call('sellRequests.edit', { id, ...changes })
    } catch (e) {
      const unsure = e instanceof ContractError && e.kind === 'unconfirmed'
      // Refused, and no other change of the listing made or on its way: the listing is as it was.
      if (unsure) madeInPlace.add(id)
      else if (!madeInPlace.has(id) && pendingElsewhere(id, editNumber).length === 0) list.releaseInPlace(id)
      if (unsure) {
        const keep = pendingElsewhere(id, editNumber)
        const mine = fieldsOf(changes).filter((field) => !keep.includes(field))
        for (const field of mine) unconfirmed.set(ownerKey(id, field), { value: changes[field]!, atMs: Date.now() })
        list.replaceRows((rows) => rows.map((row) => (row.id === id ? { ...row, ...Object.fromEntries(mine.map((field) => [field, changes[field]])) } : row)))
      }
      throw e
    }
    madeInPlace.add(id)
    for (const field of fieldsOf(changes)) unconfirmed.delete(ownerKey(id, field))
    showAnswer(updated, editNumber)
    return updated
  }

  /**
   * An edit made in the table: the row shows the new value at once; if the marketplace refuses, the
   * fields this edit changed go back to what they were, unless a later edit of the same field has taken
   * them over (a refusal never undoes another edit), and the error is thrown for the view to show. A
   * change most likely made ('unconfirmed') keeps the new value. Throws ContractError.
   */
  async function editInPlace(row: SellRequest, changes: SellRequestChanges): Promise<SellRequest> {
    const editNumber = ++edits
    const fields = fieldsOf(changes)
    for (const field of fields) fieldOwners.set(ownerKey(row.id, field), { edit: editNumber, value: changes[field]! })
    list.replaceRows((rows) => rows.map((r) => (r.id === row.id ? { ...r, ...changes } : r)))
    try {
      return await edit(row.id, changes, editNumber)
    } catch (e) {
      if (e instanceof ContractError && e.kind === 'unconfirmed') throw e
      const mine = fields.filter((field) => fieldOwners.get(ownerKey(row.id, field))?.edit === editNumber)
      list.replaceRows((rows) => rows.map((r) => (r.id === row.id ? { ...r, ...Object.fromEntries(mine.map((field) => [field, row[field]])) } : r)))
      throw e
    } finally {
      for (const field of fields) if (fieldOwners.get(ownerKey(row.id, field))?.edit === editNumber) fieldOwners.delete(ownerKey(row.id, field))
    }
  }

  /**
   * Deletes on the marketplace, then reads the page again so it fills up. Answers whether the marketplace
   * had deleted it already. Throws ContractError.
   */
  async function remove(id: string): Promise<{ alreadyDeleted: boolean }> {
    let answer: { alreadyDeleted: boolean }
    try {
      answer = await call('sellRequests.delete', { id })
    } catch (e) {
      // Perhaps already gone on the marketplace (the snapshot then dropped it too): show the page as it is now.
      void list.load({ quiet: true })
      throw e
    }
    list.replaceRows((rows) => rows.filter((row) => row.id !== id))
    list.total.value = Math.max(0, list.total.value - 1)
    await list.load({ quiet: true })
    return answer
  }

  /** Deletes several listings one after another (the marketplace has no batch delete); one result per listing. */
  async function removeMany(listings: Pick<SellRequest, 'id' | 'name' | 'sku' | 'priceCents' | 'properties'>[]): Promise<DeleteResult[]> {
    const results: DeleteResult[] = []
    for (const { id, name, sku, priceCents, properties } of listings) {
      const listing = { id, name, sku, priceCents, properties }
      try {
        const { alreadyDeleted } = await call('sellRequests.delete', { id })
        results.push({ ...listing, ok: true, message: alreadyDeleted ? 'Already deleted on the marketplace' : null })
      } catch (e) {
        results.push({
          ...listing,
          ok: false,
          message: e instanceof ContractError && e.kind === 'unconfirmed' ? `May have been deleted: ${e.message}` : messageOf(e)
        })
      }
    }
    // Gone from the rows at once, before the page read again comes back to fill the page.
    const gone = new Set(results.filter((result) => result.ok).map((result) => result.id))
    list.replaceRows((rows) => rows.filter((row) => !gone.has(row.id)))
    await list.load({ quiet: true })
    return results
  }

  /**
   * Drops the search and the filters, and the sort a dashboard link set with them (back to the seller's
   * own sort from before); keeps a sort the seller chose and the page size.
   */
  function clearFilters() {
    setOwnFilters({})
    return list.relistCleared()
  }

  function reset() {
    setOwnFilters({})
    madeInPlace.clear()
    list.reset()
  }

  function preferences(): SellRequestPreferences {
    const bound = (key: string, value: number | null) => (value === null ? {} : { [key]: value })
    return {
      ...list.viewPreferences(),
      statuses: statuses.value,
      brands: brands.value,
      categories: categories.value,
      ...bound('minPriceCents', price.value.min),
      ...bound('maxPriceCents', price.value.max),
      ...bound('quantityAtLeast', quantity.value.min),
      ...bound('quantityAtMost', quantity.value.max)
    }
  }

  function restore(saved: SellRequestPreferences) {
    setOwnFilters({
      ...saved,
      price: { min: saved.minPriceCents ?? null, max: saved.maxPriceCents ?? null },
      quantity: { min: saved.quantityAtLeast ?? saved.minQuantity ?? null, max: saved.quantityAtMost ?? saved.maxQuantity ?? null }
    })
    list.restoreView(saved, SORTS)
  }

  return {
    ...list,
    statuses,
    brands,
    categories,
    price,
    quantity,
    narrowed,
    setStatuses,
    setBrands,
    setCategories,
    setPriceRange,
    setQuantityRange,
    showOnly,
    edit,
    editInPlace,
    syncedAt,
    remove,
    removeMany,
    clearFilters,
    reset,
    preferences,
    restore
  }
})
