/**
 * The dashboard's SQL against a snapshot written the way a sync writes it: every figure equals the same
 * figure counted in JavaScript from the orders and listings, with days taken in the seller's zone.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_NOW, generateMarketplace } from '../../sandbox'
import { wireOrder, wireSellRequest } from '../../sandbox/wire'
import type { Order, SellRequest } from '../../shared/domain'
import { orderFromWire, sellRequestFromWire } from '../sellerApi/wire'
import { openSnapshot, type Snapshot, type SyncRun } from '../snapshot/snapshot'
import type { Db } from '../snapshot/database'
import { computeDashboard } from './dashboard'
import { localDaysBetween, startOfLocalDate } from '../localCalendar'
import { openSnapshotReader } from './snapshotReader'

const BASE = 'http://127.0.0.1:1'
const state = generateMarketplace({ seed: 8, orders: 600, sellRequests: 200 })
const wireOrders = state.orders.map((o) => wireOrder(o, BASE))
const wireSellRequests = state.sellRequests.map((s) => wireSellRequest(s, BASE))
const orders: Order[] = wireOrders.map((order) => orderFromWire(order, null))
const sellRequests: SellRequest[] = wireSellRequests.map(sellRequestFromWire)
const nowMs = DEFAULT_NOW.getTime()
const DAY = 86_400_000

let snapshot: Snapshot
let reader: Db

beforeAll(async () => {
  snapshot = openSnapshot(join(mkdtempSync(join(tmpdir(), 'seller-desk-dashboard-')), 'snapshot.sqlite'))
  const run = (resource: 'orders' | 'sellRequests', total: number): SyncRun => ({
    resource,
    startedMs: nowMs,
    windowFromMs: null,
    total,
    pageSize: 1000,
    covered: [[0, total]],
    cursorMs: nowMs,
    round: 1,
    totalDropped: false,
    firstTotal: total
  })
  const orderRun = run('orders', orders.length)
  await snapshot.beginRun(orderRun)
  await snapshot.stagePages(orderRun, [{ rows: orders, wire: { json: JSON.stringify(wireOrders), path: '$' } }])
  await snapshot.commitRun('orders')
  const sellRequestRun = run('sellRequests', sellRequests.length)
  await snapshot.beginRun(sellRequestRun)
  await snapshot.stagePages(sellRequestRun, [{ rows: sellRequests, wire: { json: JSON.stringify(wireSellRequests), path: '$' } }])
  await snapshot.commitRun('sellRequests')
  reader = openSnapshotReader(snapshot.file)
})
afterAll(() => {
  reader.close()
  snapshot.close()
})

/** The local date of an instant, by Intl directly (independent of the code under test). */
const dateFormats = new Map<string, Intl.DateTimeFormat>()
function localDate(ms: number, timeZone: string): string {
  if (!dateFormats.has(timeZone)) dateFormats.set(timeZone, new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }))
  return dateFormats.get(timeZone)!.format(ms)
}
const orderDates = new Map<string, string[]>()
const orderDatesIn = (timeZone: string) => {
  if (!orderDates.has(timeZone))
    orderDates.set(
      timeZone,
      orders.map((order) => localDate(Date.parse(order.orderDate), timeZone))
    )
  return orderDates.get(timeZone)!
}

function expectedFigure(timeZone: string, dates: Set<string>) {
  const local = orderDatesIn(timeZone)
  const matching = orders.filter((_, i) => dates.has(local[i]!))
  return { orders: matching.length, revenueCents: matching.reduce((sum, order) => sum + order.totalCents, 0) }
}

