/** Orders as CSV: one row per item with the order repeated, money as decimals, formulas neutralised. */
import Papa from 'papaparse'
import { describe, expect, it } from 'vitest'
import type { Order, OrderItem } from '../../shared/domain'
import { ordersCsv } from './orderCsv'

const item = (over: Partial<OrderItem>): OrderItem => ({
  id: 'i1',
  name: 'iPhone 15 128GB',
  quantity: 2,
  priceCents: 45_000,
  totalCents: 90_000,
  marginCents: -1_250,
  properties: { color: 'Black', grade: 'A', storage: '128GB', carrier: 'Unlocked', battery: '91%' },
  status: 'awaiting-shipment',
  imageUrl: null,
  warrantyTime: null,
  shippingTime: null,
  shippingMethod: 'Ground',
  shipment: 'SH-1',
  possibleStatuses: ['ready-to-ship'],
  sellRequestId: null,
  tracking: { slugId: 'ups', carrier: 'UPS', trackerId: 't', trackingUrl: 'https://www.ups.com/track?tracknum=1Z', trackingNumber: '1Z999' },
  extra: {},
  ...over
})

const order = (over: Partial<Order>): Order => ({
  id: 'o1',
  orderDate: '2026-11-19T23:30:00.000Z',
  orderNo: '1001',
  status: 'payment-confirmed',
  quantity: 3,
  products: 2,
  totalCents: 129_999,
  amountPaidCents: 129_999,
  items: [item({}), item({ id: 'i2', name: '=HYPERLINK("http://evil.example","click")', quantity: 1, marginCents: null, tracking: null })],
  extra: {},
  ...over
})

const parse = (text: string) => Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { skipEmptyLines: true }).data

describe('orders CSV', () => {
  it('writes a header and one row per item with the order columns repeated', () => {
    const { text, rows } = ordersCsv([order({}), order({ id: 'o2', orderNo: '1002', items: [] })], 'Europe/Berlin')
    expect(text.startsWith('\uFEFF')).toBe(true)
    const [header, ...data] = parse(text)
    expect(rows).toBe(3)
    expect(data).toHaveLength(3)
    expect(header!.slice(0, 7)).toEqual(['Order no.', 'Order date (Europe/Berlin)', 'Order status', 'Order units', 'Order total', 'Amount paid', 'Item'])
    const col = (name: string) => header!.indexOf(name === 'Order date' ? 'Order date (Europe/Berlin)' : name)
    expect(data[0]![col('Order no.')]).toBe('1001')
    expect(data[1]![col('Order no.')]).toBe('1001')
    expect(data[0]![col('Order date')]).toBe('2026-11-20 00:30:00')
    expect(data[0]![col('Order total')]).toBe('1299.99')
    expect(data[0]![col('Unit price')]).toBe('450.00')
    expect(data[0]![col('Margin')]).toBe('-12.50')
    expect(data[1]![col('Margin')]).toBe('')
    expect(data[0]![col('Color')]).toBe('Black')
    expect(data[0]![col('Other properties')]).toBe('battery: 91%')
    expect(data[0]![col('Tracking number')]).toBe('1Z999')
    expect(data[2]![col('Item')]).toBe('')
  })

  it('writes statuses and shipping methods in words, known or not', () => {
    const odd = order({
      status: 'partially-shipped',
      items: [item({ status: 'ready-to-ship', shippingMethod: 'PLATFORM_SHIPPING' }), item({ id: 'i2', status: 'returned-to-sender', shippingMethod: null })]
    })
    const [header, ...data] = parse(ordersCsv([order({}), odd], 'UTC').text)
    const col = (name: string) => header!.indexOf(name)
    expect(data.map((cells) => cells[col('Order status')])).toEqual(['Payment confirmed', 'Payment confirmed', 'Partially shipped', 'Partially shipped'])
    expect(data.map((cells) => cells[col('Item status')])).toEqual(['Awaiting shipment', 'Awaiting shipment', 'Ready to ship', 'Returned to sender'])
    expect(data.map((cells) => cells[col('Shipping method')])).toEqual(['Ground', 'Ground', 'Platform shipping', ''])
  })

  it('writes dates a spreadsheet reads as date-times, in the zone the header names, and money with two decimals', () => {
    const summer = order({ orderDate: '2026-07-01T12:00:05.000Z', totalCents: 100_000, amountPaidCents: 99_950 })
    for (const [zone, shown] of [
      ['UTC', '2026-07-01 12:00:05'],
      ['America/New_York', '2026-07-01 08:00:05'],
      ['Asia/Kolkata', '2026-07-01 17:30:05']
    ] as const) {
      const [header, ...data] = parse(ordersCsv([summer], zone).text)
      expect(header![1]).toBe(`Order date (${zone})`)
      expect(data[0]![1]).toBe(shown)
      expect(data[0]![1]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
    }
    const [header, ...data] = parse(ordersCsv([summer], 'UTC').text)
    expect([data[0]![header!.indexOf('Order total')], data[0]![header!.indexOf('Amount paid')]]).toEqual(['1000.00', '999.50'])
  })

  it('neutralises formulas in text, not plain numbers (the guard: formulaGuard.test.ts)', () => {
    const [header, ...data] = parse(ordersCsv([order({})], 'UTC').text)
    expect(data[1]![header!.indexOf('Item')]).toBe(`'=HYPERLINK("http://evil.example","click")`)
    expect(data[0]![header!.indexOf('Margin')]).toBe('-12.50')
  })
})
