/**
 * Which positions of a list a full sync has read, as half-open ranges [start, end). A list is read by
 * pages, and a marketplace may page by a size other than the one asked for, or answer a page short:
 * what was read is tracked by position, and what is missing is asked for again as the pages that hold it.
 */
import type { RowRanges } from '../snapshot/syncBookkeeping'

export type { RowRanges }

/** The ranges with [start, end) added (merged where they touch or overlap). */
export function withRange(ranges: RowRanges, start: number, end: number): RowRanges {
  if (end <= start) return ranges
  const out: RowRanges = []
  let [s, e] = [start, end]
  let placed = false
  for (const [a, b] of ranges) {
    if (b < s) out.push([a, b])
    else if (a > e) {
      if (!placed) out.push([s, e])
      placed = true
      out.push([a, b])
    } else {
      s = Math.min(s, a)
      e = Math.max(e, b)
    }
  }
  if (!placed) out.push([s, e])
  return out.sort((x, y) => x[0] - y[0])
}

/** The positions of [0, total) the ranges do not cover. */
export function gapsIn(ranges: RowRanges, total: number): RowRanges {
  const gaps: RowRanges = []
  let at = 0
  for (const [a, b] of ranges) {
    if (a >= total) break
    if (a > at) gaps.push([at, a])
    at = Math.max(at, b)
  }
  if (at < total) gaps.push([at, total])
  return gaps
}

/** Positions covered. */
export function coveredCount(ranges: RowRanges): number {
  return ranges.reduce((sum, [a, b]) => sum + (b - a), 0)
}

/**
 * The 1-based pages of `size` rows that hold any position of the gaps, in order: the first `limit` of
 * them (a total far beyond the rows a list holds would otherwise plan pages by the million).
 */
export function pagesOver(gaps: RowRanges, size: number, limit = Infinity): number[] {
  const pages = new Set<number>()
  for (const [a, b] of gaps) {
    for (let page = Math.floor(a / size) + 1; (page - 1) * size < b; page++) {
      if (pages.size >= limit) return [...pages].sort((x, y) => x - y)
      pages.add(page)
    }
  }
  return [...pages].sort((x, y) => x - y)
}
