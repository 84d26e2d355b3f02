import type { SellRequest } from '@shared/domain'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'

const bridge = vi.hoisted(() => ({
  call: vi.fn(),
  /** The bridge's error as the store tells kinds apart by it (the real one needs a window to load). */
  ContractError: class ContractError extends Error {
    readonly kind: string
    constructor(data: { kind: string; message: string }) {
      super(data.message)
      this.kind = data.kind
    }
  }
}))

vi.mock('../bridge/sellerDesk', () => ({
  call: bridge.call,
  ContractError: bridge.ContractError,
  onEvent: () => () => undefined,
  messageOf: (error: unknown) => (error instanceof Error ? error.message : 'Something went wrong. Try again.')
}))

const { useSellRequestsStore } = await import('./sellRequests')

const listing = { id: 'sr-1', name: 'iPhone 15 128GB Black', sku: 'IP15-128-BLK', priceCents: 50_000, quantity: 10 } as SellRequest

/** A call whose answer the test gives when it wants. */
function deferred<T>() {
  let resolve!: (value: T) => void
  let reject!: (error: unknown) => void
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)))
  return { promise, resolve, reject }
}

describe('sell requests: edits in the table', () => {
  let marketplace: SellRequest
  beforeEach(() => {
    setActivePinia(createPinia())
    marketplace = { ...listing }
    bridge.call.mockReset()
  })

  async function storeWithRow() {
    bridge.call.mockImplementation(async (name: string) => {
      if (name === 'sellRequests.list') return { rows: [{ ...marketplace }], total: 1, page: 1, take: 25, source: 'snapshot', syncedAt: null, note: null }
      throw new Error(`unexpected ${name}`)
    })
    const store = useSellRequestsStore()
    await store.load()
    return store
  }

  it('a refused edit puts back only its own field: a later edit of the same listing that succeeded stays', async () => {
    const store = await storeWithRow()
    const priceEdit = deferred<SellRequest>()
    const list = bridge.call.getMockImplementation()!
    bridge.call.mockImplementation((name: string, input: { priceCents?: number; quantity?: number }) => {
      if (name !== 'sellRequests.edit') return list(name, input)
      if (input.priceCents !== undefined) return priceEdit.promise
      marketplace = { ...marketplace, quantity: input.quantity! }
      return Promise.resolve({ ...marketplace })
    })

    // A: the price, slow and then refused; B: the quantity, accepted meanwhile.
    const a = store.editInPlace(store.rows[0]!, { priceCents: 45_000 })
    expect(store.rows[0]).toMatchObject({ priceCents: 45_000, quantity: 10 })
    await store.editInPlace(store.rows[0]!, { quantity: 7 })
    expect(store.rows[0]).toMatchObject({ priceCents: 45_000, quantity: 7 })

    priceEdit.reject(new Error('The marketplace refused the price.'))
    await expect(a).rejects.toThrow('refused')
    expect(store.rows[0]).toMatchObject({ priceCents: 50_000, quantity: 7 })
  })

  it('a refused edit does not undo a later edit of the same field', async () => {
    const store = await storeWithRow()
    const first = deferred<SellRequest>()
    const list = bridge.call.getMockImplementation()!
    bridge.call.mockImplementation((name: string, input: { priceCents?: number }) => {
      if (name !== 'sellRequests.edit') return list(name, input)
      if (input.priceCents === 45_000) return first.promise
      marketplace = { ...marketplace, priceCents: input.priceCents! }
      return Promise.resolve({ ...marketplace })
    })

    const a = store.editInPlace(store.rows[0]!, { priceCents: 45_000 })
    await store.editInPlace(store.rows[0]!, { priceCents: 47_500 })
    first.reject(new Error('Timed out.'))
    await expect(a).rejects.toThrow()
    expect(store.rows[0]!.priceCents).toBe(47_500)
  })

  it('a refused edit alone goes back to what the row showed before it', async () => {
    const store = await storeWithRow()
    const list = bridge.call.getMockImplementation()!
    bridge.call.mockImplementation((name: string, input: object) =>
      name === 'sellRequests.edit' ? Promise.reject(new Error('Server error.')) : list(name, input)
    )
    await expect(store.editInPlace(store.rows[0]!, { quantity: 3 })).rejects.toThrow()
    expect(store.rows[0]).toMatchObject({ priceCents: 50_000, quantity: 10 })
  })

  it('a listing changed keeps its place; a refused change alone holds nothing; a refusal after a change made leaves it held', async () => {
    const store = await storeWithRow()
    const list = bridge.call.getMockImplementation()!
    let refuse = true
    bridge.call.mockImplementation((name: string, input: { quantity?: number }) => {
      if (name !== 'sellRequests.edit') return list(name, input)
      if (refuse) return Promise.reject(new Error('Server error.'))
      marketplace = { ...marketplace, quantity: input.quantity! }
      return Promise.resolve({ ...marketplace })
    })
    await expect(store.editInPlace(store.rows[0]!, { quantity: 3 })).rejects.toThrow()
    expect(store.changed.has('sr-1')).toBe(false)
    refuse = false
    await store.editInPlace(store.rows[0]!, { quantity: 4 })
    expect(store.changed.has('sr-1')).toBe(true)
    refuse = true
    await expect(store.editInPlace(store.rows[0]!, { quantity: 5 })).rejects.toThrow()
    expect(store.changed.has('sr-1')).toBe(true)
    // Read anew (Refresh): nothing is held.
    await store.load()
    expect(store.changed.size).toBe(0)
  })

  it('an edit the marketplace took but could not be checked (unconfirmed) keeps the new value, in the table and from the dialog', async () => {
    const store = await storeWithRow()
    const list = bridge.call.getMockImplementation()!
    const unconfirmed = new bridge.ContractError({ kind: 'unconfirmed', message: 'The marketplace accepted the change, but its answer could not be read.' })
    bridge.call.mockImplementation((name: string, input: object) => (name === 'sellRequests.edit' ? Promise.reject(unconfirmed) : list(name, input)))
    await expect(store.editInPlace(store.rows[0]!, { quantity: 3 })).rejects.toBe(unconfirmed)
    expect(store.rows[0]).toMatchObject({ priceCents: 50_000, quantity: 3 })
    await expect(store.edit('sr-1', { priceCents: 48_000 })).rejects.toBe(unconfirmed)
    expect(store.rows[0]).toMatchObject({ priceCents: 48_000, quantity: 3 })
  })
})

