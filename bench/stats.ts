/** Percentiles and formatting for benchmark reports. */
export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN
}

export const ms = (value: number) => `${value.toFixed(1)} ms`

export function report(rows: [string, string, string][]): void {
  const width = Math.max(...rows.map(([name]) => name.length))
  for (const [name, value, budget] of rows) console.log(`${name.padEnd(width)}  ${value.padStart(12)}   ${budget}`)
}
