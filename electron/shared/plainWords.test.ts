import { describe, expect, it } from 'vitest'
import {
  batchResultLabel,
  inSentence,
  itemStatusSummary,
  readableCode,
  shippingMethodLabel,
  statusHelp,
  statusLabel,
  statusList,
  statusOptions,
  statusTone,
  unitsByStatus
} from './plainWords'

describe('readableCode', () => {
  it('turns codes into words', () => {
    expect(readableCode('closed')).toBe('Closed')
    expect(readableCode('on-hold-by-buyer')).toBe('On hold by buyer')
    expect(readableCode('PLATFORM_SHIPPING')).toBe('Platform shipping')
    expect(readableCode('UPS_GROUND')).toBe('UPS ground')
    expect(readableCode('DHL')).toBe('DHL')
  })

  it('leaves text that already reads as words, and odd values, as sent', () => {
    expect(readableCode('In Transit')).toBe('In Transit')
    expect(readableCode('DHLExpress')).toBe('DHLExpress')
    expect(readableCode('---')).toBe('---')
    expect(readableCode('')).toBe('')
  })
})

describe('status labels', () => {
  it('names the statuses the spec knows and shows any other value as words made from it', () => {
    expect(statusLabel('seller-shipped')).toBe('Shipped')
    expect(statusLabel('payment-confirmed')).toBe('Payment confirmed')
    expect(statusLabel('open')).toBe('Open')
    expect(statusTone('canceled')).toBe('error')
    expect(statusLabel('partially-shipped')).toBe('Partially shipped')
    expect(statusLabel('on-hold-by-buyer')).toBe('On hold by buyer')
    expect(statusTone('on-hold-by-buyer')).toBe('default')
    expect(statusLabel('')).toBe('—')
  })

  it('does not mistake object properties for statuses', () => {
    expect(statusLabel('constructor')).toBe('Constructor')
    expect(statusLabel('toString')).toBe('toString')
    expect(statusHelp('constructor')).toBeNull()
  })

  it('lists filter choices known first in lifecycle order, then unknown ones alphabetically, keeping selected ones', () => {
    const options = statusOptions(['seller-shipped', 'zz-custom', 'awaiting-shipment', 'a-custom'], ['gone-now', 'awaiting-shipment'])
    expect(options.map((o) => o.value)).toEqual(['awaiting-shipment', 'seller-shipped', 'a-custom', 'gone-now', 'zz-custom'])
    expect(options[0]).toEqual({ value: 'awaiting-shipment', label: 'Awaiting shipment' })
    expect(options[2]).toEqual({ value: 'a-custom', label: 'A custom' })
  })

  it('says where an item may move next in words', () => {
    expect(statusList(['seller-shipped', 'canceled'])).toBe('Shipped, Canceled')
    expect(statusList(['returned-to-sender'])).toBe('Returned to sender')
  })

  it('explains the two shipping steps a seller acts on', () => {
    expect(statusHelp('awaiting-shipment')).toMatch(/prepare/)
    expect(statusHelp('ready-to-ship')).toMatch(/carrier/)
    expect(statusHelp('partially-shipped')).toBeNull()
  })
})

describe('item statuses of an order', () => {
  const item = (status: string, quantity: number) => ({ status, quantity })

  it('counts units per status, in lifecycle order, unknown ones after', () => {
    const items = [item('ready-to-ship', 1), item('partially-shipped', 4), item('awaiting-shipment', 1), item('awaiting-shipment', 1)]
    expect(unitsByStatus(items)).toEqual([
      { status: 'awaiting-shipment', units: 2 },
      { status: 'ready-to-ship', units: 1 },
      { status: 'partially-shipped', units: 4 }
    ])
    expect(itemStatusSummary(items)).toBe('2 awaiting shipment · 1 ready to ship · 4 partially shipped')
  })

  it('adds up to the order’s units and says nothing for an order without items', () => {
    const items = [item('awaiting-shipment', 1200), item('ready-to-ship', 3)]
    expect(unitsByStatus(items).reduce((sum, s) => sum + s.units, 0)).toBe(1203)
    expect(itemStatusSummary(items)).toBe('1,200 awaiting shipment · 3 ready to ship')
    expect(itemStatusSummary([])).toBe('')
  })

  it('keeps acronyms and text as sent when used inside a sentence', () => {
    expect(inSentence('Awaiting shipment')).toBe('awaiting shipment')
    expect(inSentence('UPS ground')).toBe('UPS ground')
    expect(inSentence('toString')).toBe('toString')
  })
})

describe('other codes', () => {
  it('names shipping methods and bulk-apply results', () => {
    expect(shippingMethodLabel('PLATFORM_SHIPPING')).toBe('Platform shipping')
    expect(shippingMethodLabel(null)).toBe('')
    expect(batchResultLabel('cancelled')).toBe('Canceled')
    expect(batchResultLabel('failed')).toBe('Failed')
  })
})
