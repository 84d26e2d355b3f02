/**
 * Brings the snapshot up to date with the marketplace, right against any server that follows the spec
 * (../shared/spec/seller-api.md), whatever it chose where the spec says "not shown".
 *
 * - Paging trusts what came back, not what was asked: a server may cap `take`, ignore it, or answer a
 *   page short. What a full sync has read is tracked by list position (rowRanges.ts); the page size is
 *   learned from the first answers, and what is missing is asked for again as the pages that hold it.
 *   A total may be wrong either way: a whole last page is followed by the next (it undercounts), and
 *   pages past an empty one are not asked (it overcounts). A page after the first that is refused (400,
 *   404, 422: Django's "Invalid page." past the end) is read as empty, and one past the total that
 *   repeats rows already read (a server that answers the last page again) as the list's end. A `take` refused with 400 or 422 is asked again halved, down to the
 *   spec's default of 10. Every walk is bounded.
 * - Lists are read newest first. A record updated while a sync pages moves to the front: the rows it
 *   passes shift by one, so a later page repeats a row (de-duplicated by id) rather than skipping one,
 *   and the record itself is read again by the catch-up that follows every full pass. A deletion
 *   shifts rows the other way and can hide one; it shows as a total going down or, beside a creation,
 *   as rows created meanwhile that the total's change does not account for.
 * - Rows of equal update time (a bulk change on the marketplace's website) may come in a new order on
 *   each request, the spec naming no tie-breaker: a page then repeats some and leaves out others, with
 *   every position read. Where a row was read at two positions, the pages are read again until as many
 *   rows as the list holds there are read (rowPlaces.ts); a walk that cannot is one cut short.
 * - Every sync ends with a completeness check: the rows the snapshot holds against the server's total.
 *   A full sync whose check fails, or that saw a deletion while it read, reads the whole list again
 *   (up to `rounds` times) and otherwise ends incomplete, recorded and shown as such. An incremental
 *   sync that finds a discrepancy it did not know of, a deletion, or a walk it cannot finish turns into
 *   a full one. A full sync stopped after its pass was swapped in (its catch-up or check rate-limited,
 *   offline) is finished by the next sync's catch-up and check, which judge the pass as the check right
 *   after it would have (CheckOwed), not by another pass.
 * - Incremental syncs start from the marketplace's clock (its `Date` header, or the newest timestamp
 *   in its data), never the computer's, less a safety margin.
 *
 * - A row the marketplace sends in a form that cannot be read (a price of "abc", an order with no id)
 *   fills its place like any other and is not stored; a copy held from before is kept. The check counts
 *   the rows held none of as accounted for, and the outcome names them (unreadableRows.ts).
 *
 * Retries, backoff and `Retry-After` are the client's; a malformed page aborts the sync and leaves the
 * live snapshot as it was. A full pass is staged a few pages at a time (each time one transaction that
 * records the positions it covers and what the check needs of the rows read so far), so an interrupted
 * run resumes where it stopped and its pass is judged as one.
 */
import { SellerDeskError } from '../../shared/errors'
import { NO_ROWS, type ListAnswer, type SellerApi } from '../sellerApi'
import type { UnreadableRow } from '../sellerApi'
import type { CheckOwed, CreatedSoFar, OrderBatch, Resource, SellRequestBatch, Snapshot, StagingPart, SyncRun, UnreadableEntry } from '../snapshot/snapshot'
import { createPause, createTurnQueue, TURN_MS, type Pause } from '../eventLoopTurns'
import { createSlots, forEachBounded, type Slots } from './boundedConcurrency'
import { coveredCount, gapsIn, pagesOver, withRange } from './rowRanges'
import { PageWalk, pageSizeAfterFirst } from './pageWalk'
import { readAgainInDoubt, RowPlaces } from './rowPlaces'
import { readOrderClock, type OrderClockReading } from './orderClock'
import { newUnreadable, readPlaces, repeats, rowsOn, unreadableAfterWalk, UnreadableFound, unreadableKey } from './unreadableRows'

export interface SyncSettings {
  /** Rows per page asked for (the server may answer fewer or more). */
  take: number
  /** Pages in flight at once during a full sync. */
  concurrency: number
  /** Orders younger than this many days are kept in the snapshot. */
  historyDays: number
  /** A full reconcile runs when the last one ended longer ago than this. */
  reconcileEveryMs: number
  /** Incremental syncs look back this much before the last sync's start (in the marketplace's clock). */
  safetyMarginMs: number
  /**
   * An interrupted full sync that last read rows this recently is resumed; one that made no progress
   * for longer restarts. Not its age: a first sync under a marketplace's rate limit takes many attempts.
   */
  resumeWithinMs: number
  /** Retries per page (on top of the first attempt). */
  retriesPerPage: number
  /** Passes over the whole list a full sync makes at most before it ends incomplete. */
  rounds: number
}

export const DEFAULT_SYNC_SETTINGS: SyncSettings = {
  take: 100,
  concurrency: 4,
  historyDays: 90,
  reconcileEveryMs: 6 * 60 * 60 * 1000,
  safetyMarginMs: 5 * 60 * 1000,
  resumeWithinMs: 60 * 60 * 1000,
  retriesPerPage: 6,
  rounds: 3
}

export type SyncKind = 'full' | 'incremental'
/**
 * What a run is asked for: a kind, or `auto` (full when none was ever done, one was interrupted, the
 * last one was incomplete or the periodic reconcile is due; incremental otherwise, and to finish a full
 * one whose check was stopped), or `catchUp` (as auto, but never for the reconcile or an incomplete one:
 * a quick look for what changed, e.g. before applying bulk changes).
 */
export type SyncRequest = SyncKind | 'auto' | 'catchUp'

export interface SyncProgress {
  kind: SyncKind
  resource: Resource
  pagesDone: number
  pagesTotal: number
  items: number
}

/** Rows the snapshot holds against the server's total, at the end of a sync. */
export interface Completeness {
  synced: number
  total: number
  /**
   * Every row counted is held or was read unreadable (`unreadable`), and no deletion seen while reading
   * could have hidden one.
   */
  complete: boolean
  /**
   * The list's rows the marketplace sends in a form that cannot be read, when there are any: not stored
   * (a copy held from before is kept).
   */
  unreadable?: UnreadableEntry[]
}

export interface SyncReport {
  kinds: Record<Resource, SyncKind>
  pagesFetched: Record<Resource, number>
  newOrderIds: string[]
  /** Per resource synced. */
  checks: Partial<Record<Resource, Completeness>>
  /** Full passes made per resource (more than one: a check failed and the list was read again). */
  rounds: Partial<Record<Resource, number>>
}

const DAY_MS = 24 * 60 * 60 * 1000
/**
 * A full sync stages fetched pages once they hold this many rows: the snapshot's thread writes each
 * such part in one transaction, and the core's own part (the rows' columns, handing them over) stays
 * a short turn, so calls waiting meanwhile are answered soon. A write of the core (a seller's change)
 * waits for at most one such transaction.
 */
