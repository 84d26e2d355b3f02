import { describe, expect, it } from 'vitest'
import { coveredCount, gapsIn, pagesOver, withRange } from './rowRanges'

describe('row ranges', () => {
  it('merges touching and overlapping ranges, keeps others apart', () => {
    let r = withRange([], 100, 150)
    r = withRange(r, 0, 50)
    r = withRange(r, 50, 60)
    r = withRange(r, 140, 200)
    r = withRange(r, 300, 310)
    expect(r).toEqual([
      [0, 60],
      [100, 200],
      [300, 310]
    ])
    expect(withRange(r, 55, 320)).toEqual([[0, 320]])
    expect(withRange(r, 5, 5)).toBe(r)
    expect(coveredCount(r)).toBe(170)
  })

  it('finds what is missing of a total, including past the last range and beyond a grown total', () => {
    const r: [number, number][] = [
      [0, 60],
      [100, 200]
    ]
    expect(gapsIn(r, 250)).toEqual([
      [60, 100],
      [200, 250]
    ])
    expect(gapsIn(r, 150)).toEqual([[60, 100]])
    expect(gapsIn([], 3)).toEqual([[0, 3]])
    expect(gapsIn([[0, 10]], 10)).toEqual([])
  })

  it('asks for the pages that hold the gaps, at any page size', () => {
    expect(
      pagesOver(
        [
          [60, 100],
          [200, 250]
        ],
        50
      )
    ).toEqual([2, 5])
    expect(pagesOver([[60, 100]], 7)).toEqual([9, 10, 11, 12, 13, 14, 15])
    expect(pagesOver([[0, 1]], 100)).toEqual([1])
    expect(pagesOver([], 10)).toEqual([])
    expect(pagesOver([[60, 100]], 7, 3)).toEqual([9, 10, 11])
    expect(pagesOver([[0, 1e9]], 30, 1_000)).toHaveLength(1_000)
  })
})
