/**
 * One page of a list the seller browses (orders, sell requests): the query the seller set (page, page
 * size, search, sort), the rows and total that came back with any note about them, and loading / error
 * state. Lists are read from the snapshot on this computer, so every query works offline too.
 *
 * Only the answer to the latest request is kept: a slower, older request that finishes later is
 * dropped, so typing in the search box or paging quickly never shows stale rows.
 */
import type { ListResult } from '@shared/contract'
import type { Page, SortDir } from '@shared/domain'
import { ref, shallowRef, type Ref } from 'vue'
import { messageOf } from '../bridge/sellerDesk'

export const PAGE_SIZES = [25, 50, 100] as const
const DEFAULT_TAKE = 25

export interface PageQuery<S extends string = string> {
  page: number
  take: number
  searchTerm?: string
  sortBy: S
  sortDir: SortDir
}

/** A page, and where it came from when the main side says so. */
export type PageAnswer<T> = Page<T> & Partial<Pick<ListResult<T>, 'source' | 'syncedAt' | 'note'>>

export interface LoadOptions {
  /** Read again without the loading indicator (after a sync or an edit): the rows just change in place. */
  quiet?: boolean
}

/** What a list view needs from a list store (the store's refs unwrapped, as Pinia exposes them). */
export interface ListControls<T, S extends string> {
  readonly page: number
  readonly take: number
  readonly searchTerm: string
  readonly sortBy: S
  readonly sortDir: SortDir
  readonly rows: T[]
  readonly total: number
  readonly note: string | null
  readonly loading: boolean
  readonly error: string | null
  readonly loaded: boolean
  /** A filter other than the search narrows the list (dates, statuses). */
  readonly narrowed: boolean
  /** Widths the seller dragged columns to, by column key. */
  readonly columnWidths: Record<string, number>
  setColumnWidth(key: string, width: number): void
  load(): Promise<void>
  /** Reads the list unless it has been read or is being read. */
  loadIfUnread(): void
  setPage(page: number): Promise<void>
  setTake(take: number): Promise<void>
  search(term: string): Promise<void>
  setSort(by: S, dir: SortDir): Promise<void>
  clearFilters(): Promise<void>
}

/**
 * A list that can keep rows the seller changed in place (keepInPlace) needs both: a row's key, and which
 * keys still name a row where the list is read from (one deleted since it was shown names none).
 */
export type PagedListOptions<T> = { keyOf?: undefined; existing?: undefined } | { keyOf: (row: T) => string; existing: (keys: string[]) => Promise<string[]> }

const NO_KEYS: ReadonlySet<string> = new Set()