const STAGE_ROWS = 250
/** Refills of what a pass left unread, at most, before the completeness check judges it. */
const REFILLS = 6
/**
 * Pages a refill plans at most: 5,000,000 rows at 100 a page. A total beyond what the list holds
 * (one that counts rows the seller cannot list) would otherwise plan its pages by the million; past
 * the first empty one they are not asked, and the check says incomplete.
 */
const PAGES_PER_REFILL = 50_000
/**
 * How much earlier than the cursor an incremental sync asks for the changed orders while their times
 * are not known to be read in the right zone (UTC, or the marketplace's where the seller named it). The
 * spec gives order times (`orderDate`, `fromDate`) no zone: a marketplace may read them in its own, as
 * far as 12 hours behind UTC, and would then list only the orders changed since hours after the cursor
 * (those changed just after a sync never). Once new orders have shown its times to be read right
 * (changesSince, toldBy: `orderTimesReadRight`), the slack is dropped. (A full sync's catch-up asks from the
 * cursor: what it misses there, the next incremental reads.)
 */
export const ZONELESS_SLACK_MS = 12 * 3_600_000
/**
 * The slack kept when order times are read in a zone the seller named: where clocks go back an hour,
 * a wall-clock `fromDate` in the repeated hour is later than an order changed in its second pass.
 */
const CLOCK_CHANGE_SLACK_MS = 3_600_000

/**
 * What a sync's new orders write of the marketplace's clock: nothing when none told anything (no new
 * orders keep what earlier ones told); else whether the times are read right and the offset this reading
 * gives, none included, so an offset earlier orders told is not said once later ones disagree or show
 * the times read right.
 */
function toldBy(clock: OrderClockReading | null): { orderTimesReadRight?: boolean; clockOffsetMs?: number | null } {
  return clock === null || clock.readRight === null ? {} : { orderTimesReadRight: clock.readRight, clockOffsetMs: clock.clockOffsetMs }
}

/** The smallest page asked for when a marketplace refuses larger ones: the spec's default `take`. */
const MIN_TAKE = 10

/** The marketplace refused the request as asked (a validating API's answer to a `take` or page it does not serve). */
const refused = (error: unknown, statuses: readonly number[]): boolean =>
  error instanceof SellerDeskError && error.status !== undefined && statuses.includes(error.status)
/** How a marketplace may refuse a `take` above its limit. */
const TAKE_REFUSALS = [400, 422]
/** How a marketplace may answer a page past the last one instead of an empty page. */
const PAST_END_REFUSALS = [400, 404, 422]

type Batch = OrderBatch | SellRequestBatch

interface PageQuery {
  page: number
  take: number
  fromMs?: number | null
  /** The list's total as last answered, for a page of a walk that may be refused past its end (see fetchPage). */
  knownTotal?: number
}

interface PageAnswer {
  total: number
  /** The rows read whole. */
  batch: Batch
  /** The rows that could not be read, each at its place on the page among those of `batch`. */
  unreadable: readonly UnreadableRow[]
  /** The marketplace's clock at this answer, as best known; null when nothing tells it. */
  serverNowMs: number | null
  /** That clock is the answer's Date header (not the newest time in its rows). */
  clockFromHeader: boolean
}

/**
 * The newest timestamp in the rows (an order's date, a sell request's update): the marketplace's clock
 * was at least there when it answered.
 */
function newestIn(resource: Resource, batch: Batch): number | null {
  let newest: number | null = null
  for (const row of batch.rows) {
    const ms = Date.parse(resource === 'orders' ? (row as OrderBatch['rows'][number]).orderDate : (row as SellRequestBatch['rows'][number]).updatedAt)
    if (!Number.isNaN(ms) && (newest === null || ms > newest)) newest = ms
  }
  return newest
}

/** A page with no rows (the end of a list). */
const emptyBatch = (): Batch => ({ rows: [], wire: NO_ROWS })
/** An answer taken as a page with no rows. */
const emptied = (answer: PageAnswer): PageAnswer => ({ ...answer, batch: emptyBatch(), unreadable: [] })

/** A row's update time as the marketplace wrote it: sell requests carry one, orders none. */
const updatedAt = (row: Batch['rows'][number]): string | undefined => ('updatedAt' in row ? row.updatedAt : undefined)

/** Totals in the order the answers arrived: whether one went down (see the file comment). */
class TotalWatch {
  /** Whether a total differed from the one before it (rows created or deleted while the list was read). */
  moved = false

  constructor(
    private last: number | null = null,
    public dropped = false
  ) {}

  observe(total: number): void {
    if (this.last !== null && total < this.last) this.dropped = true
    if (this.last !== null && total !== this.last) this.moved = true
    this.last = total
  }
}

/**
 * Rows created after a round's first answer (by the marketplace's clock: a sell request's createdAt, an
 * order's date), by id. With the total's change since that answer they tell whether rows were deleted
 * meanwhile.
 *
 * Where a row created later begins: for sell requests, the oldest update on the first page (that page
 * lists the newest updates, so a row that existed then and was not on it was created no later than
 * that); for orders, which carry no update time, and for a round resumed from a run that kept none of
 * this (SyncRun.created), the first answer's Date header, whose milliseconds are dropped, plus a second.
 * For orders no earlier than the newest order date on the first page: order dates carry no zone, and a
 * marketplace ahead of UTC writes them hours past its Date header, where every order of the last hours
 * would look created meanwhile. The first page lists the newest updates, not the newest orders (an
 * older order changed is listed before a newer one that did not): a row dated past that start that the
 * snapshot held before the round read it existed before the first answer, and is no row created
 * meanwhile. A pass read over several attempts goes on from what the attempts before found (forPass).
 */
class CreatedRows {
  private after: number | null = null
  private firstIds = new Set<string>()
  private readonly ids = new Set<string>()
  /** Rows counted by a pass committed before (those it read are held now, and not counted again). */
  private carried = 0

  /** `unknown`: those of the ids the live snapshot does not hold. */
  constructor(private readonly unknown: (resource: Resource, ids: string[]) => string[]) {}

  /**
   * For a pass over `run`'s round: one that resumes it goes on from what the attempts before it found
   * (SyncRun.created), so a pass read over several attempts counts as one read at once.
   */
  static forPass(run: SyncRun, unknown: (resource: Resource, ids: string[]) => string[]): CreatedRows {
    const created = new CreatedRows(unknown)
    if (run.covered.length === 0) return created
    const soFar = run.created
    if (soFar) {
      created.after = soFar.afterMs
      created.firstIds = new Set(soFar.firstIds)
      for (const id of soFar.ids) created.ids.add(id)
    } else created.after = run.cursorMs === null ? null : run.cursorMs + 1_000
    return created
  }

  /** What a later attempt of the same pass needs to go on (kept with the run). */
  get soFar(): CreatedSoFar {
    return { afterMs: this.after, firstIds: [...this.firstIds], ids: [...this.ids] }
  }

