/**
 * How the dashboard chart draws orders: a count per day (or week, month) is whole, so the line steps
 * from one period's count to the next halfway between them, flat across each period, instead of a
 * curve whose slopes read as fractional orders between days; its axis counts in whole orders only.
 */
import type { ChartDataset, ScaleOptions } from 'chart.js'

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