describe.each(['UTC', 'America/New_York', 'Asia/Kolkata', 'Pacific/Chatham'])('dashboard in %s', (timeZone) => {
  const windowFromMs = nowMs - 90 * DAY
  const dashboard = () => computeDashboard(reader, { timeZone, nowMs, windowFromMs, lowStockThreshold: 5, syncedAt: null })

  it('counts today and the last 7 local days', () => {
    const today = localDate(nowMs, timeZone)
    const week = new Set(Array.from({ length: 7 }, (_, i) => localDate(startOfLocalDate(today, timeZone) - i * DAY + DAY / 2, timeZone)))
    const result = dashboard()
    expect(result.today).toMatchObject(expectedFigure(timeZone, new Set([today])))
    expect(result.week).toMatchObject(expectedFigure(timeZone, week))
    expect(result.week.orders).toBeGreaterThan(0)
    expect(localDate(Date.parse(result.today.fromDate), timeZone)).toBe(today)
    expect(localDate(Date.parse(result.today.fromDate) - 1, timeZone)).not.toBe(today)
    expect(localDate(Date.parse(result.today.toDate) + 1, timeZone)).not.toBe(today)
  })

  it('counts the whole week when the synced window is shorter than it', () => {
    const today = localDate(nowMs, timeZone)
    const week = new Set(Array.from({ length: 7 }, (_, i) => localDate(startOfLocalDate(today, timeZone) - i * DAY + DAY / 2, timeZone)))
    const result = computeDashboard(reader, { timeZone, nowMs, windowFromMs: nowMs - 2 * DAY, lowStockThreshold: 5, syncedAt: null })
    expect(result.days.length).toBeLessThanOrEqual(4)
    expect(result.week).toMatchObject(expectedFigure(timeZone, week))
    expect(result.week.orders).toBeGreaterThan(expectedFigure(timeZone, new Set(result.days.map((day) => day.date))).orders)
  })

  it('has one point per local day the window holds whole, today included, each equal to the orders of that day', () => {
    const result = dashboard()
    // A window some whole days long holds as many days, today included: the part of the day it starts in is no day of its own.
    expect(result.days).toHaveLength(90)
    const today = localDate(nowMs, timeZone)
    const firstWhole = localDate(windowFromMs + DAY, timeZone)
    expect(result.days[0]!.date).toBe(firstWhole)
    expect(result.days.at(-1)!.date).toBe(today)
    expect(Date.parse(result.days[0]!.fromDate)).toBeGreaterThanOrEqual(windowFromMs)
    expect(localDate(Date.parse(result.days[0]!.fromDate) - 1, timeZone)).toBe(localDate(windowFromMs, timeZone))
    const expectedDays = localDaysBetween(windowFromMs, nowMs, timeZone)
      .map((day) => day.date)
      .filter((date) => date >= firstWhole)
    expect(result.days.map((day) => day.date)).toEqual(expectedDays)
    // A window starting at a local midnight holds that day whole: it is the first.
    const fromMidnight = computeDashboard(reader, {
      timeZone,
      nowMs,
      windowFromMs: startOfLocalDate(firstWhole, timeZone),
      lowStockThreshold: 5,
      syncedAt: null
    })
    expect(fromMidnight.days.map((day) => day.date)).toEqual(expectedDays)
    for (const day of result.days) expect(day).toMatchObject(expectedFigure(timeZone, new Set([day.date])))
    expect(result.days.reduce((sum, day) => sum + day.orders, 0)).toBe(orderDatesIn(timeZone).filter((date) => date >= expectedDays[0]!).length)
  })

  it('sums item units by status, and counts the orders holding them', () => {
    const result = dashboard()
    for (const figure of [result.awaitingShipment, result.readyToShip]) {
      const items = orders.flatMap((order) => order.items.filter((item) => item.status === figure.status))
      expect(figure.units).toBe(items.reduce((sum, item) => sum + item.quantity, 0))
      expect(figure.orders).toBe(orders.filter((order) => order.items.some((item) => item.status === figure.status)).length)
      expect(figure.units).toBeGreaterThan(0)
    }
  })
})

describe('low stock', () => {
  it('counts listings below the threshold', () => {
    for (const threshold of [1, 5, 20]) {
      const result = computeDashboard(reader, { timeZone: 'UTC', nowMs, windowFromMs: nowMs - 30 * DAY, lowStockThreshold: threshold, syncedAt: null })
      expect(result.lowStock).toEqual({ threshold, listings: sellRequests.filter((s) => s.quantity < threshold).length })
    }
  })
})

describe('local calendar', () => {
  it('gives 23- and 25-hour days across daylight-saving changes', () => {
    const days = localDaysBetween(Date.parse('2026-03-07T12:00:00Z'), Date.parse('2026-11-02T12:00:00Z'), 'America/New_York')
    const length = (date: string) => {
      const day = days.find((d) => d.date === date)!
      return (day.endMs - day.startMs) / 3_600_000
    }
    expect(length('2026-03-08')).toBe(23)
    expect(length('2026-11-01')).toBe(25)
    expect(length('2026-06-01')).toBe(24)
    expect(new Date(days.find((d) => d.date === '2026-06-01')!.startMs).toISOString()).toBe('2026-06-01T04:00:00.000Z')
  })
})
