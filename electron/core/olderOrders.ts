/**
 * Orders placed before the synced window, read from the marketplace when the seller picks their dates.
 *
 * The API's `fromDate` / `toDate` select orders created *or updated* in the range, sorted by last update,
 * and the seller asked for the orders *placed* in it. So every page of the range is read (it is one
 * range of old orders, not the whole history), the orders placed in it are kept, and they are sorted
 * and paged here like the snapshot's. The range asked of the marketplace is widened by the slack for a
 * marketplace writing its order times in another zone; the orders kept are the ones whose time, as this
 * app reads it, is in the range.
 *
 * What was read is checked against the marketplace's own count: a read that ended short of it (rows lost
 * to a list that moved while it was read, a total that overcounts, the cap on how much is read) is said,
 * never passed off as the whole range. A read is kept for a minute (one that ended short, for 10 seconds:
 * the seller is told to try again in a moment, and that must read again), so turning pages and exporting the
 * same dates do not read them again.
 *
 * The whole range is read, whatever the list's search and filters: the API's `searchTerm` matches item
 * names only (the spec), and the list finds orders by number, shipment and tracking too. The workspace
 * searches and filters the orders read as the snapshot's are (orderTable.ts orderMatches).
 */
import type { Order } from '../shared/domain'
import { SellerDeskError } from '../shared/errors'
import type { ListAnswer, SellerApi } from './sellerApi'
import { PageWalk } from './sync/pageWalk'
import { readAgainInDoubt, RowPlaces } from './sync/rowPlaces'
import { readPlaces, repeats, unreadableKey } from './sync/unreadableRows'
import { DEFAULT_SYNC_SETTINGS, ZONELESS_SLACK_MS } from './sync/syncEngine'

/** The most orders one range reads from the marketplace; a larger range is said to be cut short. */
export const OLDER_ORDERS_MAX = 10_000
const KEEP_MS = 60_000
const SHORT_KEEP_MS = 10_000
const KEPT_READS = 4

export interface OlderOrdersRange {
  /** The start of the range; -Infinity for "from the first order" (no `fromDate` is sent). */
  fromMs: number
  /** The end of the range; none for "until now". */
  toMs: number | undefined
}

export interface OlderOrdersRead {
  /** The orders placed in the range, newest first. */
  placed: Order[]
  /** Orders the marketplace counted for the range (created or updated in it, the slack included). */
  listed: number
  /** Distinct orders it answered. */
  answered: number
  /** Whether every order it counted was read. */
  complete: boolean
  /** Whether the read stopped at OLDER_ORDERS_MAX. */
  capped: boolean
}

/** How a scan of a range keeps orders (all by default), and what can stop it. */
export interface RangeScan {
  keep?: (order: Order) => boolean
  /** A page's answer and the places in it of the orders kept (each order once, however often listed). */
  onKept?: (answer: ListAnswer & { orders: Order[] }, places: number[]) => void
  signal?: AbortSignal
  /** After each page: pages read, the pages the marketplace's count makes at its page size, orders kept so far. */
  onPage?: (pagesDone: number, pagesTotal: number, kept: number) => void
  /**
   * Asks only for the orders created or updated since (the API's `fromDate`), placed in the range or
   * before it: what changed in an older range since it was last read.
   */
  listedSinceMs?: number
}

export interface OlderOrdersOptions {
  /** Rows per page to ask for first, read at each look (the size a full sync learned, where it did: see PageWalk). */
  take: () => number
  /** Retries of a page that failed (the client's own by default). */
  retries?: number
  now?: () => number
  max?: number
  /** Pages asked for at once where pages are read again (a sync's concurrency by default). */
  lanes?: number
}

