import type { Scale, Tick } from 'chart.js'
import { describe, expect, it } from 'vitest'
import { ordersAxis, ordersLine } from './ordersLine'

describe('the chart’s orders line', () => {
  it('steps between whole counts instead of curving through fractional orders', () => {
    const line = ordersLine([0, 3, 1, 4], '#f0a020')
    expect(line.stepped).toBe('middle')
    expect(line).not.toHaveProperty('cubicInterpolationMode')
    expect(line).not.toHaveProperty('tension')
    expect(line.data).toEqual([0, 3, 1, 4])
  })

  it('labels its axis in whole orders only', () => {
    const axis = ordersAxis('#777')
    expect(axis.ticks).toMatchObject({ precision: 0 })
    const label = (value: number) =>
      (axis.ticks!.callback as (this: Scale, value: number, index: number, ticks: Tick[]) => unknown).call({} as Scale, value, 0, [])
    expect(label(2)).toBe('2')
    expect(label(0.5)).toBeNull()
  })
})
