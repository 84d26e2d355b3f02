import { expect, it } from 'vitest'
import { readOrderClock } from './orderClock'

const H = 3_600_000
const CURSOR = Date.UTC(2026, 10, 30, 12, 0)
const AFTER = CURSOR - 10 * 60_000

it('new orders dated in the stretch they were placed in: read right, no offset', () => {
  expect(readOrderClock([CURSOR - 5 * 60_000], null, AFTER, CURSOR)).toEqual({ readRight: true, clockOffsetMs: null })
  expect(readOrderClock([], null, AFTER, CURSOR)).toEqual({ readRight: null, clockOffsetMs: null })
})

it('new orders dated hours away: the offset to the quarter hour, ahead or behind; none left says 0, not -0', () => {
  // Placed 4 and 9 minutes before the cursor, written 5¾ h ahead.
  expect(readOrderClock([CURSOR - 4 * 60_000 + 5.75 * H, CURSOR - 9 * 60_000 + 5.75 * H], null, AFTER, CURSOR)).toEqual({
    readRight: false,
    clockOffsetMs: 5.75 * H
  })
  expect(readOrderClock([CURSOR - 2 * 60_000 - 5 * H], null, AFTER, CURSOR)).toEqual({ readRight: false, clockOffsetMs: -5 * H })
  // Read in a zone 3 h ahead of UTC (Etc/GMT-3) while the marketplace writes UTC: its clock is on UTC.
  expect(Object.is(readOrderClock([CURSOR - 6 * 60_000 - 3 * H], 'Etc/GMT-3', AFTER, CURSOR).clockOffsetMs, 0)).toBe(true)
})

it('no offset from a stretch wider than two hours, nor from orders that disagree', () => {
  expect(readOrderClock([CURSOR + 5 * H], null, CURSOR - 3 * H, CURSOR)).toEqual({ readRight: false, clockOffsetMs: null })
  expect(readOrderClock([CURSOR - 5 * 60_000 + 5 * H, CURSOR - 5 * 60_000 + 8 * H], null, AFTER, CURSOR)).toEqual({ readRight: false, clockOffsetMs: null })
})

it('orders too spread to pin an offset keep one known before that they allow, and tell none where they do not', () => {
  // Placed in the three hours before the cursor, written 5 h behind: the offsets they allow run from 5 h behind to 2 h behind.
  expect(readOrderClock([CURSOR - 5 * 60_000 - 5 * H], null, CURSOR - 3 * H, CURSOR, -5 * H)).toEqual({ readRight: false, clockOffsetMs: -5 * H })
  expect(readOrderClock([CURSOR - 5 * 60_000 - 5 * H], null, CURSOR - 3 * H, CURSOR, 5.5 * H)).toEqual({ readRight: false, clockOffsetMs: null })
  // Read right: an offset known before is not told.
  expect(readOrderClock([CURSOR - 5 * 60_000], null, AFTER, CURSOR, -5 * H)).toEqual({ readRight: true, clockOffsetMs: null })
})
