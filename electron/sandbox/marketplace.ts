/**
 * The demo marketplace's live state: one seller's sell requests and orders, kept in update order
 * so that every list request is a slice, and changed only through the methods below.
 *
 * Money is integer cents; instants are epoch milliseconds, except the order date, which the API
 * carries with microseconds and is kept as epoch microseconds (UTC).
 */
import type { Random } from './random'

export interface DeviceProperties {
  color: string
  grade: string
  carrier: string
  storage: string
}

export interface SellRequestRecord {
  id: string
  name: string
  category: string
  brand: string
  priceCents: number
  msrpCents: number
  sku: string
  status: string
  quantity: number
  minQuantity: number
  properties: DeviceProperties
  seller: string
  /** Image name served at `/img/<image>.svg`. */
  image: string
  createdAt: number
  updatedAt: number
  /** Values of extra numeric fields set by PATCH (see SandboxOptions.extraNumericFields), by wire name. */
  extra?: Record<string, number>
}

export interface TrackingInformation {
  slugId: string
  carrier: string
  trackerId: string
  trackingUrl: string
  trackingNumber: string
}

export interface OrderItemRecord {
  id: string
  marginCents: number
  name: string
  quantity: number
  priceCents: number
  properties: DeviceProperties
  status: string
  /** Image name served at `/img/<image>.svg`. */
  image: string
  warrantyTime: null
  shippingTime: null
  shippingMethod: string
  shipment: string
  possibleStatuses: string[]
  sellrequestId: string
  trackingInformation: TrackingInformation
}

export interface OrderRecord {
  id: string
  orderNo: string
  /** Epoch microseconds, UTC. */
  orderDateMicros: number
  status: string
  amountPaidCents: number
  items: OrderItemRecord[]
  /** Last update, epoch ms. Hidden: the API has no such field; it orders lists and feeds fromDate/toDate. */
  updatedAt: number
}

export type SortDir = 'ASC' | 'DESC'

export interface PageQuery {
  /** 1-based. */
  page: number
  take: number
  sortDir: SortDir
  /** Already trimmed; empty or absent means no filter. */
  searchTerm?: string
}

export interface OrderPageQuery extends PageQuery {
  /** Inclusive bounds, epoch microseconds UTC. */
  fromMicros?: number
  toMicros?: number
}

export interface PageOf<T> {
  total: number
  rows: T[]
}

interface Dated {
  id: string
  updatedAt: number
}

function byUpdate(a: Dated, b: Dated): number {
  if (a.updatedAt !== b.updatedAt) return a.updatedAt - b.updatedAt
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0
}

/** Records sorted by (updatedAt, id) ascending, kept sorted by binary-search insert and remove. */
class UpdateOrder<T extends Dated> {
  private readonly rows: T[]

  constructor(rows: Iterable<T>) {
    this.rows = [...rows].sort(byUpdate)
  }

  get all(): readonly T[] {
    return this.rows
  }

  insert(row: T): void {
    this.rows.splice(this.lowerBound(row), 0, row)
  }

  /** Call before changing the row's `updatedAt`. */
  remove(row: T): void {
    let index = this.lowerBound(row)
    if (this.rows[index] !== row) index = this.rows.indexOf(row)
    if (index >= 0) this.rows.splice(index, 1)
  }

  private lowerBound(row: T): number {
    let low = 0
    let high = this.rows.length
    while (low < high) {
      const mid = (low + high) >>> 1
      if (byUpdate(this.rows[mid] as T, row) < 0) low = mid + 1
      else high = mid
    }
    return low
  }
}

/**
 * One page of rows kept in ascending update order. With `ties`, rows of equal update time come in an
 * order drawn afresh for this request, as `ORDER BY updatedAt LIMIT … OFFSET …` gives them (SQL orders
 * ties as it happens to find them): the page is cut from the list as this request orders it.
 */
function pageOf<T extends Dated>(ascending: readonly T[], query: PageQuery, ties?: Random): PageOf<T> {
  const total = ascending.length
  const skip = (query.page - 1) * query.take
  // The page's rows as positions [from, to) of the ascending list.
  const from = query.sortDir === 'ASC' ? skip : Math.max(0, total - skip - query.take)
  const to = query.sortDir === 'ASC' ? Math.min(total, skip + query.take) : total - skip
  if (to <= from) return { total, rows: [] }
  const rows = ties ? withTiesDrawn(ascending, from, to, ties) : ascending.slice(from, to)
  return { total, rows: query.sortDir === 'ASC' ? rows : rows.reverse() }
}

