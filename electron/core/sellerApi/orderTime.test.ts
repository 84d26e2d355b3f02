import fc from 'fast-check'
import { expect, it } from 'vitest'
import { instantOfOrderTime, orderTimeOf, orderWallClockOf } from './orderTime'

it('reads an order time as the wall clock of the zone named (null: UTC), a zoned one at its own zone, and writes an instant back the same way', () => {
  expect(instantOfOrderTime('2026-11-19T14:03:22.123456', null)).toBe('2026-11-19T14:03:22.123Z')
  expect(instantOfOrderTime('2026-11-19T14:03:22.123456', 'Asia/Kolkata')).toBe('2026-11-19T08:33:22.123Z')
  expect(instantOfOrderTime('2026-11-19T14:03:22', 'America/New_York')).toBe('2026-11-19T19:03:22.000Z')
  expect(instantOfOrderTime('2026-11-19T14:03:22Z', 'Asia/Kolkata')).toBe('2026-11-19T14:03:22.000Z')
  expect(instantOfOrderTime('2026-02-31T00:00:00', 'Asia/Kolkata')).toBeNull()
  expect(orderTimeOf('2026-11-19T08:33:22.123Z', 'Asia/Kolkata')).toBe('2026-11-19T14:03:22.123')
  expect(orderTimeOf('2026-11-19T19:03:22.000Z', 'America/New_York')).toBe('2026-11-19T14:03:22.000')
  expect(orderTimeOf('2026-11-19T14:03:22.123Z', null)).toBe('2026-11-19T14:03:22.123')
  expect(orderWallClockOf(Date.parse('2026-11-19T08:33:22.123Z'), 'Asia/Kolkata')).toBe(Date.parse('2026-11-19T14:03:22.123Z'))
})

it('an instant written as an order time reads back as itself, but in the hour a clock change repeats', () => {
  const zones = [null, 'Asia/Kolkata', 'America/New_York', 'Europe/Berlin', 'Australia/Lord_Howe', 'Asia/Kathmandu']
  fc.assert(
    fc.property(fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2040, 0, 1) }), fc.constantFrom(...zones), (ms, zone) => {
      const instant = new Date(ms).toISOString()
      const back = instantOfOrderTime(orderTimeOf(instant, zone), zone)!
      if (back !== instant) expect(orderTimeOf(back, zone)).toBe(orderTimeOf(instant, zone))
    }),
    { numRuns: 2_000 }
  )
})