  /** Goes on from a committed pass's count (CheckOwed), for the catch-up a later sync runs after it. */
  static continuing(owed: CheckOwed, unknown: (resource: Resource, ids: string[]) => string[]): CreatedRows {
    const created = new CreatedRows(unknown)
    created.after = owed.createdAfterMs
    created.carried = owed.createdCount
    return created
  }

  /** What the count needs to go on in a later sync. */
  get owed(): Pick<CheckOwed, 'createdCount' | 'createdAfterMs'> {
    return { createdCount: this.count, createdAfterMs: this.after }
  }

  firstAnswer(resource: Resource, batch: Batch, cursorMs: number | null): void {
    this.firstIds = new Set(batch.rows.map((row) => row.id))
    const updates =
      resource === 'sellRequests' ? (batch as SellRequestBatch).rows.map((row) => Date.parse(row.updatedAt)).filter((ms) => !Number.isNaN(ms)) : []
    // Orders: the later of the Date header (plus its dropped second) and the newest order date.
    const starts = [cursorMs === null ? null : cursorMs + 1_000, resource === 'orders' ? newestIn(resource, batch) : null].filter((ms) => ms !== null)
    this.after = updates.length ? Math.min(...updates) : starts.length ? Math.max(...starts) : null
  }

  note(resource: Resource, batch: Batch): void {
    if (this.after === null) return
    const later: string[] = []
    for (const row of batch.rows) {
      if (this.firstIds.has(row.id) || this.ids.has(row.id)) continue
      const createdMs = Date.parse(resource === 'orders' ? (row as OrderBatch['rows'][number]).orderDate : (row as SellRequestBatch['rows'][number]).createdAt)
      if (createdMs > this.after) later.push(row.id)
    }
    // The snapshot is asked only about rows dated after the start (none, on most pages).
    if (later.length) for (const id of this.unknown(resource, later)) this.ids.add(id)
  }

  get count(): number {
    return this.carried + this.ids.size
  }
}

/**
 * Rows created while a pass read (and its catch-up after) that the total's change since its first answer
 * does not account for: some were deleted, and a deleted row held can hide a row missed (the counts
 * agree, the rows do not).
 */
const deletedSince = (firstTotal: number | null, created: CreatedRows, total: number): boolean => firstTotal !== null && created.count > total - firstTotal

export interface SyncEngineDeps {
  api: SellerApi
  snapshot: Snapshot
  settings: SyncSettings
  onProgress?: (progress: SyncProgress) => void
  /** The computer's clock: schedules, the history window and "synced at"; never where an incremental sync starts. */
  now?: () => number
  /**
   * How long a turn of reading a page, or of making a part's writes, lasts (default TURN_MS: a large page
   * takes several; 0: a turn per step).
   */
  turnMs?: number
}

/** One resource's part of a run: what it counts, and the network slots every part of the run shares. */
interface Counters {
  pages: number
  rounds: number
  network: Slots
  /** The run's queue of turns: every page is read, and every part handed over, in a turn of its own. */
  turn: Pause
  /** Called once a full pass has read the whole list: the next resource's part may start meanwhile. */
  passed(): void
  /** Reports the part's progress (when it is the one on screen). */
  progress(progress: SyncProgress): void
}

