/** The dashboard: the seller's workspace at a glance. */
import { z } from 'zod'
import { call, timeZoneInput } from './common'

/** A figure of orders over a range of instants (both ends included, like the Orders date filter). */
export interface OrderFigure {
  fromDate: string
  toDate: string
  orders: number
  revenueCents: number
}

/** The seller's workspace at a glance, from the snapshot, in the seller's time zone. */
export interface Dashboard {
  timeZone: string
  /** Today, local midnight to the end of the day. */
  today: OrderFigure
  /** The last 7 local days including today (the Orders list's "Last 7 days"). */
  week: OrderFigure
  /** Units of items in this status and the orders holding them. */
  awaitingShipment: { status: 'awaiting-shipment'; units: number; orders: number }
  readyToShip: { status: 'ready-to-ship'; units: number; orders: number }
  /** Listings with fewer than `threshold` units. */
  lowStock: { threshold: number; listings: number }
  /** One point per local day over the synced window, oldest first: from the first day it holds whole to today. */
  days: ({ date: string } & OrderFigure)[]
  /** When the synced window starts and when the snapshot was last synced (null before the first sync). */
  windowFrom: string | null
  syncedAt: string | null
  /**
   * The last look at the marketplace's orders placed before the window for items still to ship: the
   * orders it kept are in the figures. Null before the first.
   */
  olderOpen: OlderOpenFigure | null
  /**
   * Said when the marketplace was seen writing its zone-less order times in a zone other than UTC (new
   * orders dated hours away from its own clock): times, and the days orders count on, may be off.
   */
  orderTimesNote: string | null
}

export interface OlderOpenFigure {
  /** Every order placed before this instant was looked at (null: no look has ended yet). */
  before: string | null
  /** The last look, ended or not. */
  checkedAt: string
  /** Orders kept for their items still to ship. */
  orders: number
  /** The first whole look: orders the marketplace counted before the window, and how many were read (fewer: cut at the most a look reads). */
  listed: number
  answered: number
  complete: boolean
  /** What stopped the last look (the orders an earlier one kept are still counted); null when it ended. */
  error: string | null
}

export const dashboardCalls = {
  'dashboard.get': call<Dashboard>()(z.object({ timeZone: timeZoneInput }).strict())
} as const