export function createOlderOrders(api: SellerApi, options: OlderOrdersOptions) {
  const now = options.now ?? Date.now
  const max = options.max ?? OLDER_ORDERS_MAX
  const kept = new Map<string, { until: number; read: Promise<OlderOrdersRead> }>()

  /**
   * Every page of the range, in turn; `keep` says which orders (placed in the range) are kept, and each
   * page's kept ones are handed to `onKept` with the page's answer (its rows as received).
   */
  async function scan(range: OlderOrdersRange, scanning: RangeScan = {}): Promise<Omit<OlderOrdersRead, 'placed'>> {
    const listedFromMs = Math.max(range.fromMs, scanning.listedSinceMs ?? Number.NEGATIVE_INFINITY)
    const query = {
      sortDir: 'DESC' as const,
      ...(Number.isFinite(listedFromMs) ? { fromDate: new Date(listedFromMs - ZONELESS_SLACK_MS).toISOString() } : {}),
      ...(range.toMs !== undefined ? { toDate: new Date(range.toMs + ZONELESS_SLACK_MS).toISOString() } : {})
    }
    const to = range.toMs ?? Number.POSITIVE_INFINITY
    const placedInRange = (order: Order) => {
      const at = Date.parse(order.orderDate)
      return at >= range.fromMs && at <= to
    }
    const walk = new PageWalk(options.take())
    const seen = new Set<string>()
    /** Where each order was read (sync/rowPlaces.ts): orders of equal update time may come anew on each request. */
    const places = new RowPlaces()
    let kept = 0
    let listed = 0
    let lastTotal = 0
    /** Whether the count moved while the range was read: orders placed meanwhile, not ties. */
    let totalMoved = false
    let capped = false
    let cutShort = false
    const calling = { ...(scanning.signal ? { signal: scanning.signal } : {}), ...(options.retries !== undefined ? { retries: options.retries } : {}) }
    const ask = (page: number, take: number) => api.listOrders({ ...query, take, page }, calling)
    /** Takes in a page's rows, its first at list position `start`: each order once, kept where placed in the range. */
    const takeIn = (answer: ListAnswer & { orders: Order[] }, start: number) => {
      lastTotal = answer.total
      const placeOf = readPlaces({ batch: { rows: answer.orders }, unreadable: answer.unreadable })
      const keptAt: number[] = []
      for (const row of answer.unreadable) {
        // One with no id, read again elsewhere, cannot be told from one not read yet (see RowPlaces.readingAgain).
        if (places.readingAgain && row.id === null) continue
        const key = unreadableKey(row, start + row.place)
        places.note(start + row.place, key)
        seen.add(key)
      }
      answer.orders.forEach((order, index) => {
        places.note(start + placeOf(index), order.id)
        if (seen.has(order.id)) return
        seen.add(order.id)
        if (placedInRange(order) && (scanning.keep?.(order) ?? true)) keptAt.push(index)
      })
      if (keptAt.length) scanning.onKept?.(answer, keptAt)
      return keptAt.length
    }
    for (;;) {
      let answer: ListAnswer & { orders: Order[] }
      try {
        answer = await ask(walk.page, walk.size)
      } catch (error) {
        // A page past the end refused (404, 400) by a marketplace whose count was too high: the end.
        const pastEnd = walk.page > 1 && error instanceof SellerDeskError && (error.kind === 'not-found' || error.kind === 'invalid-input')
        if (!pastEnd) throw error
        break
      }
      if (walk.pagesDone === 0) listed = answer.total
      else if (answer.total !== listed) totalMoved = true
      // Past the count, a page of orders read already is the last page answered again: the end.
      const repeated = walk.pastCount(answer.total) && repeats({ batch: { rows: answer.orders }, unreadable: answer.unreadable }, seen)
      // An order that cannot be read fills its place (sync/unreadableRows.ts): it counts as read, and is not kept.
      const rows = repeated ? 0 : rowsOf(answer)
      const whole = walk.answered(rows, answer.total)
      // A first page asked again (see PageWalk) starts the list all the same.
      if (!repeated) kept += takeIn(answer, whole ? walk.start : 0)
      scanning.onPage?.(walk.pagesDone, walk.pagesTotal(listed), kept)
      if (!whole) continue
      if (seen.size >= max) {
        capped = seen.size < listed
        break
      }
      const step = walk.next(rows, answer.total)
      if (step === 'end') break
      if (step === 'cut-short') {
        cutShort = true
        break
      }
    }
    // Fewer orders read than the list holds, one of them read at two places: orders of equal update time
    // came in a new order on each request. The pages over them are read again (sync/rowPlaces.ts); a read
    // that cannot find them all is not whole.
    // (Not where the count moved while it was read: orders shifted by one placed meanwhile are read twice too.)
    if (!capped && !cutShort && !totalMoved) {
      const again = {
        // No further than the cap: a read that reaches it is said to be cut there.
        wanted: () => Math.min(lastTotal, max),
        size: () => walk.size,
        lanes: options.lanes ?? DEFAULT_SYNC_SETTINGS.concurrency,
        read: async (page: number, size: number) => {
          const answer = await ask(page, size)
          kept += takeIn(answer, (page - 1) * Math.max(size, rowsOf(answer)))
          return rowsOf(answer)
        }
      }
      if (!(await readAgainInDoubt(places, again, scanning.signal ?? new AbortController().signal))) cutShort = true
      if (seen.size >= max) capped = seen.size < listed
    }
    // The orders known read: one with no id where orders were in doubt may be one read elsewhere (RowPlaces.count).
    return { listed, answered: places.count, complete: !capped && !cutShort && places.count >= listed, capped }
  }

  async function readRange(range: OlderOrdersRange): Promise<OlderOrdersRead> {
    const placed: Order[] = []
    const read = await scan(range, { onKept: (answer, places) => places.forEach((place) => placed.push(answer.orders[place]!)) })
    return { placed: placed.sort(byDate('DESC')), ...read }
  }

  return {
    /** The orders placed in the range, as read from the marketplace within the last minute or now. */
    read(range: OlderOrdersRange): Promise<OlderOrdersRead> {
      const key = JSON.stringify([range.fromMs, range.toMs ?? null])
      const at = now()
      for (const [k, entry] of kept) if (at > entry.until) kept.delete(k)
      const hit = kept.get(key)
      if (hit) return hit.read
      const read = readRange(range)
      const entry = { until: at + KEEP_MS, read }
      kept.set(key, entry)
      // A failed read is not kept: the next page turn tries again. One that ended short, not for long.
      read.then(
        (done) => {
          if (!done.complete && !done.capped) entry.until = Math.min(entry.until, now() + SHORT_KEEP_MS)
        },
        () => kept.delete(key)
      )
      while (kept.size > KEPT_READS) kept.delete(kept.keys().next().value!)
      return read
    },
    /** Drops the reads kept: their orders no longer read as they would now (another time zone for their times). */
    forget: () => kept.clear(),
    scan
  }
}

export type OlderOrders = ReturnType<typeof createOlderOrders>

/** The places a page's rows fill: the orders read and those that could not be. */
const rowsOf = (answer: ListAnswer & { orders: Order[] }) => answer.orders.length + answer.unreadable.length

/** Orders by their time placed, then by number so equal times keep one order. */
export function byDate(dir: 'ASC' | 'DESC') {
  const sign = dir === 'ASC' ? 1 : -1
  return (a: Order, b: Order) => sign * (Date.parse(a.orderDate) - Date.parse(b.orderDate) || a.orderNo.localeCompare(b.orderNo))
}

/** Orders by total, then by time placed. */
export function byTotal(dir: 'ASC' | 'DESC') {
  const sign = dir === 'ASC' ? 1 : -1
  return (a: Order, b: Order) => sign * (a.totalCents - b.totalCents || Date.parse(a.orderDate) - Date.parse(b.orderDate))
}
