/**
 * How the dashboard chart draws orders: a count per day (or week, month) is whole, so the line steps
 * from one period's count to the next halfway between them, flat across each period, instead of a
 * curve whose slopes read as fractional orders between days; its axis counts in whole orders only.
 * Each period's count spans its whole period, the first and the last too (fullEndSteps).
 */
import type { Chart, ChartDataset, Plugin, ScaleOptions } from 'chart.js'

export function ordersLine(counts: number[], color: string): ChartDataset<'line', number[]> {
  return {
    type: 'line',
    label: 'Orders',
    data: counts,
    borderColor: color,
    backgroundColor: color,
    pointRadius: counts.length > 60 ? 0 : 2,
    pointHoverRadius: 4,
    borderWidth: 2,
    stepped: 'middle',
    yAxisID: 'orders',
    order: 1
  }
}

/** Whole-number ticks: never "0.5 orders". */
export function ordersAxis(textColor: string): ScaleOptions<'linear'> {
  return {
    type: 'linear',
    position: 'right',
    beginAtZero: true,
    ticks: { color: textColor, precision: 0, callback: (value) => (Number.isInteger(Number(value)) ? String(value) : null) },
    grid: { display: false },
    border: { display: false }
  } as ScaleOptions<'linear'>
}

/**
 * Chart.js draws a line from its first point to its last, so with steps halfway between periods the first
 * and the last period got half a step, at the plot's edge: today's orders (the last) were a stub a few
 * pixels wide beside every other day's full step. This draws the line's two ends out by half a period
 * (to where the periods' bars end), within the plot.
 */
export const fullEndSteps: Plugin<'bar' | 'line'> = {
  id: 'fullEndSteps',
  afterDatasetsDraw(chart: Chart<'bar' | 'line'>) {
    chart.data.datasets.forEach((dataset, index) => {
      const line = dataset as ChartDataset<'line', number[]>
      const points = chart.getDatasetMeta(index).data
      if (line.type !== 'line' || line.stepped !== 'middle' || !chart.isDatasetVisible(index) || points.length === 0) return
      const first = points[0]!
      const last = points[points.length - 1]!
      const half = points.length > 1 ? (points[1]!.x - first.x) / 2 : chart.chartArea.width / 2
      const { ctx, chartArea } = chart
      ctx.save()
      ctx.beginPath()
      ctx.rect(chartArea.left, chartArea.top, chartArea.right - chartArea.left, chartArea.bottom - chartArea.top)
      ctx.clip()
      ctx.strokeStyle = String(line.borderColor)
      ctx.lineWidth = Number(line.borderWidth ?? 2)
      ctx.beginPath()
      ctx.moveTo(first.x - half, first.y)
      ctx.lineTo(first.x, first.y)
      ctx.moveTo(last.x, last.y)
      ctx.lineTo(last.x + half, last.y)
      ctx.stroke()
      ctx.restore()
    })
  }
}