/**
 * The rows at positions [from, to) of the ascending list once each run of equal update time that
 * reaches into them is put in a random order: a run crossing the page's edge brings rows from beyond it
 * as often as it keeps its own.
 */
function withTiesDrawn<T extends Dated>(ascending: readonly T[], from: number, to: number, ties: Random): T[] {
  let start = from
  while (start > 0 && (ascending[start - 1] as T).updatedAt === (ascending[from] as T).updatedAt) start--
  let end = to
  while (end < ascending.length && (ascending[end] as T).updatedAt === (ascending[to - 1] as T).updatedAt) end++
  const rows = ascending.slice(start, end)
  for (let runStart = 0; runStart < rows.length;) {
    let runEnd = runStart + 1
    while (runEnd < rows.length && (rows[runEnd] as T).updatedAt === (rows[runStart] as T).updatedAt) runEnd++
    for (let i = runEnd - 1; i > runStart; i--) {
      const j = ties.int(runStart, i)
      ;[rows[i], rows[j]] = [rows[j] as T, rows[i] as T]
    }
    runStart = runEnd
  }
  return rows.slice(from - start, to - start)
}

const FILTER_CACHE_SIZE = 16

/** Remembers the last few filtered lists so that paging through a search does not rescan. */
class FilterCache<T> {
  private readonly entries = new Map<string, readonly T[]>()

  invalidate(): void {
    this.entries.clear()
  }

  get(key: string, compute: () => readonly T[]): readonly T[] {
    const found = this.entries.get(key)
    if (found) return found
    const rows = compute()
    if (this.entries.size >= FILTER_CACHE_SIZE) {
      const oldest = this.entries.keys().next()
      if (!oldest.done) this.entries.delete(oldest.value)
    }
    this.entries.set(key, rows)
    return rows
  }
}

export interface MarketplaceInit {
  sellerId: string
  /** The "now" the data was generated for. */
  generatedAt: Date
  sellRequests: Iterable<SellRequestRecord>
  orders: Iterable<OrderRecord>
}

export class MarketplaceState {
  readonly sellerId: string
  readonly generatedAt: Date

  private readonly sellRequestsById = new Map<string, SellRequestRecord>()
  private readonly ordersById = new Map<string, OrderRecord>()
  private readonly sellRequestsByUpdate: UpdateOrder<SellRequestRecord>
  private readonly ordersByUpdate: UpdateOrder<OrderRecord>
  private readonly sellRequestSearches = new FilterCache<SellRequestRecord>()
  private readonly orderSearches = new FilterCache<OrderRecord>()
  private highestOrderNo = 0

  constructor(init: MarketplaceInit) {
    this.sellerId = init.sellerId
    this.generatedAt = new Date(init.generatedAt.getTime())
    for (const sellRequest of init.sellRequests) this.sellRequestsById.set(sellRequest.id, sellRequest)
    for (const order of init.orders) {
      this.ordersById.set(order.id, order)
      this.highestOrderNo = Math.max(this.highestOrderNo, Number(order.orderNo))
    }
    this.sellRequestsByUpdate = new UpdateOrder(this.sellRequestsById.values())
    this.ordersByUpdate = new UpdateOrder(this.ordersById.values())
  }

  /**
   * Every sell request, least recently updated first (ties by id). A live read-only view: change
   * records only through the methods of this class, so that list order stays right.
   */
  get sellRequests(): readonly SellRequestRecord[] {
    return this.sellRequestsByUpdate.all
  }

  /** Every order, least recently updated first (ties by id). Same rules as `sellRequests`. */
  get orders(): readonly OrderRecord[] {
    return this.ordersByUpdate.all
  }

  sellRequest(id: string): SellRequestRecord | undefined {
    return this.sellRequestsById.get(id.toLowerCase())
  }

  order(id: string): OrderRecord | undefined {
    return this.ordersById.get(id.toLowerCase())
  }

  /** The highest order number issued so far (0 when there are no orders). */
  get latestOrderNo(): number {
    return this.highestOrderNo
  }

