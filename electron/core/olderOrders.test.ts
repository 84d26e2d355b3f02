/**
 * Older orders read from marketplaces that page differently where the spec says nothing: a cap on
 * `take`, a page size of their own, a page past the end answered empty, again or refused, a count off
 * by some, pages cut short, order times in another zone. Whatever they do, the orders placed in the
 * range are the ones kept, and a read that ended short of the marketplace's count says so.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { startSandbox, type Sandbox, type SandboxOptions } from '../sandbox'
import { createOlderOrders } from './olderOrders'
import { createSellerApi } from './sellerApi'

const KEY = 'sk_test_older_orders_5521'
const DAY = 86_400_000
let sandbox: Sandbox | undefined

afterEach(async () => {
  await sandbox?.close()
  sandbox = undefined
})

async function marketplace(options: SandboxOptions = {}) {
  sandbox = await startSandbox({ apiKey: KEY, seed: 9, orders: 400, sellRequests: 5, now: new Date(), ...options })
  const api = createSellerApi({ baseUrl: sandbox.baseUrl, apiKey: KEY, backoffMs: 5, retries: 1, timeoutMs: 5_000 })
  let requests = 0
  const counted = { ...api, listOrders: (...args: Parameters<typeof api.listOrders>) => (requests++, api.listOrders(...args)) }
  return { sandbox, api: counted, requests: () => requests }
}

/** The ids of the orders the marketplace holds placed in [from, to], newest first. */
function placedIn(sandbox: Sandbox, fromMs: number, toMs: number, offsetMinutes = 0) {
  // A marketplace writing local time: its order time, read as UTC, is that far off the real instant.
  const shown = (micros: number) => micros / 1000 + offsetMinutes * 60_000
  return sandbox.state.orders
    .filter((o) => shown(o.orderDateMicros) >= fromMs && shown(o.orderDateMicros) <= toMs)
    .sort((a, b) => b.orderDateMicros - a.orderDateMicros)
    .map((o) => o.id)
}

const range = () => ({ fromMs: Date.now() - 150 * DAY, toMs: Date.now() - 40 * DAY })

