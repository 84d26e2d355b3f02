import { describe, expect, it } from 'vitest'
import { SellerDeskError } from '../../shared/errors'
import { readAgainInDoubt, RowPlaces } from './rowPlaces'

it('a row read at two positions with one update time marks the pages between as in doubt; one updated in between (moved to the front) marks none', () => {
  const tied = new RowPlaces()
  tied.note(3, 'a', '2026-11-20T10:00:00Z')
  tied.note(27, 'a', '2026-11-20T10:00:00Z')
  expect(tied.count).toBe(1)
  expect(tied.pagesInDoubt(10, 100)).toEqual([1, 2, 3])

  const moved = new RowPlaces()
  moved.note(27, 'a', '2026-11-20T10:00:00Z')
  moved.note(0, 'a', '2026-11-20T10:05:00Z')
  expect(moved.pagesInDoubt(10, 100)).toEqual([])

  // Rows that carry no update time (orders): any row read twice marks its stretch.
  const orders = new RowPlaces()
  orders.note(12, 'o')
  orders.note(15, 'o')
  expect(orders.pagesInDoubt(10, 100)).toEqual([2])
})

describe('reading the pages in doubt again', () => {
  /** A list of `n` rows of one update time whose pages hold rows drawn by the page asked: the same page, the same rows. */
  function byPage(n: number, ownSize: number | null = null) {
    const ids = Array.from({ length: n }, (_, i) => `r${i}`)
    const asked: number[] = []
    const page = (number: number, size: number): string[] => {
      const paged = ownSize ?? size
      let seed = number * 7919 + paged * 104729
      const draw = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31)
      const order = [...ids]
      for (let i = order.length - 1; i > 0; i--) {
        const j = draw() % (i + 1)
        ;[order[i], order[j]] = [order[j]!, order[i]!]
      }
      return order.slice((number - 1) * paged, number * paged)
    }
    return { asked, page }
  }

  it('ties ordered by the page asked: once the same pages bring nothing new, pages of other sizes do, until every row is read', async () => {
    const { list, places } = readOnceInTens()
    expect(places.count).toBeLessThan(120)
    const read = await readAgainInDoubt(places, reading(list, places), new AbortController().signal)
    expect(read).toBe(true)
    expect(places.count).toBe(120)
    expect(new Set(list.asked).size, 'pages of several sizes').toBeGreaterThan(2)
    expect(Math.min(...list.asked)).toBeGreaterThanOrEqual(1)
    expect(Math.max(...list.asked)).toBe(10)
  })

  it('a marketplace that pages by its own size whatever is asked is asked the list’s size again', async () => {
    const list = byPage(120, 10)
    const places = new RowPlaces()
    for (let number = 1; number <= 12; number++) page(places, list.page(number, 10), number, 10)
    await readAgainInDoubt(places, reading(list, places), new AbortController().signal)
    const smaller = list.asked.findIndex((size) => size < 10)
    expect(smaller).toBeGreaterThanOrEqual(0)
    // After the one reading that showed it, the list's own size only.
    const after = list.asked.slice(smaller).findIndex((size) => size === 10)
    expect(after).toBeGreaterThan(0)
    expect(list.asked.slice(smaller + after).every((size) => size === 10)).toBe(true)
  })

  it('pages smaller than the list’s refused: larger ones are read instead, until every row is read', async () => {
    const { list, places } = readOnceInTens()
    const own = reading(list, places)
    const refusingSmaller = {
      ...own,
      read: async (number: number, size: number) => {
        refuseSmallerThanTen(size)
        return own.read(number, size)
      }
    }
    expect(await readAgainInDoubt(places, refusingSmaller, new AbortController().signal)).toBe(true)
    expect(places.count).toBe(120)
    expect(Math.max(...list.asked)).toBeGreaterThan(10)
  })

  it('pages smaller than the list’s refused, and larger ones capped at its size: it stops at the first larger page answered short, and says the rows were not all read', async () => {
    const { list, places } = readOnceInTens()
    const own = reading(list, places)
    const capped = {
      ...own,
      lanes: 1,
      read: async (number: number, size: number) => {
        refuseSmallerThanTen(size)
        list.asked.push(size)
        const ids = list.page(number, 10)
        page(places, ids, number, size)
        return ids.length
      }
    }
    expect(await readAgainInDoubt(places, capped, new AbortController().signal)).toBe(false)
    expect(list.asked.filter((size) => size > 10)).toHaveLength(1)
  })

  /** The list of one update time (byPage) read once through, in pages of the list's own size. */
  function readOnceInTens() {
    const list = byPage(120)
    const places = new RowPlaces()
    for (let number = 1; number <= 12; number++) page(places, list.page(number, 10), number, 10)
    return { list, places }
  }
  /** As a marketplace refusing pages smaller than the list's own size answers. */
  function refuseSmallerThanTen(size: number) {
    if (size < 10) throw new SellerDeskError('invalid-input', 'The marketplace refused the request (take must not be less than ten).', { status: 400 })
  }
  const page = (places: RowPlaces, ids: string[], number: number, size: number) =>
    ids.forEach((id, index) => places.note((number - 1) * Math.max(size, ids.length) + index, id, '2026-11-20T10:00:00Z'))
  const reading = (list: ReturnType<typeof byPage>, places: RowPlaces) => ({
    wanted: () => 120,
    size: () => 10,
    lanes: 2,
    read: async (number: number, size: number) => {
      list.asked.push(size)
      const ids = list.page(number, size)
      page(places, ids, number, size)
      return ids.length
    }
  })
})
