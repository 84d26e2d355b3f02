/**
 * One page of a list kept on the marketplace (orders, sell requests): the query the seller set
 * (page, page size, search, sort), the rows and total the server answered, and loading / error state.
 *
 * Only the answer to the latest request is kept: a slower, older request that finishes later is
 * dropped, so typing in the search box or paging quickly never shows stale rows.
 */
import type { Page, SortDir } from '@core/domain'
import { ref, shallowRef } from 'vue'
import { messageOf } from '../bridge/sellerDesk'

export const PAGE_SIZES = [25, 50, 100] as const
const DEFAULT_TAKE = 25

export interface PageQuery {
  page: number
  take: number
  searchTerm?: string
  sortDir: SortDir
}

export function usePagedList<T>(fetchPage: (query: PageQuery) => Promise<Page<T>>) {
  const page = ref(1)
  const take = ref(DEFAULT_TAKE)
  const searchTerm = ref('')
  const sortDir = ref<SortDir>('DESC')

  const rows = shallowRef<T[]>([])
  const total = ref(0)
  const loading = ref(false)
  const error = ref<string | null>(null)
  /** At least one page has arrived since the list was last reset. */
  const loaded = ref(false)

  let latest = 0

  function query(): PageQuery {
    const term = searchTerm.value.trim()
    return { page: page.value, take: take.value, sortDir: sortDir.value, ...(term ? { searchTerm: term } : {}) }
  }

  async function load(): Promise<void> {
    const ticket = ++latest
    loading.value = true
    error.value = null
    try {
      const result = await fetchPage(query())
      if (ticket !== latest) return
      const lastPage = Math.max(1, Math.ceil(result.total / take.value))
      if (result.rows.length === 0 && page.value > lastPage) {
        // The page emptied under us (rows deleted elsewhere, or the last one on it): show the last page instead.
        page.value = lastPage
        return load()
      }
      rows.value = result.rows
      total.value = result.total
      loaded.value = true
    } catch (e) {
      if (ticket !== latest) return
      error.value = messageOf(e)
    } finally {
      if (ticket === latest) loading.value = false
    }
  }

  function setPage(next: number) {
    page.value = next
    return load()
  }

  function setTake(next: number) {
    take.value = next
    page.value = 1
    return load()
  }

  function search(term: string) {
    if (term.trim() === searchTerm.value.trim()) return Promise.resolve()
    searchTerm.value = term
    page.value = 1
    return load()
  }

  function setSortDir(next: SortDir) {
    sortDir.value = next
    page.value = 1
    return load()
  }

  /** Replaces rows in place (after an edit) without asking the server again. */
  function replaceRows(update: (current: T[]) => T[]) {
    rows.value = update(rows.value)
  }

  /** Forgets everything: the query, the rows, and any answer still on its way. */
  function reset() {
    latest++
    page.value = 1
    take.value = DEFAULT_TAKE
    searchTerm.value = ''
    sortDir.value = 'DESC'
    rows.value = []
    total.value = 0
    loading.value = false
    error.value = null
    loaded.value = false
  }

  return {
    page,
    take,
    searchTerm,
    sortDir,
    rows,
    total,
    loading,
    error,
    loaded,
    load,
    setPage,
    setTake,
    search,
    setSortDir,
    replaceRows,
    reset
  }
}