describe('orders placed in an older range', () => {
  const variants: [string, SandboxOptions['variant']][] = [
    ['the spec’s paging', {}],
    ['take capped at 30', { maxTake: 30 }],
    ['a page size of its own (17)', { fixedTake: 17 }],
    ['a page past the end answered again', { pastEnd: 'last' }],
    ['a page past the end refused', { pastEnd: 'refused', totalOffset: 5 }],
    ['a page past the end not found', { pastEnd: 'not-found', totalOffset: 5 }],
    ['a total as a number', { totalForm: 'number' }],
    ['order times three hours ahead of UTC', { orderTimeOffsetMinutes: 180 }]
  ]
  for (const [name, variant] of variants) {
    it(`are every order placed in it, newest first: ${name}`, async () => {
      const { sandbox, api } = await marketplace({ variant })
      const { fromMs, toMs } = range()
      const read = await createOlderOrders(api, { take: () => 50 }).read({ fromMs, toMs })
      const expected = placedIn(sandbox, fromMs, toMs, variant?.orderTimeOffsetMinutes ?? 0)
      expect(expected.length).toBeGreaterThan(50)
      expect(read.placed.map((o) => o.id)).toEqual(expected)
      // A count that overcounts cannot be told from rows lost: said, not hidden.
      expect(read.complete).toBe(!variant?.totalOffset)
      expect(read.capped).toBe(false)
    })
  }

  it('pages cut short are asked again: every order placed in the range is read, and the read is whole', async () => {
    const { sandbox, api } = await marketplace({ variant: { shortPageRate: 0.5, variantSeed: 3 } })
    const { fromMs, toMs } = range()
    const read = await createOlderOrders(api, { take: () => 50 }).read({ fromMs, toMs })
    expect(read.placed.map((o) => o.id)).toEqual(placedIn(sandbox, fromMs, toMs))
    expect(read).toMatchObject({ complete: true, answered: read.listed })
  })

  it('a take capped at 10 and a count 3 short, from before the first order: every page is read to a short one, none is lost', async () => {
    // Every page is "shorter than asked" against a cap, so the count reached is no end while pages come whole.
    // 101 orders listed, counted as 98: the tenth page, whole, reaches the count (the last order lost, before).
    const { sandbox, api } = await marketplace({ orders: 1_500, variant: { maxTake: 10, totalOffset: -3 } })
    const fromMs = Date.now() - 200 * DAY
    const toMs = Date.now() - 104 * DAY
    const read = await createOlderOrders(api, { take: () => 100 }).read({ fromMs, toMs })
    const expected = placedIn(sandbox, fromMs, toMs)
    expect(expected.length).toBeGreaterThan(50)
    expect(read.placed.map((o) => o.id)).toEqual(expected)
    expect(read.answered).toBe(read.listed + 3)
  })

  describe.each([
    { order: 'in a new order on each request', ties: { tiesShuffledPerRequest: true } },
    { order: 'in an order set by the page asked', ties: { tiesOrderedByPage: true } }
  ])('orders updated at one time, ties $order (the spec names no tie-breaker)', ({ ties }) => {
    it('every order placed in the range is read, and the read is whole', async () => {
      const { sandbox, api } = await marketplace({ orders: 1_500, variant: ties })
      sandbox.changeTogether('orders', 1_200, Date.now() - 3_600_000)
      const { fromMs, toMs } = range()
      const read = await createOlderOrders(api, { take: () => 50 }).read({ fromMs, toMs })
      const expected = placedIn(sandbox, fromMs, toMs)
      expect(expected.length).toBeGreaterThan(100)
      expect(read.placed.map((o) => o.id)).toEqual(expected)
      expect(read).toMatchObject({ complete: true, answered: read.listed })
    }, 60_000)

    it('a marketplace that refuses pages smaller than its own: the read ends, and says what it could read, never more', async () => {
      const { sandbox, api } = await marketplace({ orders: 1_500, variant: { ...ties, minTake: 50 } })
      sandbox.changeTogether('orders', 1_200, Date.now() - 3_600_000)
      const { fromMs, toMs } = range()
      const read = await createOlderOrders(api, { take: () => 50 }).read({ fromMs, toMs })
      const expected = new Set(placedIn(sandbox, fromMs, toMs))
      expect(read.placed.every((order) => expected.has(order.id))).toBe(true)
      expect(read.complete).toBe(read.placed.length === expected.size)
    }, 60_000)

    it('stops at its cap and says so, reading again or not', async () => {
      const { sandbox, api } = await marketplace({ orders: 1_500, variant: ties })
      sandbox.changeTogether('orders', 1_200, Date.now() - 3_600_000)
      const read = await createOlderOrders(api, { take: () => 50, max: 600 }).read(range())
      expect(read.listed).toBeGreaterThan(600)
      expect(read.answered).toBeLessThanOrEqual(600 + 50)
      expect(read).toMatchObject({ capped: true, complete: false })
    }, 60_000)

    it('orders among them that cannot be read and carry no id: never counted twice, so a read missing orders never says it is whole', async () => {
      const { sandbox, api } = await marketplace({ orders: 1_500, variant: ties })
      const tied = sandbox.changeTogether('orders', 1_200, Date.now() - 3_600_000)
      const spoiled = new Set(tied.slice(0, 40))
      sandbox.spoilRows('orders', [...spoiled], 'no-id')
      const { fromMs, toMs } = range()
      const read = await createOlderOrders(api, { take: () => 50 }).read({ fromMs, toMs })
      const got = new Set(read.placed.map((order) => order.id))
      const missed = placedIn(sandbox, fromMs, toMs).filter((id) => !spoiled.has(id) && !got.has(id))
      expect(read.answered).toBeLessThanOrEqual(read.listed)
      if (read.complete) expect(missed).toEqual([])
      else expect(read.answered).toBeLessThan(read.listed)
    }, 60_000)
  })

  it('an order placed while a range up to now is read moves the rest a place: every order is read, and the read is whole', async () => {
    const { sandbox, api } = await marketplace({ orders: 1_500 })
    const fromMs = Date.now() - 300 * DAY
    const placedBefore = placedIn(sandbox, fromMs, Date.now())
    let placed = false
    const placing = {
      ...api,
      listOrders: async (...args: Parameters<typeof api.listOrders>) => {
        const answer = await api.listOrders(...args)
        if (!placed && args[0]?.page === 3) {
          placed = true
          sandbox.addOrders(1)
        }
        return answer
      }
    }
    const read = await createOlderOrders(placing, { take: () => 50 }).read({ fromMs, toMs: undefined })
    expect(placed).toBe(true)
    const got = new Set(read.placed.map((order) => order.id))
    expect(placedBefore.filter((id) => !got.has(id))).toEqual([])
    expect(read.complete).toBe(true)
  })

  it('stops at its cap and says so', async () => {
    const { api } = await marketplace()
    const { fromMs, toMs } = range()
    const read = await createOlderOrders(api, { take: () => 20, max: 60 }).read({ fromMs, toMs })
    expect(read.answered).toBe(60)
    expect(read.capped).toBe(true)
    expect(read.complete).toBe(false)
  })

  it('reads a range once a minute: page turns and an export reuse it; one that ended short, for 10 seconds; a failed read is not kept', async () => {
    const { sandbox, api, requests } = await marketplace()
    let clock = Date.now()
    const older = createOlderOrders(api, { take: () => 100, now: () => clock })
    const { fromMs, toMs } = range()
    await older.read({ fromMs, toMs })
    const once = requests()
    await older.read({ fromMs, toMs })
    expect(requests()).toBe(once)
    clock += 61_000
    await older.read({ fromMs, toMs })
    expect(requests()).toBe(2 * once)

    // A read that ended short is kept for a moment only: the list tells the seller to try again in one.
    sandbox.setVariant({ totalOffset: 5 })
    clock += 61_000
    expect((await older.read({ fromMs, toMs })).complete).toBe(false)
    const short = requests()
    clock += 5_000
    await older.read({ fromMs, toMs })
    expect(requests()).toBe(short)
    clock += 6_000
    sandbox.setVariant({ totalOffset: 0 })
    expect((await older.read({ fromMs, toMs })).complete).toBe(true)
    expect(requests()).toBeGreaterThan(short)

    sandbox.setFaults({ errorRate: 1 })
    clock += 61_000
    await expect(older.read({ fromMs, toMs })).rejects.toMatchObject({ kind: 'server' })
    sandbox.setFaults({ errorRate: 0 })
    const again = await older.read({ fromMs, toMs })
    expect(again.complete).toBe(true)
  })
})
