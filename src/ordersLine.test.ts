import type { Chart, Scale, Tick } from 'chart.js'
import { describe, expect, it } from 'vitest'
import { fullEndSteps, ordersAxis, ordersLine } from './ordersLine'

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

describe('the orders line’s first and last steps', () => {
  /** A chart of periods 20 px apart, drawn on a context that records its strokes. */
  function drawn(counts: number[], visible = true) {
    const strokes: [number, number, number, number][] = []
    let at: [number, number] = [0, 0]
    const ctx = {
      save() {},
      restore() {},
      rect() {},
      clip() {},
      beginPath() {},
      stroke() {},
      moveTo: (x: number, y: number) => (at = [x, y]),
      lineTo: (x: number, y: number) => (strokes.push([...at, x, y]), (at = [x, y]))
    }
    const points = counts.map((count, i) => ({ x: 110 + 20 * i, y: 300 - 10 * count }))
    const chart = {
      ctx,
      chartArea: { left: 100, top: 0, right: 100 + 20 * counts.length, bottom: 300, width: 20 * counts.length },
      data: { datasets: [{ type: 'bar', data: counts }, ordersLine(counts, '#f0a020')] },
      getDatasetMeta: (index: number) => ({ data: index === 1 ? points : [] }),
      isDatasetVisible: () => visible
    } as unknown as Chart<'bar' | 'line'>
    ;(fullEndSteps.afterDatasetsDraw as (chart: Chart<'bar' | 'line'>) => void)(chart)
    return strokes
  }

  it('draws the first and the last period’s count across the whole period, to where its bar ends', () => {
    // Periods at x 110, 130, 150: each 20 px wide, from 100 to 160.
    expect(drawn([2, 5, 18])).toEqual([
      [100, 280, 110, 280],
      [150, 120, 160, 120]
    ])
  })

  it('draws a lone period across the whole plot, and nothing for a hidden line', () => {
    expect(drawn([4])).toEqual([
      [100, 260, 110, 260],
      [110, 260, 120, 260]
    ])
    expect(drawn([2, 5, 18], false)).toEqual([])
  })
})
