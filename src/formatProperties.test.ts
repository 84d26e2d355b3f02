import { describe, expect, it } from 'vitest'
import { formatProperties } from './formatProperties'

describe('formatProperties', () => {
  it('puts the known keys first, grade and storage leading (they tell a model’s listings apart), and reads a bare grade as "Grade X"', () => {
    expect(formatProperties({ carrier: 'Unlocked', grade: 'A', storage: '128GB', color: 'Black' })).toBe('Grade A · 128GB · Black · Unlocked')
  })

  it('keeps unknown keys as "key: value" and skips empty values', () => {
    expect(formatProperties({ color: 'Blue', grade: '', batteryHealth: '92%' })).toBe('Blue · batteryHealth: 92%')
  })

  it('does not double a grade that already says so', () => {
    expect(formatProperties({ grade: 'Grade B+' })).toBe('Grade B+')
  })

  it('is empty for no properties', () => {
    expect(formatProperties({})).toBe('')
    expect(formatProperties(null)).toBe('')
  })
})