describe('sell requests: clear filters after a dashboard link', () => {
  beforeEach(() => {
    setActivePinia(createPinia())
    bridge.call.mockReset()
    bridge.call.mockImplementation(async (name: string) => {
      if (name === 'sellRequests.list') return { rows: [], total: 0, page: 1, take: 25, source: 'snapshot', syncedAt: null, note: null }
      throw new Error(`unexpected ${name}`)
    })
  })
  const lastQuery = () => bridge.call.mock.calls.filter(([name]) => name === 'sellRequests.list').at(-1)![1] as Record<string, unknown>

  it('puts back the sort the seller had before the low-stock link sorted by quantity', async () => {
    const store = useSellRequestsStore()
    await store.setSort('price', 'DESC')
    await store.showOnly({ quantity: { min: null, max: 4 } }, { by: 'quantity', dir: 'ASC' })
    expect(lastQuery()).toMatchObject({ sortBy: 'quantity', sortDir: 'ASC', quantityAtMost: 4 })
    await store.clearFilters()
    expect(store.narrowed).toBe(false)
    expect(lastQuery()).toMatchObject({ sortBy: 'price', sortDir: 'DESC' })
    expect(lastQuery()).not.toHaveProperty('quantityAtMost')
  })

  it('saves the quantity range as quantityAtLeast / quantityAtMost, and restores preferences saved under the old names', async () => {
    const store = useSellRequestsStore()
    await store.showOnly({ quantity: { min: 2, max: 9 } })
    expect(lastQuery()).toMatchObject({ quantityAtLeast: 2, quantityAtMost: 9 })
    expect(lastQuery()).not.toHaveProperty('minQuantity')
    expect(store.preferences()).toMatchObject({ quantityAtLeast: 2, quantityAtMost: 9 })
    expect(store.preferences()).not.toHaveProperty('maxQuantity')
    store.restore({ minQuantity: 3, maxQuantity: 7 })
    await store.refilter()
    expect(lastQuery()).toMatchObject({ quantityAtLeast: 3, quantityAtMost: 7 })
    store.restore({ quantityAtLeast: 4, minQuantity: 3 })
    await store.refilter()
    expect(lastQuery()).toMatchObject({ quantityAtLeast: 4 })
  })

  it('keeps a sort the seller chose after the link', async () => {
    const store = useSellRequestsStore()
    await store.showOnly({ quantity: { min: null, max: 4 } }, { by: 'quantity', dir: 'ASC' })
    await store.setSort('name', 'ASC')
    await store.clearFilters()
    expect(lastQuery()).toMatchObject({ sortBy: 'name', sortDir: 'ASC' })
  })
})
