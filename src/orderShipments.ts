/**
 * An order's items by shipment, as the drawer shows them: the shipping method, shipment and tracking
 * are said once per shipment instead of on every item. Items belong together when they share all
 * three (a shipment whose items were sent differently shows as one group per way, so nothing is
 * hidden); items without a shipment form their own group. Groups keep the order of their first item.
 */
import type { OrderItem, TrackingInformation } from '@shared/domain'

export interface ShipmentGroup {
  /** Stable within the order, for keys and test ids. */
  key: string
  shipment: string | null
  shippingMethod: string | null
  tracking: TrackingInformation | null
  items: OrderItem[]
}

const trackingKey = (tracking: TrackingInformation | null) => (tracking ? [tracking.carrier, tracking.trackingNumber, tracking.trackingUrl].join('\u0001') : '')

export function shipmentsOf(items: readonly OrderItem[]): ShipmentGroup[] {
  const groups = new Map<string, ShipmentGroup>()
  for (const item of items) {
    const key = [item.shipment ?? '', item.shippingMethod ?? '', trackingKey(item.tracking)].join('\u0000')
    const group = groups.get(key)
    if (group) group.items.push(item)
    else groups.set(key, { key, shipment: item.shipment, shippingMethod: item.shippingMethod, tracking: item.tracking, items: [item] })
  }
  return [...groups.values()]
}