export function createSyncEngine(deps: SyncEngineDeps) {
  const now = deps.now ?? Date.now
  const { api, snapshot } = deps
  const turnMs = deps.turnMs ?? TURN_MS

  /**
   * One page, holding one of the run's network slots while it is on the wire (`held`: one the caller
   * took already). The slot is freed once the answer is in, before it is read (CallOptions.onAnswered).
   */
  async function fetchPage(resource: Resource, query: PageQuery, signal: AbortSignal, counters: Counters, held?: () => void): Promise<PageAnswer> {
    const release = held ?? (await counters.network.acquire())
    try {
      return await fetchPageWith(resource, query, signal, counters, release)
    } catch (error) {
      // A page after the first refused (page 1 of the same list was answered): a page past the list's end,
      // which may have come nearer since its total was read. An empty page says the same; what it leaves
      // unread, the total and the completeness check tell.
      if (query.knownTotal === undefined || query.page <= 1 || !refused(error, PAST_END_REFUSALS)) throw error
      return { total: query.knownTotal, batch: emptyBatch(), unreadable: [], serverNowMs: null, clockFromHeader: false }
    } finally {
      release()
    }
  }

  /**
   * The first page at `take`, or at half of it (down to MIN_TAKE) for as long as the marketplace refuses
   * the size asked: answers the page and the size it was read at.
   */
  async function firstPage(
    resource: Resource,
    query: Omit<PageQuery, 'page'>,
    signal: AbortSignal,
    counters: Counters
  ): Promise<{ answer: PageAnswer; take: number }> {
    for (let take = query.take; ; take = Math.max(MIN_TAKE, Math.floor(take / 2))) {
      try {
        return { answer: await fetchPage(resource, { ...query, page: 1, take }, signal, counters), take }
      } catch (error) {
        if (take <= MIN_TAKE || !refused(error, TAKE_REFUSALS)) throw error
      }
    }
  }

  async function fetchPageWith(resource: Resource, query: PageQuery, signal: AbortSignal, counters: Counters, onAnswered: () => void): Promise<PageAnswer> {
    const options = { signal, retries: deps.settings.retriesPerPage, onAnswered, beforeReading: counters.turn, turnMs }
    let answer: ListAnswer
    let batch: Batch
    if (resource === 'orders') {
      const fromDate = query.fromMs != null ? { fromDate: new Date(query.fromMs).toISOString() } : {}
      const { orders, ...rest } = await api.listOrders({ page: query.page, take: query.take, sortDir: 'DESC', ...fromDate }, options)
      answer = rest
      batch = { rows: orders, wire: rest.wire }
    } else {
      const { sellRequests, ...rest } = await api.listSellRequests({ page: query.page, take: query.take, sortDir: 'DESC' }, options)
      answer = rest
      batch = { rows: sellRequests, wire: rest.wire }
    }
    counters.pages++
    if (signal.aborted) throw signal.reason
    return {
      total: answer.total,
      batch,
      unreadable: answer.unreadable,
      serverNowMs: answer.serverDateMs ?? newestIn(resource, batch),
      clockFromHeader: answer.serverDateMs != null
    }
  }

  /** The server's total for what the snapshot should hold: every sell request, or the orders of the synced window. */
  async function serverTotal(resource: Resource, windowFromMs: number | null, signal: AbortSignal, counters: Counters): Promise<number> {
    try {
      return (await fetchPage(resource, { page: 1, take: 1, fromMs: windowFromMs }, signal, counters)).total
    } catch (error) {
      // A marketplace that serves no page that small (the spec states no limits): asked as the sync reads
      // its first page, at the sync's own size or the smaller one it serves.
      if (!refused(error, TAKE_REFUSALS)) throw error
      return (await firstPage(resource, { take: deps.settings.take, fromMs: windowFromMs }, signal, counters)).answer.total
    }
  }

  function kindFor(resource: Resource, requested: SyncRequest): SyncKind {
    if (requested === 'full' || requested === 'incremental') return requested
    const state = snapshot.syncState(resource)
    if (snapshot.run(resource)) return 'full' // finish an interrupted one
    if (state.lastFullMs === null) return 'full'
    // A full sync swapped in whose catch-up and check were stopped: they are what is left of it.
    if (state.checkOwed !== null) return 'incremental'
    // Counted from the last full sync's end: one that took longer than the interval is no reason for another.
    if (requested === 'auto' && now() - (state.lastFullEndedMs ?? state.lastFullMs) > deps.settings.reconcileEveryMs) return 'full'
    // The last check came up short: rows an incremental sync would never look at again may be missing.
    // Not where a full sync settled the gap (the marketplace counts rows it never lists): reading the
    // whole list again would find what it found, and a gap that changes makes the incremental one full.
    if (requested === 'auto' && state.complete === false && state.settledGap === null) return 'full'
    return 'incremental'
  }

  /**
   * One pass over the whole list into the staging area, trusting what came back: the page size is what
   * the server pages by, and positions a page did not bring are asked for again.
   */
  async function pass(
    run: SyncRun,
    watch: TotalWatch,
    created: CreatedRows,
    found: UnreadableFound,
    signal: AbortSignal,
    counters: Counters
  ): Promise<{ doubtLeft: boolean; oldestReadMs: number }> {
    const s = deps.settings
    const resource = run.resource
    /**
     * Where the list ends: the start of a page that came back empty twice (once may be a page cut short
     * to nothing). Pages past a first empty one wait until it is asked again.
     */
    let listEnd = Infinity
    let emptyAt = Infinity
    let pending: Batch[] = []
    /** Ids of the rows pending that could not be read: the snapshot's copies are staged with them. */
    let pendingHeld: string[] = []
    let pendingRows = 0
    let pendingRanges: [number, number][] = []
    /** Rows taken out of `pending` whose part waits for its turn to be handed over (counted in progress). */
    let handingRows = 0
    /**
     * Hands what was fetched to the snapshot (which writes it while the pass fetches on). Its positions
     * join `run.covered` in the same step as the hand-over, which records them with these rows: a part
     * that waited for its turn behind another must not record the other's positions.
     */
    const flush = async () => {
      const batches = pending
      const held = pendingHeld
      const ranges = pendingRanges
      const rows = pendingRows
      pending = []
      pendingHeld = []
      pendingRows = 0
      pendingRanges = []
      let part: StagingPart | null = null
      if (batches.length > 0) {
        handingRows += rows
        try {
          await counters.turn()
          // The rows' writes made over turns of the run's queue (a part's columns grow with its
          // rows), and handed over in a turn with room for it; the positions join in that turn.
          const pause = createPause(turnMs, 0, counters.turn)
          part = await snapshot.stagingPart(resource, batches as OrderBatch[] | SellRequestBatch[], pause, held)
          await pause()
        } finally {
          handingRows -= rows
        }
      }
      const coveredBefore = coveredCount(run.covered)
      for (const [start, end] of ranges) run.covered = withRange(run.covered, start, end)
      if (coveredCount(run.covered) > coveredBefore) run.progressMs = now()
      // What the check needs of the rows read so far goes with their positions, for a later attempt to go
      // on from (rows of pages not handed over yet may be in it: a page read again tells the same of them).
      run.created = created.soFar
      run.unreadable = found.entries()
      await snapshot.stagePages(run, part ?? (batches as OrderBatch[] | SellRequestBatch[]))
    }
    let pagesDone = 0
    let pagesPlanned = 0
    /** Where this pass read each row: a page past the total holding only rows read is the last page again. */
    const places = new RowPlaces()
    /** The oldest change time of the listings the pass read (the list is newest first): where its reading reached. */
    let oldestReadMs = Infinity
    const report = () =>
      counters.progress({
        kind: 'full',
        resource,
        pagesDone,
        pagesTotal: Math.max(pagesDone, pagesPlanned),
        items: Math.min(run.total, coveredCount(run.covered) + handingRows + pendingRanges.reduce((sum, [a, b]) => sum + b - a, 0))
      })
    /** Takes a page's rows (those at `start` on) into the pass; answers how many it took. */
    const take = async (answer: PageAnswer, start: number): Promise<number> => {
      if (start >= answer.total && repeats(answer, places)) answer = emptied(answer)
      const placeOf = readPlaces(answer)
      answer.batch.rows.forEach((row, index) => {
        const updated = updatedAt(row)
        places.note(start + placeOf(index), row.id, updated)
        if (updated !== undefined) oldestReadMs = Math.min(oldestReadMs, Date.parse(updated))
      })
      for (const row of answer.unreadable) places.note(start + row.place, unreadableKey(row, start + row.place), row.updatedAt)
      found.page(answer, start)
      const rows = rowsOn(answer)
      watch.observe(answer.total)
      run.total = answer.total
      run.firstTotal ??= answer.total
      run.totalDropped ||= watch.dropped
      run.cursorMs ??= answer.serverNowMs
      created.note(resource, answer.batch)
      if (rows === 0) {
        if (start === emptyAt) listEnd = Math.min(listEnd, start)
        emptyAt = Math.min(emptyAt, start)
      } else if (start <= emptyAt && emptyAt < start + rows) emptyAt = Infinity
      pending.push(answer.batch)
      pendingHeld.push(...UnreadableFound.ids(answer))
      pendingRows += rows
      pendingRanges.push([start, start + rows])
      pagesDone++
      report()
      if (pendingRows >= STAGE_ROWS) await flush()
      return rows
    }

    const resumed = run.covered.length > 0
    try {
      if (run.covered.length === 0) {
        // The first page tells the total and how the server pages: fewer rows than asked while more
        // remain is its page size (a cap), more rows than asked is its own size (it ignores `take`).
        // A later round asks the size already learned.
        const { answer: first, take: asked } = await firstPage(
          resource,
          { take: run.round > 1 ? run.pageSize : s.take, fromMs: run.windowFromMs },
          signal,
          counters
        )
        created.firstAnswer(resource, first.batch, first.serverNowMs)
        await take(first, 0)
        // A first page short of what was asked is asked once more: a cap answers short again, a page cut
        // short at random does not. The larger answer is the page size.
        let rows = rowsOn(first)
        if (rows < asked && first.total > rows) {
          const again = await fetchPage(resource, { page: 1, take: asked, fromMs: run.windowFromMs }, signal, counters)
          await take(again, 0)
          rows = Math.max(rows, rowsOn(again))
        }
        run.pageSize = pageSizeAfterFirst(asked, rows, run.total)
        pagesPlanned = Math.ceil(run.total / run.pageSize)
        await flush()
      }
      let stalled = 0
      for (let refill = 0; refill <= REFILLS && stalled < 4; refill++) {
        const covered = coveredCount(run.covered)
        const pages = pagesOver(gapsIn(run.covered, Math.min(run.total, listEnd)), run.pageSize, PAGES_PER_REFILL)
        if (pages.length === 0) break
        pagesPlanned = pagesDone + pages.length
        report()
        const size = run.pageSize
        /** The rows a page asked at `size` starts after: more, once an answer showed the server pages by more. */
        const stride = () => Math.max(size, run.pageSize)
        // At most `concurrency` requests on the wire (the run's, shared with another resource's part); a
        // lane reading an answer has given its slot to the next request already, so the reading overlaps
        // the network instead of adding to it.
        await forEachBounded(
          pages,
          s.concurrency + 2,
          async (page) => {
            const release = await counters.network.acquire()
            // Past where the list was seen to end (a total that counts rows it never lists): not asked.
            if ((page - 1) * stride() >= listEnd || (page - 1) * stride() > emptyAt) {
              release()
              return
            }
            const answer = await fetchPage(resource, { page, take: size, fromMs: run.windowFromMs, knownTotal: run.total }, signal, counters, release)
            const rows = rowsOn(answer)
            // More rows than asked: the server's pages are larger than the first page showed (it was short,
            // cut short at random rather than capped), and it pages by at least that many whatever `take`
            // says. Asked for at that size from then on.
            if (rows > run.pageSize) {
              run.pageSize = rows
              // Where empty pages were placed by the smaller size is not where the list ends: forgotten.
              listEnd = Infinity
              emptyAt = Infinity
            }
            // Every page of this refill (empty, short or whole) starts where the server's size says.
            await take(answer, (page - 1) * Math.max(stride(), rows))
          },
          signal
        )
        await flush()
        // A page short in the middle is not a smaller page size (other pages came back whole): its
        // positions are asked for again, as the same pages.
        stalled = coveredCount(run.covered) > covered ? 0 : stalled + 1
      }
      // A total that counts fewer rows than the list holds would hide the rest if it ends on a page
      // boundary: while the last page read came back whole, the next one is asked for too.
      for (let extra = 0; listEnd === Infinity && extra <= Math.ceil(run.total / run.pageSize) + 10; extra++) {
        const end = run.covered[0]?.[0] === 0 ? run.covered[0][1] : 0
        if (end < run.total || end === 0 || end % run.pageSize !== 0) break
        const size = run.pageSize
        const page = end / size + 1
        const answer = await fetchPage(resource, { page, take: size, fromMs: run.windowFromMs, knownTotal: run.total }, signal, counters)
        const rows = rowsOn(answer)
        if (rows > size) run.pageSize = rows
        const took = await take(answer, (page - 1) * Math.max(size, rows))
        await flush()
        if (took === 0) break
      }
      // Every position read and still fewer rows than the total: rows of equal time that came in a new
      // order on each request (rowPlaces.ts) are read again where a row was read twice. A page of another
      // size refused is that size refused, not a page past the end: it is left to throw (readAgainInDoubt).
      const readAgain = async (page: number, size: number) => {
        const pastEnd = size === run.pageSize ? { knownTotal: run.total } : {}
        const answer = await fetchPage(resource, { page, take: size, fromMs: run.windowFromMs, ...pastEnd }, signal, counters)
        await take(answer, (page - 1) * Math.max(size, rowsOn(answer)))
        return rowsOn(answer)
      }
      // The rows the list holds: its total, or fewer where the pages were seen to end before it (a total
      // that counts rows never listed), so that rows that are not there are not looked for reading after reading.
      const rowsListed = () => Math.min(run.total, listEnd)
      // (Not where rows were created or deleted meanwhile: a row shifted by them is read twice too, and
      // the catch-up and the check see to those. Nor in a pass resumed, which knows not where rows were read.)
      // Rows read twice whose stretch was not read whole again (or a pass resumed, which cannot tell): rows
      // of it may be missed though every position was read.
      const doubtLeft =
        resumed ||
        (watch.moved
          ? places.inDoubt
          : !(await readAgainInDoubt(places, { wanted: rowsListed, size: () => run.pageSize, read: readAgain, lanes: s.concurrency }, signal)))
      await flush()
      return { doubtLeft, oldestReadMs }
    } catch (error) {
      // Keep what was fetched (checked pages) so a later run resumes after it; the failure is what counts.
      try {
        await flush()
        await snapshot.stagingWritten(resource)
      } catch {
        // The failure above says more.
      }
      throw error
    }
  }

  /**
   * What changed since `sinceMs` (the marketplace's clock), newest first, one page after another (a row
   * moved to the front while we read then repeats in a later page instead of being skipped), written to
   * the live snapshot in one transaction. Returns the marketplace's clock at the first answer.
   */
  async function changesSince(
    resource: Resource,
    sinceMs: number,
    watch: TotalWatch | null,
    created: CreatedRows | null,
    signal: AbortSignal,
    counters: Counters,
    reportProgress: boolean,
    /** Where orders new to the snapshot were created after (the last cursor less the margin), if known. */
    createdAfterMs: number | null = null
  ) {
    const s = deps.settings
    // Syncs run one at a time: a walk that begins now reads every page after the deletes made here until
    // now, and only a full sync's run still open can hold pages read before them.
    if (resource === 'sellRequests') await snapshot.listingsReadFrom(now())
    const batches: Batch[] = []
    const { pageSize, settledGap } = snapshot.syncState(resource)
    // At the page size the last full sync learned, so a capped marketplace is not asked to show it again.
    const walk = new PageWalk(pageSize ?? s.take)
    const neverListed = settledGap ?? 0
    let items = 0
    let cursorMs: number | null = null
    let clockFromHeader = false
    let lastTotal = 0
    let cutShort = false
    // The walk's own list (for orders, those changed since): a total that goes down while it pages means
    // a row was deleted ahead of where it reads, and the rows behind moved back over a page boundary.
    const ownTotals = new TotalWatch()
    /** Ids this walk read: a page past the total holding only these is the last page again, the end. */
    const seen = new Set<string>()
    /** Where the walk read the rows changed since (rowPlaces.ts); they fill the list's first `changed` positions. */
    const places = new RowPlaces()
    let changed = 0
    const changedSince = (row: Batch['rows'][number]) => resource === 'orders' || Date.parse((row as SellRequestBatch['rows'][number]).updatedAt) >= sinceMs
    // A row that cannot be read is among those changed unless the time it carries says otherwise: the
    // walk then reads on rather than end early.
    const unreadableChanged = (row: UnreadableRow) => resource === 'orders' || !(Date.parse(row.updatedAt ?? '') < sinceMs)
    /** The rows the walk found unreadable. */
    const found = new UnreadableFound()
    /** Takes a page's rows into `places` and `found`; answers how many of them changed since. */
    const noteChanged = (answer: PageAnswer, start: number): number => {
      const placeOf = readPlaces(answer)
      let fresh = 0
      answer.batch.rows.forEach((row, index) => {
        if (!changedSince(row)) return
        fresh++
        places.note(start + placeOf(index), row.id, updatedAt(row))
      })
      for (const row of answer.unreadable) {
        if (!unreadableChanged(row)) continue
        fresh++
        places.note(start + row.place, unreadableKey(row, start + row.place), row.updatedAt)
      }
      found.page(answer, start)
      return fresh
    }
    const query = { ...(resource === 'orders' ? { fromMs: sinceMs } : {}) }
    /**
     * Writes the rows read to the live snapshot (applyChanges), with the sync's time (null: the sync
     * failed, and the time of the last one stands); answers what the walk's outcome needs of them.
     */
    const applyRead = async (syncedMs: number | null) => {
      const ids = [...new Set(batches.flatMap((batch) => batch.rows.map((row) => row.id)))]
      const newIds = snapshot.unknownIds(resource, ids)
      // The walk lists orders created or updated since: one placed before the synced window and not held
      // (an old order refunded today) is kept for its update but is no new order to announce.
      const windowFromMs = resource === 'orders' ? snapshot.syncState('orders').windowFromMs : null
      const placedMs = new Map(batches.flatMap((batch) => (batch as OrderBatch).rows.map((order) => [order.id, Date.parse(order.orderDate)] as const)))
      const inWindow = (fresh: string[]) => (windowFromMs === null ? fresh : fresh.filter((id) => !((placedMs.get(id) ?? Infinity) < windowFromMs)))
      const { newOrderIds: announced } =
        resource === 'orders'
          ? await snapshot.applyChanges('orders', batches as OrderBatch[], syncedMs, inWindow)
          : await snapshot.applyChanges('sellRequests', batches as SellRequestBatch[], syncedMs)
      return { ids, newIds, placedMs, announced }
    }
    try {
      for (;;) {
        let answer: PageAnswer
        if (walk.pagesDone === 0) ({ answer, take: walk.size } = await firstPage(resource, { ...query, take: walk.size }, signal, counters))
        else answer = await fetchPage(resource, { ...query, take: walk.size, page: walk.page, knownTotal: lastTotal }, signal, counters)
        if (walk.pastCount(answer.total) && repeats(answer, seen)) answer = emptied(answer)
        for (const row of answer.batch.rows) seen.add(row.id)
        for (const id of UnreadableFound.ids(answer)) seen.add(id)
        // Orders are asked for the changed ones only: their total is of those, not of the whole list.
        if (resource === 'sellRequests') watch?.observe(answer.total)
        if (cursorMs === null) clockFromHeader = answer.clockFromHeader
        cursorMs ??= answer.serverNowMs
        created?.note(resource, answer.batch)
        lastTotal = answer.total
        ownTotals.observe(answer.total)
        const rows = rowsOn(answer)
        batches.push(answer.batch)
        if (!walk.answered(rows, answer.total)) {
          found.page(answer, 0) // the first page, asked again
          continue
        }
        const fresh = noteChanged(answer, walk.start)
        // Sell requests are the whole list: a page that joins what was read and holds an older row ends the changed ones.
        const older = walk.joins && fresh < rows
        items += fresh
        changed = older ? walk.start + fresh : walk.position
        if (reportProgress)
          counters.progress({
            kind: 'incremental',
            resource,
            pagesDone: walk.pagesDone,
            pagesTotal: walk.pagesTotal(answer.total),
            items
          })
        if (older) break
        // Rows a full sync found counted and never listed are not waited for (ResourceSyncState.settledGap).
        const step = walk.next(rows, answer.total, neverListed)
        if (step === 'end') break
        if (step === 'cut-short') {
          cutShort = true
          break
        }
      }
      // Fewer changed rows read than positions they fill: rows of equal time came in a new order on each
      // request (rowPlaces.ts). Read again where a row was read twice; a walk that cannot read them all is
      // one it could not finish.
      const readAgain = async (page: number, size: number) => {
        const pastEnd = size === walk.size ? { knownTotal: lastTotal } : {}
        const answer = await fetchPage(resource, { ...query, take: size, page, ...pastEnd }, signal, counters)
        if (resource === 'sellRequests') watch?.observe(answer.total)
        ownTotals.observe(answer.total)
        created?.note(resource, answer.batch)
        batches.push(answer.batch)
        noteChanged(answer, (page - 1) * Math.max(size, rowsOn(answer)))
        return rowsOn(answer)
      }
      const again = { wanted: () => changed, size: () => walk.size, read: readAgain, lanes: deps.settings.concurrency }
      // A walk cut short is read again too: where a count claims rows the pages never bring, the walk stops
      // at the last row they do, and the rows before it that ties hid can still be read. It stays one cut
      // short (its end was not reached, and the count is not confirmed). (Not where the list's count moved
      // while it was read: rows shifted by a creation or a deletion are read twice too, and the walk's own
      // checks see to those.)
      if (!ownTotals.moved && !(await readAgainInDoubt(places, again, signal))) cutShort = true
    } catch (error) {
      // A page failed (a rate limit, the marketplace down, offline), of the walk or of its re-read: the
      // rows read before it are still written, so the seller sees them now rather than at the next sync
      // that gets through. No cursor moves, and the failure is what the sync reports.
      try {
        await applyRead(null)
      } catch {
        // The failure above says more.
      }
      throw error
    }
    const { ids, newIds, placedMs, announced } = await applyRead(now())
    // What the new orders tell of the zone of order times (see ZONELESS_SLACK_MS).
    const clock =
      resource === 'orders' && createdAfterMs !== null && cursorMs !== null && clockFromHeader
        ? readOrderClock(
            announced.flatMap((id) => placedMs.get(id) ?? []),
            snapshot.orderTimeZone(),
            createdAfterMs,
            cursorMs,
            snapshot.syncState('orders').clockOffsetMs
          )
        : null
    // A walk that could not reach its end moves no cursor: the next one looks from the same place.
    // Sell requests are listed whole, so the last total is already the one the check needs.
    return {
      newOrderIds: announced,
      clockTold: toldBy(clock),
      /** The rows read whole, and those found unreadable. */
      readIds: new Set(ids),
      unreadable: found.entries(),
      newIds,
      cutShort,
      shifted: ownTotals.dropped,
      cursorMs: cutShort ? null : cursorMs,
      total: resource === 'sellRequests' ? lastTotal : null
    }
  }

  /** Where an incremental sync starts: the last sync's start in the marketplace's clock, less the margin. */
  function sinceOf(resource: Resource, cursorMs: number | null): number {
    const state = snapshot.syncState(resource)
    // A snapshot from before cursors were kept has only the computer's clock to go by.
    const base = cursorMs ?? state.cursorMs ?? state.lastIncrementalMs ?? state.lastFullMs ?? 0
    return base - deps.settings.safetyMarginMs
  }

  /** Rows held against the server's total (`known`, or asked for). */
  async function check(
    resource: Resource,
    known: number | null,
    signal: AbortSignal,
    counters: Counters,
    watch: TotalWatch
  ): Promise<Omit<Completeness, 'complete' | 'unreadable'>> {
    const windowFromMs = resource === 'orders' ? snapshot.syncState(resource).windowFromMs : null
    const total = known ?? (await serverTotal(resource, windowFromMs, signal, counters))
    watch.observe(total)
    return { synced: snapshot.count(resource), total }
  }

  /** Of the unreadable rows, those the snapshot holds no copy of: rows the count finds missing. */
  function missingOf(resource: Resource, unreadable: readonly UnreadableEntry[]): number {
    const ids = unreadable.flatMap((entry) => (entry.id === null ? [] : [entry.id]))
    return unreadable.length - ids.length + (ids.length ? snapshot.unknownIds(resource, ids).length : 0)
  }

  async function full(resource: Resource, signal: AbortSignal, counters: Counters): Promise<{ ids: string[]; completeness: Completeness }> {
    const s = deps.settings
    let run = snapshot.run(resource)
    // Stale once it has read nothing for a while (see SyncSettings.resumeWithinMs), however long ago it
    // started. A run staged by an older Seller Desk has no cursor: what changed in it since cannot be told.
    const stale = run !== null && (now() - (run.progressMs ?? run.startedMs) > s.resumeWithinMs || (run.cursorMs === null && run.covered.length > 0))
    if (!run || stale) {
      run = {
        resource,
        startedMs: now(),
        windowFromMs: resource === 'orders' ? now() - s.historyDays * DAY_MS : null,
        total: 0,
        pageSize: s.take,
        covered: [],
        cursorMs: null,
        round: 1,
        totalDropped: false,
        firstTotal: null,
        progressMs: now()
      }
      await snapshot.beginRun(run)
    }
    // The listings kept unread by the round before, when it read the list whole, left no rows in doubt (read
    // at two places, their stretch not read whole again) and saw nothing that could have hidden a row
    // (calm). A listing held that two such rounds in a row did not read, the second reading past where it
    // would be (listings older than it: the list is newest first), is gone, not missed: the second does
    // not keep it. (Kept, a listing deleted elsewhere while a pass had it read stayed for good where the
    // count holds rows it never lists: every pass is short there, and every sync after it was a full one.)
    // Not one past the last listing read: a last page cut short at random twice would look the same. And a
    // sync that dropped listings so settles no gap: an edit elsewhere that gave a listing an older time
    // than the one held moves it to the end of the list, where a last page cut short hides it; the next
    // automatic sync is then a full one, which reads it again.
    let before: { keptIds: string[] } | null = null
    let droppedAsGone = false
    const ids = new Set<string>()
    for (;;) {
      counters.rounds = run.round
      const watch = new TotalWatch(run.covered.length ? run.total : null, run.totalDropped)
      // A pass that resumes its round goes on from what the attempts before it found.
      const created = CreatedRows.forPass(run, (kind, rowIds) => snapshot.unknownIds(kind, rowIds))
      const found = new UnreadableFound(run.covered.length ? run.unreadable : [])
      const { doubtLeft, oldestReadMs } = await pass(run, watch, created, found, signal, counters)
      counters.passed()
      // Rows read unreadable with no copy held: read, but not staged (those held are staged as held). What
      // the check below needs of the pass is recorded with the swap: should the catch-up or the check be
      // stopped (a rate limit, offline), the next sync runs them on this pass (incremental) instead of
      // reading the whole list again.
      // Read from the list's start to where it ended with no position left out: a gap settled before is
      // rows never listed (ResourceSyncState.settledGap), not rows this pass missed.
      const readWhole = run.covered.length === 1 && run.covered[0]![0] === 0
      const gone = resource === 'sellRequests' && readWhole && !doubtLeft && Number.isFinite(oldestReadMs) ? (before?.keptIds ?? null) : null
      const committed = await snapshot.commitRun(resource, missingOf(resource, found.entries()), {
        endedMs: now(),
        neverListed: readWhole ? (snapshot.syncState(resource).settledGap ?? 0) : 0,
        ...(gone ? { gone: { ids: gone, updatedAfterMs: oldestReadMs } } : {}),
        owed: {
          totalDropped: watch.dropped || run.totalDropped,
          firstTotal: run.firstTotal,
          lastTotal: run.total,
          ...created.owed,
          unreadable: found.entries()
        }
      })
      for (const id of committed.newOrderIds) ids.add(id)
      droppedAsGone ||= gone !== null && gone.length > 0 && snapshot.unknownIds(resource, gone).length > 0
      // What changed while the pass read, then the check. Its progress is not reported: the next
      // resource's pass may be reporting by now, and this is part of the full sync already shown.
      const since = sinceOf(resource, run.cursorMs)
      const caughtUp = await changesSince(resource, since, watch, created, signal, counters, false, since)
      for (const id of caughtUp.newOrderIds) ids.add(id)
      const completeness = await check(resource, caughtUp.total, signal, counters, watch)
      // The pass's unreadable rows, as the catch-up after it found them.
      const unreadable = unreadableAfterWalk(found.entries(), caughtUp.readIds, caughtUp.unreadable)
      const deletedMeanwhile = deletedSince(run.firstTotal, created, completeness.total)
      // Rows held that the pass did not read are kept (commitRun), unconfirmed: a count they make agree says nothing.
      const complete =
        completeness.synced + missingOf(resource, unreadable) === completeness.total &&
        committed.kept === 0 &&
        !watch.dropped &&
        !run.totalDropped &&
        !deletedMeanwhile &&
        !caughtUp.cutShort &&
        !caughtUp.shifted
      const calm = readWhole && !doubtLeft && !watch.dropped && !run.totalDropped && !deletedMeanwhile && !caughtUp.shifted
      before = calm ? { keptIds: committed.keptIds } : null
      if (complete || run.round >= s.rounds) {
        // Short after every round, read with no position left out and nothing seen that would hide a row:
        // the count holds rows never listed.
        const gap = completeness.total - completeness.synced - missingOf(resource, unreadable)
        const settled = !complete && gap > 0 && calm && committed.kept === 0 && !droppedAsGone
        await snapshot.recordCheck(resource, {
          serverTotal: completeness.total,
          syncedCount: completeness.synced,
          complete,
          settledGap: settled ? gap : null,
          cursorMs: caughtUp.cursorMs ?? run.cursorMs,
          unreadable,
          ...caughtUp.clockTold
        })
        return { ids: [...ids], completeness: { ...completeness, complete, ...(unreadable.length ? { unreadable } : {}) } }
      }
      // Read again from scratch, at the page size learned: nothing the last round saw goes with it.
      run = {
        resource,
        startedMs: run.startedMs,
        windowFromMs: run.windowFromMs,
        pageSize: run.pageSize,
        total: 0,
        covered: [],
        cursorMs: null,
        round: run.round + 1,
        totalDropped: false,
        firstTotal: null,
        progressMs: now()
      }
      await snapshot.beginRun(run)
    }
  }

  async function incremental(
    resource: Resource,
    signal: AbortSignal,
    counters: Counters
  ): Promise<{ ids: string[]; completeness: Completeness; escalate: boolean }> {
    const before = snapshot.syncState(resource)
    // A full sync swapped in whose catch-up and check were stopped: this walk is that catch-up, and the
    // check judges the pass as the one right after it would have (full): from the totals, the rows
    // created and the rows unreadable the pass saw.
    const owed = before.checkOwed
    // The rows recorded unreadable, and how many of them the snapshot held no copy of (before the walk writes).
    const unreadableBefore = owed?.unreadable ?? snapshot.unreadable(resource)
    const missingBefore = missingOf(resource, unreadableBefore)
    const watch = owed ? new TotalWatch(owed.lastTotal, owed.totalDropped) : new TotalWatch()
    const createdSincePass = owed ? CreatedRows.continuing(owed, (kind, rowIds) => snapshot.unknownIds(kind, rowIds)) : null
    const since = sinceOf(resource, null)
    // The slack for zone-less order times, until new orders have shown them to be read right.
    const slack =
      resource !== 'orders' ? 0 : before.orderTimesReadRight !== true ? ZONELESS_SLACK_MS : snapshot.orderTimeZone() !== null ? CLOCK_CHANGE_SLACK_MS : 0
    const {
      newOrderIds,
      newIds,
      cutShort,
      shifted,
      cursorMs,
      total,
      clockTold,
      readIds,
      unreadable: found
    } = await changesSince(resource, since - slack, watch, createdSincePass, signal, counters, true, since)
    const completeness = await check(resource, total, signal, counters, watch)
    const unreadable = unreadableAfterWalk(unreadableBefore, readIds, found)
    const missing = missingOf(resource, unreadable)
    // Read everything on: a discrepancy the last check did not know of (a deletion elsewhere, a missed
    // row); a total that went down while we read (it may have hidden a changed row); a total that moved
    // by other than the rows it brought that were new (a deletion next to a creation); a walk that could
    // not reach its end. Unreadable rows the snapshot holds no copy of are no discrepancy, then or now:
    // a row unreadable before and read whole now is new to the snapshot, not to the marketplace; one
    // new and unreadable is new to the marketplace, not to the snapshot.
    const knownGap = before.serverTotal !== null && before.syncedCount !== null ? before.serverTotal - before.syncedCount - missingBefore : 0
    const unreadableIds = new Set(unreadableBefore.map((entry) => entry.id))
    const created = newIds.filter((id) => !unreadableIds.has(id)).length + missingOf(resource, newUnreadable(unreadableBefore, found))
    const unexplained = before.complete === true && before.serverTotal !== null && completeness.total !== before.serverTotal + created
    // A pass that kept rows it did not read, or that rows deleted meanwhile may have hidden a row from, is
    // read again, as it would have been right after it.
    const passShort = owed !== null && createdSincePass !== null && (owed.kept > 0 || deletedSince(owed.firstTotal, createdSincePass, completeness.total))
    const escalate = completeness.total - completeness.synced - missing !== knownGap || watch.dropped || shifted || unexplained || cutShort || passShort
    const complete = completeness.synced + missing === completeness.total && (before.complete !== false || owed !== null) && !cutShort
    if (!escalate)
      await snapshot.recordCheck(resource, {
        serverTotal: completeness.total,
        syncedCount: completeness.synced,
        complete,
        cursorMs: cursorMs ?? before.cursorMs,
        unreadable,
        ...clockTold
      })
    return { ids: newOrderIds, completeness: { ...completeness, complete, ...(unreadable.length ? { unreadable } : {}) }, escalate }
  }

  return {
    /** One sync of the resources (both by default). Throws the first failure (SellerDeskError) or the abort reason. */
    async run(requested: SyncRequest, signal: AbortSignal, resources: readonly Resource[] = ['orders', 'sellRequests']): Promise<SyncReport> {
      const report: SyncReport = {
        kinds: { orders: 'incremental', sellRequests: 'incremental' },
        pagesFetched: { orders: 0, sellRequests: 0 },
        newOrderIds: [],
        checks: {},
        rounds: {}
      }
      // The resources in turn, each starting once the one before has read its whole list (or ended):
      // its commit, catch-up and check then overlap the next one's pages. At most `concurrency`
      // requests are on the wire for the whole run. A resource that fails before its pass is read
      // stops the run there, as a failure stops a sequence. Progress is the latest started part's
      // while it runs (one resource at a time on screen), then again the one before's if it still runs.
      const network = createSlots(deps.settings.concurrency)
      const turn = createTurnQueue()
      const running: Resource[] = []
      const parts: Promise<void>[] = []
      let previous: Promise<void> = Promise.resolve()
      for (const resource of resources) {
        let passed!: () => void
        let failedFirst!: (error: unknown) => void
        const readable = new Promise<void>((resolve, reject) => {
          passed = resolve
          failedFirst = reject
        })
        // A part whose predecessor failed first never starts: the failure is the predecessor's.
        readable.catch(() => undefined)
        const part = previous.then(async () => {
          running.push(resource)
          let kind: SyncKind = 'incremental'
          const counters: Counters = {
            pages: 0,
            rounds: 0,
            network,
            turn,
            passed,
            progress: (progress) => {
              if (running.at(-1) === resource) deps.onProgress?.(progress)
            }
          }
          try {
            kind = kindFor(resource, requested)
            let outcome: { ids: string[]; completeness: Completeness }
            if (kind === 'incremental') {
              const step = await incremental(resource, signal, counters)
              outcome = step
              if (step.escalate) {
                kind = 'full'
                const fullOutcome = await full(resource, signal, counters)
                outcome = { ids: [...new Set([...step.ids, ...fullOutcome.ids])], completeness: fullOutcome.completeness }
              }
            } else outcome = await full(resource, signal, counters)
            report.checks[resource] = outcome.completeness
            if (resource === 'orders') report.newOrderIds = outcome.ids
            passed()
          } finally {
            running.splice(running.indexOf(resource), 1)
            report.kinds[resource] = kind
            report.pagesFetched[resource] = counters.pages
            if (counters.rounds) report.rounds[resource] = counters.rounds
          }
        })
        // Whatever ends a part before it passed (a throw anywhere in it) ends the wait of the next one.
        part.catch(failedFirst)
        parts.push(part)
        previous = readable
      }
      // Every started part ends before the run answers; the first failure in resource order is the run's.
      const ended = await Promise.allSettled(parts)
      const failure = ended.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected')
      if (failure) throw failure.reason
      return report
    }
  }
}

export type SyncEngine = ReturnType<typeof createSyncEngine>
