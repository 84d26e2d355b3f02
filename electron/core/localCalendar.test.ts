import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { instantOfWallClock, localIsoWithOffset, wallClockOfInstant, zoneOffsetMs } from './localCalendar'
import { csvLocalDateTime } from './spreadsheetFile/sheetFile'

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

const intlFormatters = new Map<string, Intl.DateTimeFormat>()
const intlFormatter = (timeZone: string) =>
  intlFormatters.get(timeZone) ??
  intlFormatters
    .set(
      timeZone,
      new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit'
      })
    )
    .get(timeZone)!

/** The zone's wall clock and offset at an instant as Intl gives them, one date at a time: what the export must write. */
function intlLocalIso(ms: number, timeZone: string): string {
  const parts = Object.fromEntries(
    intlFormatter(timeZone)
      .formatToParts(ms)
      .map((part) => [part.type, part.value])
  )
  const wallText = `${parts['year']}-${parts['month']}-${parts['day']}T${String(Number(parts['hour']) % 24).padStart(2, '0')}:${parts['minute']}:${parts['second']}`
  const offsetMinutes = Math.round((Date.parse(`${wallText}Z`) - Math.floor(ms / 1000) * 1000) / 60_000)
  const abs = Math.abs(offsetMinutes)
  return `${wallText}${offsetMinutes < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`
}

describe("an instant's local time, as the CSV export writes it", () => {
  // 30-minute daylight saving (Lord Howe), half-hour offsets (Kolkata), both hemispheres.
  const ZONES = ['America/New_York', 'Europe/London', 'Australia/Lord_Howe', 'Asia/Kolkata']

  /** Each instant in [fromMs, toMs) at which the zone's offset changes, to the millisecond, by Intl alone. */
  function intlChanges(fromMs: number, toMs: number, timeZone: string): number[] {
    const offset = (ms: number) => intlLocalIso(ms, timeZone).slice(19)
    const changes: number[] = []
    for (let at = fromMs; at < toMs; at += 86_400_000) {
      if (offset(at) === offset(at + 86_400_000)) continue
      let [before, after] = [at, at + 86_400_000]
      while (after - before > 1) {
        const middle = before + Math.floor((after - before) / 2)
        if (offset(middle) === offset(before)) before = middle
        else after = middle
      }
      changes.push(after)
    }
    return changes
  }

  it("is Intl's, to the second, at every minute of the hours around each clock change (the skipped and the repeated hour)", () => {
    for (const zone of ZONES) {
      const changes = intlChanges(Date.UTC(2000, 0, 1), Date.UTC(2032, 0, 1), zone)
      if (zone !== 'Asia/Kolkata') expect(changes.length).toBeGreaterThan(60)
      for (const change of changes) {
        const instants = [change - 1, change, change + 1]
        for (let at = change - 90 * 60_000; at <= change + 90 * 60_000; at += 60_000) instants.push(at, at + 59_999)
        for (const ms of instants) {
          const intl = intlLocalIso(ms, zone)
          if (localIsoWithOffset(ms, zone) !== intl) expect(localIsoWithOffset(ms, zone), `${ms} in ${zone}`).toBe(intl)
          if (csvLocalDateTime(ms, zone) !== intl.slice(0, 19).replace('T', ' ')) expect(csvLocalDateTime(ms, zone)).toBe(intl.slice(0, 19).replace('T', ' '))
        }
      }
    }
  })

  it("is Intl's at any instant from 1970 to 2100, in any order of zones and years", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Date.UTC(2100, 0, 1) }), fc.constantFrom(...ZONES, 'UTC', 'Pacific/Chatham'), (ms, zone) => {
        expect(localIsoWithOffset(ms, zone)).toBe(intlLocalIso(ms, zone))
      }),
      { numRuns: 10_000 }
    )
  })
})