  /** `ties`: rows of equal update time in an order drawn from it for this request (see pageOf); without it, by id. */
  listSellRequests(query: PageQuery, ties?: Random): PageOf<SellRequestRecord> {
    const term = query.searchTerm?.toLowerCase() ?? ''
    const all = this.sellRequestsByUpdate.all
    const rows =
      term === ''
        ? all
        : this.sellRequestSearches.get(term, () => {
            const matches = nameMatcher(term)
            return all.filter((row) => matches(row.name))
          })
    return pageOf(rows, query, ties)
  }

  /** `ties` as for listSellRequests. */
  listOrders(query: OrderPageQuery, ties?: Random): PageOf<OrderRecord> {
    const term = query.searchTerm?.toLowerCase() ?? ''
    const from = query.fromMicros ?? -Infinity
    const to = query.toMicros ?? Infinity
    const all = this.ordersByUpdate.all
    if (term === '' && from === -Infinity && to === Infinity) return pageOf(all, query, ties)
    const within = (micros: number): boolean => micros >= from && micros <= to
    const rows = this.orderSearches.get(`${term}\u0000${from}\u0000${to}`, () => {
      const matches = nameMatcher(term)
      return all.filter(
        (order) =>
          (term === '' || order.items.some((item) => matches(item.name))) && // the spec: a match against the name
          (within(order.orderDateMicros) || within(order.updatedAt * 1000))
      )
    })
    return pageOf(rows, query, ties)
  }

  /** Applies a change and stamps `updatedAt`. Undefined when there is no such sell request. */
  editSellRequest(id: string, change: { quantity?: number; priceCents?: number; extra?: Record<string, number> }, at: number): SellRequestRecord | undefined {
    const sellRequest = this.sellRequestsById.get(id)
    if (!sellRequest) return undefined
    this.sellRequestsByUpdate.remove(sellRequest)
    if (change.quantity !== undefined) sellRequest.quantity = change.quantity
    if (change.priceCents !== undefined) sellRequest.priceCents = change.priceCents
    if (change.extra) sellRequest.extra = { ...sellRequest.extra, ...change.extra }
    sellRequest.updatedAt = at
    this.sellRequestsByUpdate.insert(sellRequest)
    this.sellRequestSearches.invalidate()
    return sellRequest
  }

  addSellRequest(sellRequest: SellRequestRecord): void {
    if (this.sellRequestsById.has(sellRequest.id)) throw new Error(`sell request ${sellRequest.id} already exists`)
    this.sellRequestsById.set(sellRequest.id, sellRequest)
    this.sellRequestsByUpdate.insert(sellRequest)
    this.sellRequestSearches.invalidate()
  }

  /** False when there is no such sell request. Orders that bought from it keep their items. */
  deleteSellRequest(id: string): boolean {
    const sellRequest = this.sellRequestsById.get(id)
    if (!sellRequest) return false
    this.sellRequestsByUpdate.remove(sellRequest)
    this.sellRequestsById.delete(id)
    this.sellRequestSearches.invalidate()
    return true
  }

  addOrder(order: OrderRecord): void {
    if (this.ordersById.has(order.id)) throw new Error(`order ${order.id} already exists`)
    this.ordersById.set(order.id, order)
    this.ordersByUpdate.insert(order)
    this.highestOrderNo = Math.max(this.highestOrderNo, Number(order.orderNo))
    this.orderSearches.invalidate()
  }

  /** Applies `change` to an order and stamps its hidden `updatedAt`. Undefined when there is no such order. */
  updateOrder(id: string, at: number, change?: (order: OrderRecord) => void): OrderRecord | undefined {
    const order = this.ordersById.get(id)
    if (!order) return undefined
    this.ordersByUpdate.remove(order)
    change?.(order)
    order.updatedAt = at
    this.ordersByUpdate.insert(order)
    this.orderSearches.invalidate()
    return order
  }
}

/**
 * Case-insensitive partial match of a lower-case `term` against names. Names repeat a lot (one per
 * model and storage), so each distinct name is lower-cased and tested once per search.
 */
function nameMatcher(term: string): (name: string) => boolean {
  const verdicts = new Map<string, boolean>()
  return (name) => {
    let verdict = verdicts.get(name)
    if (verdict === undefined) {
      verdict = name.toLowerCase().includes(term)
      verdicts.set(name, verdict)
    }
    return verdict
  }
}
