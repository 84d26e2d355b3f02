import { describe, expect, it } from 'vitest'
import { offersFailedExport } from './failedExport'

/** A batch's counts of the changes that did not apply. */
const ended = (failed: number, conflict: number, cancelled: number) => ({ failed, conflict, cancelled })

describe('offersFailedExport', () => {
  it('offers the file when a change failed or met a conflict', () => {
    expect(offersFailedExport(ended(2, 0, 0))).toBe(true)
    expect(offersFailedExport(ended(0, 1, 0))).toBe(true)
    expect(offersFailedExport(ended(3, 1, 4))).toBe(true)
  })

  it('offers none for a batch whose only changes that did not apply were canceled, nor for one that applied whole', () => {
    expect(offersFailedExport(ended(0, 0, 16))).toBe(false)
    expect(offersFailedExport(ended(0, 0, 0))).toBe(false)
  })
})
