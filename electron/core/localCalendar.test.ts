import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { instantOfWallClock, wallClockOfInstant, zoneOffsetMs } from './localCalendar'

const wall = (text: string) => Date.parse(`${text}Z`)
const iso = (ms: number) => new Date(ms).toISOString()

describe('wall clocks in a zone', () => {
  it('reads a wall-clock time as the instant it names in the zone', () => {
    expect(iso(instantOfWallClock(wall('2026-11-27T10:00:00.000'), 'Asia/Kolkata'))).toBe('2026-11-27T04:30:00.000Z')
    expect(iso(instantOfWallClock(wall('2026-11-27T10:00:00.000'), 'America/New_York'))).toBe('2026-11-27T15:00:00.000Z')
    expect(iso(instantOfWallClock(wall('2026-07-01T10:00:00.000'), 'America/New_York'))).toBe('2026-07-01T14:00:00.000Z')
    expect(iso(instantOfWallClock(wall('2026-01-15T00:30:00.000'), 'Australia/Sydney'))).toBe('2026-01-14T13:30:00.000Z')
    expect(iso(instantOfWallClock(wall('2026-11-27T10:00:00.000'), 'UTC'))).toBe('2026-11-27T10:00:00.000Z')
  })

  it('a time a clock change skips or repeats still names one instant', () => {
    // New York, 2026-03-08: 02:00 EST became 03:00 EDT; 02:30 never showed, and is read at EST.
    expect(iso(instantOfWallClock(wall('2026-03-08T02:30:00.000'), 'America/New_York'))).toBe('2026-03-08T07:30:00.000Z')
    // 2026-11-01: 01:30 showed twice; the first (EDT) is taken.
    expect(iso(instantOfWallClock(wall('2026-11-01T01:30:00.000'), 'America/New_York'))).toBe('2026-11-01T05:30:00.000Z')
  })

  it('the wall clock at an instant reads back as that instant, wherever the hour is not repeated', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2035, 0, 1) }),
        fc.constantFrom('Asia/Kolkata', 'America/New_York', 'Europe/Berlin', 'Australia/Sydney', 'Pacific/Chatham', 'UTC'),
        (ms, zone) => {
          const at = ms - (ms % 1000)
          // The offsets found once per stretch are the zone's own at every instant.
          expect(wallClockOfInstant(at, zone) - at).toBe(zoneOffsetMs(at, zone))
          const back = instantOfWallClock(wallClockOfInstant(at, zone), zone)
          // In a repeated hour the wall clock names two instants; the first is taken, an hour (or 30 min) earlier.
          expect([0, 3_600_000, 1_800_000]).toContain(at - back)
          if (at - back !== 0) expect(wallClockOfInstant(back, zone)).toBe(wallClockOfInstant(at, zone))
        }
      ),
      { numRuns: 2000 }
    )
  })
})
