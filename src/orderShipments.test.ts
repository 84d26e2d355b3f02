import type { OrderItem } from '@shared/domain'
import { describe, expect, it } from 'vitest'
import { shipmentsOf } from './orderShipments'

const tracking = (trackingNumber: string) => ({
  slugId: 'ups',
  carrier: 'UPS',
  trackerId: 'trk_1',
  trackingUrl: `https://www.ups.com/track?tracknum=${trackingNumber}`,
  trackingNumber
})

const item = (id: string, over: Partial<OrderItem> = {}): OrderItem => ({
  id,
  name: `Phone ${id}`,
  quantity: 1,
  priceCents: 100,
  totalCents: 100,
  marginCents: null,
  properties: {},
  status: 'awaiting-shipment',
  imageUrl: null,
  warrantyTime: null,
  shippingTime: null,
  shippingMethod: 'PLATFORM_SHIPPING',
  shipment: 'shp_a',
  possibleStatuses: [],
  sellRequestId: null,
  tracking: tracking('1Z1'),
  extra: {},
  ...over
})

describe('shipments of an order', () => {
  it('puts items of one shipment together, shipping method and tracking said once', () => {
    const groups = shipmentsOf([item('1'), item('2', { status: 'ready-to-ship' }), item('3')])
    expect(groups).toHaveLength(1)
    expect(groups[0]).toMatchObject({ shipment: 'shp_a', shippingMethod: 'PLATFORM_SHIPPING', tracking: tracking('1Z1') })
    expect(groups[0]!.items.map((i) => i.id)).toEqual(['1', '2', '3'])
  })

  it('keeps shipments apart, in the order of their first item, and items without a shipment as their own group', () => {
    const groups = shipmentsOf([
      item('1'),
      item('2', { shipment: 'shp_b', tracking: tracking('1Z2') }),
      item('3', { shipment: null, tracking: null, shippingMethod: null }),
      item('4')
    ])
    expect(groups.map((g) => [g.shipment, g.items.map((i) => i.id)])).toEqual([
      ['shp_a', ['1', '4']],
      ['shp_b', ['2']],
      [null, ['3']]
    ])
    expect(new Set(groups.map((g) => g.key)).size).toBe(3)
  })

  it('shows a shipment whose items were sent differently once per way, so no tracking number is hidden', () => {
    const groups = shipmentsOf([item('1'), item('2', { tracking: tracking('1Z9') }), item('3', { shippingMethod: 'UPS_GROUND' })])
    expect(groups.map((g) => [g.shipment, g.tracking?.trackingNumber, g.shippingMethod])).toEqual([
      ['shp_a', '1Z1', 'PLATFORM_SHIPPING'],
      ['shp_a', '1Z9', 'PLATFORM_SHIPPING'],
      ['shp_a', '1Z1', 'UPS_GROUND']
    ])
  })

  it('has no groups for an order without items', () => {
    expect(shipmentsOf([])).toEqual([])
  })
})
