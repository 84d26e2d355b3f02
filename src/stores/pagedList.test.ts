import type { Page } from '@core/domain'
import { describe, expect, it, vi } from 'vitest'
import { usePagedList, type PageQuery } from './pagedList'

vi.mock('../bridge/sellerDesk', () => ({
  messageOf: (error: unknown) => (error instanceof Error ? error.message : 'Something went wrong. Try again.')
}))

/** A fetch whose answers the test releases by hand, in any order. */
function controlledFetch() {
  const pending: { query: PageQuery; resolve: (page: Page<string>) => void; reject: (e: Error) => void }[] = []
  const fetchPage = (query: PageQuery) =>
    new Promise<Page<string>>((resolve, reject) => pending.push({ query, resolve, reject }))
  return { fetchPage, pending }
}

const pageOf = (rows: string[], total = rows.length): Page<string> => ({ rows, total, page: 1, take: 25 })

describe('usePagedList', () => {
  it('keeps the answer to the latest request when an older one finishes later', async () => {
    const { fetchPage, pending } = controlledFetch()
    const list = usePagedList(fetchPage)
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

  it('ignores a late error from an older request', async () => {
    const { fetchPage, pending } = controlledFetch()
    const list = usePagedList(fetchPage)
    const older = list.load()
    const newer = list.setSortDir('ASC')
    pending[1]!.resolve(pageOf(['a']))
    await newer
    pending[0]!.reject(new Error('network'))
    await older
    expect(list.error.value).toBeNull()
    expect(list.rows.value).toEqual(['a'])
  })

  it('forgets an answer still on its way after a reset', async () => {
    const { fetchPage, pending } = controlledFetch()
    const list = usePagedList(fetchPage)
    const load = list.load()
    list.reset()
    pending[0]!.resolve(pageOf(['previous seller']))
    await load
    expect(list.rows.value).toEqual([])
    expect(list.loaded.value).toBe(false)
  })

  it('moves back to the last page when the current one has emptied', async () => {
    const { fetchPage, pending } = controlledFetch()
    const list = usePagedList(fetchPage)
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
    const list = usePagedList(fetchPage)
    void list.search('  pixel ')
    void list.search('')
    expect(pending[0]!.query.searchTerm).toBe('pixel')
    expect('searchTerm' in pending[1]!.query).toBe(false)
  })
})
