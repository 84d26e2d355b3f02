import type { Page } from '@shared/domain'
import { describe, expect, it, vi } from 'vitest'
import { usePagedList, type PageAnswer, type PageQuery } from './pagedList'

type Sort = 'updated' | 'name'
const DEFAULT_SORT: { by: Sort; dir: 'DESC' } = { by: 'updated', dir: 'DESC' }

vi.mock('../bridge/sellerDesk', () => ({
  messageOf: (error: unknown) => (error instanceof Error ? error.message : 'Something went wrong. Try again.')
}))

/** A fetch whose answers the test releases by hand, in any order. */
function controlledFetch() {
  const pending: { query: PageQuery<Sort>; resolve: (page: PageAnswer<string>) => void; reject: (e: Error) => void }[] = []
  const fetchPage = (query: PageQuery<Sort>) => new Promise<PageAnswer<string>>((resolve, reject) => pending.push({ query, resolve, reject }))
  return { fetchPage, pending }
}

const pageOf = (rows: string[], total = rows.length): Page<string> => ({ rows, total, page: 1, take: 25 })

/** Every row asked about still exists. */
const everyKey = async (keys: string[]) => keys

describe('usePagedList', () => {
  it('keeps the answer to the latest request when an older one finishes later', async () => {
    const { fetchPage, pending } = controlledFetch()
    const list = usePagedList(fetchPage, DEFAULT_SORT)
    const older = list.search('i')
    const newer = list.search('iphone')
    expect(pending.map((p) => p.query.searchTerm)).toEqual(['i', 'iphone'])
    pending[1]!.resolve(pageOf(['iPhone 15']))
    await newer
    pending[0]!.resolve(pageOf(['iPad', 'iPhone 15', 'iMac']))
    await older
    expect(list.rows.value).toEqual(['iPhone 15'])
    expect(list.total.value).toBe(1)
    expect(list.loading.value).toBe(false)
  })

  it('reads when unread only: not again while a read is under way or once one has come, again after a failed one', async () => {
    const { fetchPage, pending } = controlledFetch()
    const list = usePagedList(fetchPage, DEFAULT_SORT)
    list.loadIfUnread()
    list.loadIfUnread()
    expect(pending).toHaveLength(1)
    pending[0]!.reject(new Error('network'))
    await vi.waitFor(() => expect(list.error.value).toBe('network'))
    list.loadIfUnread()
    expect(pending).toHaveLength(2)
    pending[1]!.resolve(pageOf(['a']))
    await vi.waitFor(() => expect(list.loaded.value).toBe(true))
    list.loadIfUnread()
    expect(pending).toHaveLength(2)
  })

  it('ignores a late error from an older request', async () => {
    const { fetchPage, pending } = controlledFetch()
    const list = usePagedList(fetchPage, DEFAULT_SORT)
    const older = list.load()
    const newer = list.setSort('name', 'ASC')
    pending[1]!.resolve(pageOf(['a']))
    await newer
    pending[0]!.reject(new Error('network'))
    await older
    expect(list.error.value).toBeNull()
    expect(list.rows.value).toEqual(['a'])
  })

  it('forgets an answer still on its way after a reset', async () => {
    const { fetchPage, pending } = controlledFetch()
    const list = usePagedList(fetchPage, DEFAULT_SORT)
    const load = list.load()
    list.reset()
    pending[0]!.resolve(pageOf(['previous seller']))
    await load
    expect(list.rows.value).toEqual([])
    expect(list.loaded.value).toBe(false)
  })

  it('moves back to the last page when the current one has emptied', async () => {
    const { fetchPage, pending } = controlledFetch()
    const list = usePagedList(fetchPage, DEFAULT_SORT)
    list.page.value = 3
    const load = list.load()
    pending[0]!.resolve({ rows: [], total: 30, page: 3, take: 25 })
    await vi.waitFor(() => expect(pending).toHaveLength(2))
    expect(pending[1]!.query.page).toBe(2)
    pending[1]!.resolve({ rows: ['x'], total: 30, page: 2, take: 25 })
    await load
    expect(list.page.value).toBe(2)
    expect(list.rows.value).toEqual(['x'])
  })

  it('sends the search trimmed, and none when empty', async () => {
    const { fetchPage, pending } = controlledFetch()
    const list = usePagedList(fetchPage, DEFAULT_SORT)
    void list.search('  pixel ')
    void list.search('')
    expect(pending[0]!.query.searchTerm).toBe('pixel')
    expect('searchTerm' in pending[1]!.query).toBe(false)
  })

  it('sends the sort and goes back to page 1 when it changes', async () => {
    const { fetchPage, pending } = controlledFetch()
    const list = usePagedList(fetchPage, DEFAULT_SORT)
    list.page.value = 4
    void list.setSort('name', 'ASC')
    expect(pending[0]!.query).toMatchObject({ page: 1, sortBy: 'name', sortDir: 'ASC' })
    list.reset()
    void list.load()
    expect(pending[1]!.query).toMatchObject({ sortBy: 'updated', sortDir: 'DESC' })
  })

  it('keeps the note that came with the rows', async () => {
    const { fetchPage, pending } = controlledFetch()
    const list = usePagedList(fetchPage, DEFAULT_SORT)
    const load = list.load()
    pending[0]!.resolve({ ...pageOf(['a']), note: 'Only recent orders are saved.' })
    await load
    expect(list.note.value).toBe('Only recent orders are saved.')
    const again = list.load()
    pending[1]!.resolve(pageOf(['a']))
    await again
    expect(list.note.value).toBeNull()
  })

  it('reloads quietly: no loading indicator, and only a list that is on screen', async () => {
    const { fetchPage, pending } = controlledFetch()
    const list = usePagedList(fetchPage, DEFAULT_SORT)
    await list.reloadIfShown()
    expect(pending).toHaveLength(0)
    const first = list.load()
    pending[0]!.resolve(pageOf(['a']))
    await first
    const quiet = list.reloadIfShown()
    expect(pending).toHaveLength(2)
    expect(list.loading.value).toBe(false)
    pending[1]!.resolve(pageOf(['a', 'b']))
    await quiet
    expect(list.rows.value).toEqual(['a', 'b'])
  })

  it('a quiet reload that supersedes a loud one ends its loading indicator', async () => {
    const { fetchPage, pending } = controlledFetch()
    const list = usePagedList(fetchPage, DEFAULT_SORT)
    const loud = list.load()
    expect(list.loading.value).toBe(true)
    const quiet = list.reloadIfShown()
    pending[1]!.resolve(pageOf(['fresh']))
    await quiet
    pending[0]!.resolve(pageOf(['stale']))
    await loud
    expect(list.loading.value).toBe(false)
    expect(list.rows.value).toEqual(['fresh'])
  })

  it('keeps the rows in their places once the seller changed one, until the seller reads the list anew', async () => {
    const { fetchPage, pending } = controlledFetch()
    const list = usePagedList(fetchPage, DEFAULT_SORT, { keyOf: (row) => row.replace(/\*$/, ''), existing: everyKey })
    const first = list.load()
    pending[0]!.resolve(pageOf(['a', 'b', 'c', 'd'], 28))
    await first

    // The seller changed c: sorted by last update, a read now brings it first, but the rows stay put, with
    // its new values; d, pushed onto the next page, gives its place to e, which the read brings instead.
    list.keepInPlace('c')
    expect(list.changed.value).toEqual(new Set(['c']))
    const quiet = list.load({ quiet: true })
    pending[1]!.resolve(pageOf(['c*', 'a', 'b', 'e'], 28))
    await quiet
    expect(list.rows.value).toEqual(['a', 'b', 'c*', 'e'])

    // A read the seller asks for (paging, sorting, Refresh) shows the list as sorted again.
    const anew = list.load()
    expect(list.changed.value.size).toBe(0)
    pending[2]!.resolve(pageOf(['c*', 'a', 'b', 'e'], 28))
    await anew
    expect(list.rows.value).toEqual(['c*', 'a', 'b', 'e'])

    // A change refused after all holds nothing in place.
    list.keepInPlace('b')
    list.releaseInPlace('b')
    const after = list.load({ quiet: true })
    pending[3]!.resolve(pageOf(['b', 'c*', 'a', 'e'], 28))
    await after
    expect(list.rows.value).toEqual(['b', 'c*', 'a', 'e'])
  })

  it('while rows are kept in place, a quiet read drops the rows it no longer brings and adds those it brings anew, after the others', async () => {
    const { fetchPage, pending } = controlledFetch()
    const list = usePagedList(fetchPage, DEFAULT_SORT, { keyOf: (row) => row.replace(/\*$/, ''), existing: everyKey })
    const first = list.load()
    pending[0]!.resolve(pageOf(['a', 'b', 'c', 'd', 'e'], 9))
    await first
    list.keepInPlace('d')

    // b was deleted elsewhere, d changed (sorted by last update, now first), a listing new to the page (f)
    // fills it up and another (n) was created: the rows shown stay in their order, those gone go, and the
    // newcomers follow in the read's order. The page holds what the read holds, no row more or less.
    const quiet = list.load({ quiet: true })
    pending[1]!.resolve(pageOf(['n', 'd*', 'a', 'c', 'f'], 9))
    await quiet
    expect(list.rows.value).toEqual(['a', 'c', 'd*', 'n', 'f'])
    expect(list.total.value).toBe(9)
    expect(list.changed.value).toEqual(new Set(['d']))
  })

  it('while rows are kept in place, the row the seller changed stays where it was though the read no longer brings it (their change sorted it onto another page)', async () => {
    const { fetchPage, pending } = controlledFetch()
    const list = usePagedList(fetchPage, DEFAULT_SORT, { keyOf: (row) => row, existing: everyKey })
    const third = list.setPage(3)
    pending[0]!.resolve({ ...pageOf(['k', 'l', 'm', 'o'], 40), page: 3 })
    await third
    list.keepInPlace('l')

    // Sorted by last update, the change took l to the first page: this page's read brings the next row
    // up instead. l keeps its place, and so do the rows below it.
    const quiet = list.load({ quiet: true })
    pending[1]!.resolve({ ...pageOf(['k', 'm', 'o', 'p'], 40), page: 3 })
    await quiet
    expect(list.rows.value).toEqual(['k', 'l', 'm', 'o', 'p'])
  })

  it('while rows are kept in place, the row the seller changed that the read no longer brings goes once it no longer exists (deleted since), the others keeping their order', async () => {
    const { fetchPage, pending } = controlledFetch()
    // What the snapshot holds, and the keys the list asked about.
    const held = new Set(['j', 'k', 'l', 'm', 'o'])
    const asked: string[][] = []
    const existing = async (keys: string[]) => {
      asked.push(keys)
      return keys.filter((key) => held.has(key))
    }
    const list = usePagedList(fetchPage, DEFAULT_SORT, { keyOf: (row) => row, existing })
    const second = list.setPage(2)
    pending[0]!.resolve({ ...pageOf(['k', 'l', 'm', 'o'], 29), page: 2 })
    await second
    list.keepInPlace('l')

    // Sorted by last update, the change took l to the first page, and the row that page pushed down
    // comes in: l still exists, so it keeps its place.
    const synced = list.load({ quiet: true })
    pending[1]!.resolve({ ...pageOf(['j', 'k', 'm', 'o'], 29), page: 2 })
    await synced
    expect(list.rows.value).toEqual(['k', 'l', 'm', 'o', 'j'])

    // Then l is deleted on the marketplace and a sync drops it: the read no longer brings it, and it no
    // longer exists, so it goes; j goes back to the first page; the others stay in their order.
    held.delete('l')
    const deleted = list.load({ quiet: true })
    pending[2]!.resolve({ ...pageOf(['k', 'm', 'o'], 28), page: 2 })
    await deleted
    expect(list.rows.value).toEqual(['k', 'm', 'o'])
    expect(list.total.value).toBe(28)
    // Each time, only about the changed row the read no longer brought.
    expect(asked).toEqual([['l'], ['l']])

    // No changed row is missing from a read any more: nothing is asked.
    const again = list.load({ quiet: true })
    pending[3]!.resolve({ ...pageOf(['k', 'm', 'o'], 28), page: 2 })
    await again
    expect(asked).toHaveLength(2)
  })

  it('while rows are kept in place, a read whose question of which changed rows still exist goes unanswered still shows the page read, the changed row kept, and no error', async () => {
    const { fetchPage, pending } = controlledFetch()
    const existing = () => Promise.reject(new Error('The account is closing.'))
    const list = usePagedList(fetchPage, DEFAULT_SORT, { keyOf: (row) => row, existing })
    const second = list.setPage(2)
    pending[0]!.resolve({ ...pageOf(['k', 'l', 'm'], 29), page: 2 })
    await second
    list.keepInPlace('l')
    const synced = list.load({ quiet: true })
    pending[1]!.resolve({ ...pageOf(['j', 'k', 'm'], 29), page: 2 })
    await synced
    expect(list.rows.value).toEqual(['k', 'l', 'm', 'j'])
    expect(list.error.value).toBeNull()
  })

  it('while rows are kept in place, a page emptied by deletes elsewhere shows the last page instead of its old rows', async () => {
    const { fetchPage, pending } = controlledFetch()
    const list = usePagedList(fetchPage, DEFAULT_SORT, { keyOf: (row) => row, existing: everyKey })
    const second = list.setPage(2)
    pending[0]!.resolve({ ...pageOf(['z'], 26), page: 2 })
    await second
    list.keepInPlace('z')

    const quiet = list.load({ quiet: true })
    pending[1]!.resolve({ ...pageOf([], 25), page: 2 })
    await vi.waitFor(() => expect(pending).toHaveLength(3))
    expect(pending[2]!.query.page).toBe(1)
    pending[2]!.resolve(pageOf(['a', 'b'], 25))
    await quiet
    expect(list.page.value).toBe(1)
    expect(list.rows.value).toEqual(['a', 'b'])
  })

  it('lets the rows move when the seller leaves the list: read again quietly, in the order read', async () => {
    const { fetchPage, pending } = controlledFetch()
    const list = usePagedList(fetchPage, DEFAULT_SORT, { keyOf: (row) => row.replace(/\*$/, ''), existing: everyKey })
    const first = list.load()
    pending[0]!.resolve(pageOf(['a', 'b', 'c']))
    await first
    list.keepInPlace('c')

    const left = list.letRowsMove()
    expect(list.changed.value.size).toBe(0)
    expect(list.loading.value).toBe(false)
    pending[1]!.resolve(pageOf(['c*', 'n', 'a', 'b'], 4))
    await left
    expect(list.rows.value).toEqual(['c*', 'n', 'a', 'b'])

    // Nothing held: nothing to read again.
    await list.letRowsMove()
    expect(pending).toHaveLength(2)
  })

  it('keeps nothing in place for a list without row keys', async () => {
    const { fetchPage, pending } = controlledFetch()
    const list = usePagedList(fetchPage, DEFAULT_SORT)
    const first = list.load()
    pending[0]!.resolve(pageOf(['a', 'b']))
    await first
    list.keepInPlace('b')
    const quiet = list.load({ quiet: true })
    pending[1]!.resolve(pageOf(['b', 'a']))
    await quiet
    expect(list.rows.value).toEqual(['b', 'a'])
  })
})