export function usePagedList<T, S extends string>(
  fetchPage: (query: PageQuery<S>) => Promise<PageAnswer<T>>,
  defaultSort: { by: S; dir: SortDir },
  { keyOf, existing }: PagedListOptions<T> = {}
) {
  const page = ref(1)
  const take = ref(DEFAULT_TAKE)
  const searchTerm = ref('')
  const sortBy = ref(defaultSort.by) as Ref<S>
  const sortDir = ref<SortDir>(defaultSort.dir)
  const columnWidths = ref<Record<string, number>>({})

  const rows = shallowRef<T[]>([])
  const total = ref(0)
  /** Something the seller should know about these rows (e.g. older orders need a connection). */
  const note = ref<string | null>(null)
  const loading = ref(false)
  const error = ref<string | null>(null)
  /** At least one page has arrived since the list was last reset. */
  const loaded = ref(false)
  /**
   * The keys of the rows the seller changed since they last read the list anew (page, page size, sort,
   * search, filter, Refresh) or left the list. While there are any, the rows shown keep their places: a
   * quiet read (a sync, a delete) brings their new values but moves none of them, so a row changed by a
   * click never jumps from under the pointer (sorted by last update, it would go to the top) and the
   * seller's next click lands on the row they see there. The rows are still those of the page as read
   * (keptInPlace). A read the seller asks for shows the list as sorted and filtered again.
   */
  const changed = shallowRef<ReadonlySet<string>>(NO_KEYS)

  let latest = 0

  function query(): PageQuery<S> {
    const term = searchTerm.value.trim()
    return { page: page.value, take: take.value, sortBy: sortBy.value, sortDir: sortDir.value, ...(term ? { searchTerm: term } : {}) }
  }

  async function load(options: LoadOptions = {}): Promise<void> {
    const ticket = ++latest
    if (!options.quiet) loading.value = true
    if (!options.quiet) error.value = null
    if (!options.quiet) changed.value = NO_KEYS
    try {
      const result = await fetchPage(query())
      if (ticket !== latest) return
      const lastPage = Math.max(1, Math.ceil(result.total / take.value))
      if (result.rows.length === 0 && page.value > lastPage) {
        // The page emptied under us (rows deleted elsewhere, or the last one on it): show the last page
        // instead, as read (its rows were never under the pointer).
        page.value = lastPage
        changed.value = NO_KEYS
        return load(options)
      }
      const stillThere = await keptAndExisting(result.rows)
      if (ticket !== latest) return
      rows.value = keptInPlace(result.rows, stillThere) ?? result.rows
      total.value = result.total
      note.value = result.note ?? null
      error.value = null
      loaded.value = true
    } catch (e) {
      if (ticket !== latest) return
      error.value = messageOf(e)
    } finally {
      // Also ends the indicator of a louder request this one superseded.
      if (ticket === latest) loading.value = false
    }
  }

  /**
   * Reads the list unless it has been read or is being read: a view mounting finds the rows that the
   * seller's click on its section (or a link that narrowed the list) already asked for.
   */
  function loadIfUnread(): void {
    if (!loaded.value && !loading.value) void load()
  }

  /** Reads the current page again, quietly, if the list has been read (it is on screen, or mounted and kept hidden). */
  function reloadIfShown(): Promise<void> {
    if (!loaded.value && !loading.value && !error.value) return Promise.resolve()
    return load({ quiet: true })
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

  function setSort(by: S, dir: SortDir) {
    sortBy.value = by
    sortDir.value = dir
    page.value = 1
    return load()
  }

  /**
   * The sort a link set (the dashboard's low stock: by quantity) and the seller's sort it replaced,
   * while the list is sorted that way: clearing the link's filters puts the seller's sort back.
   */
  let linked: { set: { by: S; dir: SortDir }; before: { by: S; dir: SortDir } } | null = null
  const sortedAs = (sort: { by: S; dir: SortDir }) => sortBy.value === sort.by && sortDir.value === sort.dir

  /**
   * Reads the list from page 1 after a link set the caller's filters, sorted as the link asks if it asks
   * (remembering the seller's sort it replaces).
   */
  function relistLinked(sort?: { by: S; dir: SortDir }) {
    if (!sort) return refilter()
    // A second link while the first one's sort is still in force keeps the seller's own sort from before.
    const set = { by: sort.by, dir: sort.dir }
    if (!linked || !sortedAs(linked.set)) linked = { set, before: { by: sortBy.value, dir: sortDir.value } }
    else linked.set = set
    return setSort(sort.by, sort.dir)
  }

  /**
   * Reads the list from page 1 after the caller cleared its filters: with the seller's sort from before a
   * link, if the list is still sorted as the link set it (a sort the seller chose since stays); forgets
   * the link either way.
   */
  function relistCleared() {
    const link = linked
    linked = null
    return link && sortedAs(link.set) ? setSort(link.before.by, link.before.dir) : refilter()
  }

  /** Back to page 1 after a filter changed (the caller has set it). */
  function refilter() {
    page.value = 1
    return load()
  }

  /** Sets one of the caller's filters (statuses, a range…) and reads the list again from page 1. */
  function setFilter<V>(filter: Ref<V>, value: V) {
    filter.value = value
    return refilter()
  }

  /** Replaces rows in place (after an edit) without reading the list again. */
  function replaceRows(update: (current: T[]) => T[]) {
    rows.value = update(rows.value)
  }

  /** The seller is changing the row with this key: the rows shown keep their places until the list is read anew. */
  function keepInPlace(key: string) {
    if (!keyOf || changed.value.has(key)) return
    changed.value = new Set([...changed.value, key])
  }

  /** The change to that row did not happen after all (refused): it no longer holds the rows in place. */
  function releaseInPlace(key: string) {
    if (!changed.value.has(key)) return
    const rest = new Set(changed.value)
    rest.delete(key)
    changed.value = rest
  }

  /**
   * The seller left the list: no row is kept in place any more, and a list that held some is read again
   * quietly (it is off screen), so coming back shows it sorted and filtered as set, with any new rows.
   */
  function letRowsMove(): Promise<void> {
    if (changed.value.size === 0) return Promise.resolve()
    changed.value = NO_KEYS
    return reloadIfShown()
  }

  /**
   * The keys of the rows shown that the seller changed and this read no longer brings, and that still
   * exist: asked only when there are any such rows, so a read that brings them all costs nothing more.
   * Not answered (the account closing), they are taken to exist: the page read is still shown.
   */
  async function keptAndExisting(read: T[]): Promise<ReadonlySet<string>> {
    if (!keyOf || !existing || changed.value.size === 0) return NO_KEYS
    const brought = new Set(read.map(keyOf))
    const missing = rows.value.map(keyOf).filter((key) => changed.value.has(key) && !brought.has(key))
    if (missing.length === 0) return NO_KEYS
    return new Set(await existing(missing).catch(() => missing))
  }

  /**
   * While rows are kept in place: the rows of the page read, those already shown first in the order they
   * were shown (with their values as just read), then those it brings anew in its own order (the row
   * after a deleted one fills the page, a new one comes in); otherwise null, and the page read is shown
   * as it is. A row shown that the read no longer brings goes (it is gone from the marketplace, or
   * filtered away, or sorted onto another page, and this read cannot tell which; kept, a deleted row
   * would stay listed, and a moved one would show on two pages), except one the seller changed that
   * still exists (`stillThere`): their own change sorted it elsewhere (to the top, by last update), and
   * gone, the rows below it would move up under the pointer. It stays as last shown until the list is
   * read anew. A changed row deleted since (on the marketplace, or here) goes like any other.
   */
  function keptInPlace(read: T[], stillThere: ReadonlySet<string>): T[] | null {
    if (!keyOf || changed.value.size === 0 || rows.value.length === 0) return null
    const fresh = new Map(read.map((row) => [keyOf(row), row]))
    const shown = new Set(rows.value.map(keyOf))
    const stayed = rows.value
      .map((row) => fresh.get(keyOf(row)) ?? (changed.value.has(keyOf(row)) && stillThere.has(keyOf(row)) ? row : undefined))
      .filter((row): row is T => row !== undefined)
    return [...stayed, ...read.filter((row) => !shown.has(keyOf(row)))]
  }

  function setColumnWidth(key: string, width: number) {
    columnWidths.value = { ...columnWidths.value, [key]: Math.round(width) }
  }

  /** The search, sort, page size and column widths, as remembered across restarts. */
  function viewPreferences() {
    return {
      searchTerm: searchTerm.value,
      sortBy: sortBy.value,
      sortDir: sortDir.value,
      take: take.value,
      columnWidths: { ...columnWidths.value }
    }
  }

  /**
   * Puts a remembered sort, page size and column widths back (values that no longer fit are skipped:
   * a sort not among `sorts`, a page size not offered). The search is the caller's, with its filters.
   */
  function restoreView(
    saved: { sortBy?: string | undefined; sortDir?: SortDir | undefined; take?: number | undefined; columnWidths?: Record<string, number> | undefined },
    sorts: readonly S[]
  ) {
    const knownSort = sorts.find((sort) => sort === saved.sortBy)
    if (knownSort) sortBy.value = knownSort
    if (saved.sortDir) sortDir.value = saved.sortDir
    if (saved.take && (PAGE_SIZES as readonly number[]).includes(saved.take)) take.value = saved.take
    columnWidths.value = { ...(saved.columnWidths ?? {}) }
    page.value = 1
  }

  /** Forgets everything: the query, the rows, and any answer still on its way. */
  function reset() {
    latest++
    linked = null
    page.value = 1
    take.value = DEFAULT_TAKE
    searchTerm.value = ''
    sortBy.value = defaultSort.by
    sortDir.value = defaultSort.dir
    columnWidths.value = {}
    rows.value = []
    total.value = 0
    note.value = null
    loading.value = false
    error.value = null
    loaded.value = false
    changed.value = NO_KEYS
  }

  return {
    page,
    take,
    searchTerm,
    sortBy,
    sortDir,
    columnWidths,
    rows,
    total,
    note,
    loading,
    error,
    loaded,
    changed,
    keepInPlace,
    releaseInPlace,
    letRowsMove,
    load,
    loadIfUnread,
    reloadIfShown,
    setPage,
    setTake,
    search,
    setSort,
    relistLinked,
    relistCleared,
    refilter,
    setFilter,
    replaceRows,
    setColumnWidth,
    viewPreferences,
    restoreView,
    reset
  }
}
