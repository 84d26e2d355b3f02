/**
 * The demo's orders as a seller would recognise them: each as far along its life as its age makes
 * likely, in every order and item status, with its hidden last update when it last moved.
 */
import { describe, expect, it } from 'vitest'
import { DEFAULT_NOW, generateMarketplace } from './seed'

const DAY = 86_400_000
const state = generateMarketplace({ seed: 1, orders: 300, sellRequests: 250 })
const nowMs = DEFAULT_NOW.getTime()
const placed = (order: { orderDateMicros: number }) => order.orderDateMicros / 1000

describe('demo orders', () => {
  it('come in every order status and every item status', () => {
    const statuses = new Set(state.orders.map((o) => o.status))
    expect([...statuses].sort()).toEqual(['canceled', 'delivered', 'payment-confirmed', 'refunded', 'shipped'])
    const itemStatuses = new Set(state.orders.flatMap((o) => o.items.map((i) => i.status)))
    expect([...itemStatuses].sort()).toEqual(['awaiting-shipment', 'canceled', 'delivered', 'ready-to-ship', 'seller-shipped'])
    // Most of a 120-day history has arrived; the newest still wait to ship.
    const count = (status: string) => state.orders.filter((o) => o.status === status).length
    expect(count('delivered')).toBeGreaterThan(state.orders.length / 2)
    expect(count('payment-confirmed')).toBeGreaterThan(10)
  })

  it('have items whose statuses fit their order’s, and moves only where an item can still move', () => {
    const allowed: Record<string, string[]> = {
      'payment-confirmed': ['awaiting-shipment', 'ready-to-ship', 'seller-shipped'],
      shipped: ['seller-shipped'],
      delivered: ['delivered', 'canceled'],
      canceled: ['canceled'],
      refunded: ['canceled']
    }
    for (const order of state.orders) {
      for (const item of order.items) {
        expect(allowed[order.status]).toContain(item.status)
        // A waiting item may move on (the spec allows an empty list: not every one can, at every moment).
        if (['awaiting-shipment', 'ready-to-ship'].includes(item.status))
          for (const move of item.possibleStatuses) expect(['seller-shipped', 'canceled']).toContain(move)
        if (['seller-shipped', 'delivered', 'canceled'].includes(item.status)) expect(item.possibleStatuses).toEqual([])
      }
      if (order.status === 'payment-confirmed') expect(order.items.some((i) => i.status !== 'seller-shipped')).toBe(true)
      if (order.status === 'delivered') expect(order.items.some((i) => i.status === 'delivered')).toBe(true)
    }
    // Some orders are partly shipped, some delivered with an item canceled.
    expect(state.orders.some((o) => o.status === 'payment-confirmed' && o.items.some((i) => i.status === 'seller-shipped'))).toBe(true)
    expect(state.orders.some((o) => o.status === 'delivered' && o.items.some((i) => i.status === 'canceled'))).toBe(true)
  })

  it('were last updated when they last moved: after being placed, before now, within weeks of being placed', () => {
    for (const order of state.orders) {
      expect(order.updatedAt).toBeGreaterThanOrEqual(placed(order))
      expect(order.updatedAt).toBeLessThan(nowMs)
      expect(order.updatedAt - placed(order)).toBeLessThan(25 * DAY)
    }
    // A 90-day window ("created or updated since") holds few orders placed before it: those that moved in it.
    const windowFrom = nowMs - 90 * DAY
    const before = state.orders.filter((o) => placed(o) < windowFrom)
    const keptForAnUpdate = before.filter((o) => o.updatedAt >= windowFrom)
    expect(before.length).toBeGreaterThan(20)
    expect(keptForAnUpdate.length).toBeLessThan(before.length / 2)
    for (const order of keptForAnUpdate) expect(placed(order)).toBeGreaterThan(windowFrom - 25 * DAY)
  })
})
