import { describe, expect, it } from 'vitest'
import { statusLabel, statusOptions, statusTone } from './statusLabels'

describe('status labels', () => {
  it('names the statuses the spec knows and shows any other value as words made from it', () => {
    expect(statusLabel('seller-shipped')).toBe('Shipped')
    expect(statusTone('canceled')).toBe('error')
    expect(statusLabel('on-hold-by-buyer')).toBe('On hold by buyer')
    expect(statusTone('on-hold-by-buyer')).toBe('default')
    expect(statusLabel('')).toBe('—')
  })

  it('does not mistake object properties for statuses', () => {
    expect(statusLabel('constructor')).toBe('Constructor')
    expect(statusLabel('toString')).toBe('toString')
  })

  it('lists filter choices known first in lifecycle order, then unknown ones alphabetically, keeping selected ones', () => {
    const options = statusOptions(['seller-shipped', 'zz-custom', 'awaiting-shipment', 'a-custom'], ['gone-now', 'awaiting-shipment'])
    expect(options.map((o) => o.value)).toEqual(['awaiting-shipment', 'seller-shipped', 'a-custom', 'gone-now', 'zz-custom'])
    expect(options[0]).toEqual({ value: 'awaiting-shipment', label: 'Awaiting shipment' })
    expect(options[2]).toEqual({ value: 'a-custom', label: 'A custom' })
  })
})
