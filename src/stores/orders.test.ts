import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'

const bridge = vi.hoisted(() => ({ call: vi.fn() }))

vi.mock('../bridge/sellerDesk', () => ({
  call: bridge.call,
  onEvent: () => () => undefined,
  messageOf: (error: unknown) => (error instanceof Error ? error.message : 'Something went wrong. Try again.')
}))

const { useOrdersStore } = await import('./orders')
const { formatTime } = await import('../formatTime')

/** An answer to orders.list with no rows, these fields as given. */
const listAnswer = (fields: Record<string, unknown>) => ({
  rows: [],
  total: 0,
  page: 1,
  take: 25,
  source: 'snapshot',
  syncedAt: null,
  note: null,
  itemUnits: null,
  windowFrom: '2026-09-03T16:19:42.000Z',
  ...fields
})

describe('orders: clear filters after a link', () => {
  beforeEach(() => {
    setActivePinia(createPinia())
    bridge.call.mockReset()
    bridge.call.mockImplementation(async (name: string) => {
      if (name === 'orders.list') return { rows: [], total: 0, page: 1, take: 25, source: 'snapshot', syncedAt: null, note: null }
      throw new Error(`unexpected ${name}`)
    })
  })
  const lastQuery = () => bridge.call.mock.calls.filter(([name]) => name === 'orders.list').at(-1)![1] as Record<string, unknown>

  it('drops the filters and the sort the link set, back to the seller’s own sort', async () => {
    const store = useOrdersStore()
    await store.setSort('date', 'ASC')
    await store.showOnly({ itemStatuses: ['awaiting-shipment'] }, { by: 'total', dir: 'DESC' })
    expect(lastQuery()).toMatchObject({ sortBy: 'total', sortDir: 'DESC', itemStatuses: ['awaiting-shipment'] })
    await store.clearFilters()
    expect(lastQuery()).toMatchObject({ sortBy: 'date', sortDir: 'ASC' })
    expect(lastQuery()).not.toHaveProperty('itemStatuses')
  })

  it('a link without a sort leaves the sort alone, and so does clearing it', async () => {
    const store = useOrdersStore()
    await store.setSort('total', 'ASC')
    await store.showOnly({ datePreset: 'today' })
    await store.clearFilters()
    expect(lastQuery()).toMatchObject({ sortBy: 'total', sortDir: 'ASC' })
    expect(lastQuery()).not.toHaveProperty('fromDate')
  })
})

describe('orders: item units of the whole list', () => {
  beforeEach(() => {
    setActivePinia(createPinia())
    bridge.call.mockReset()
  })

  it('keeps the units that came with the latest answer only', async () => {
    const answers: ((value: unknown) => void)[] = []
    bridge.call.mockImplementation((name: string) => {
      if (name !== 'orders.list') throw new Error(`unexpected ${name}`)
      return new Promise((resolve) => answers.push(resolve))
    })
    const page = (units: number | null) => listAnswer({ itemUnits: units === null ? null : { orders: 2, units: [{ status: 'awaiting-shipment', units }] } })
    const store = useOrdersStore()
    const older = store.setItemStatuses(['awaiting-shipment'])
    const newer = store.search('iphone')
    answers[1]!(page(7))
    answers[0]!(page(99))
    await Promise.all([older, newer])
    expect(store.itemUnits).toEqual({ orders: 2, units: [{ status: 'awaiting-shipment', units: 7 }] })

    const cleared = store.setItemStatuses([])
    answers[2]!(page(null))
    await cleared
    expect(store.itemUnits).toBeNull()
  })
})

describe('orders: the note names the kept window’s start in the seller’s time zone', () => {
  beforeEach(() => {
    setActivePinia(createPinia())
    bridge.call.mockReset()
  })

  it('says the instant the core names it by as every time on screen is said: local, the zone named', async () => {
    const windowFrom = '2026-09-03T16:19:42.000Z'
    bridge.call.mockImplementation(async (name: string) => {
      if (name !== 'orders.list') throw new Error(`unexpected ${name}`)
      return listAnswer({
        note: `This computer keeps the orders placed or updated in the last 90 days: the 16 orders placed before ${windowFrom} are here because they were updated since or still have items to ship.`,
        windowFrom
      })
    })
    const store = useOrdersStore()
    await store.load()
    expect(store.note).toBe(
      `This computer keeps the orders placed or updated in the last 90 days: the 16 orders placed before ${formatTime(windowFrom)} are here because they were updated since or still have items to ship.`
    )
    expect(formatTime(windowFrom)).toMatch(/^Sep 3, 2026, \d{1,2}:\d\d [AP]M \S+$/)
  })
})
