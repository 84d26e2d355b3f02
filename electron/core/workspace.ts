/**
 * The signed-in account's workspace: its snapshot, the sync that keeps it fresh, and the list, edit
 * and delete services the contract exposes. Lists read the snapshot (local-first); edits and deletes go
 * to the marketplace and update the snapshot on success. Opened at sign-in, closed at sign-out.
 */
import { basename, join } from 'node:path'
import { readJsonFile, writeFileAtomic } from './atomicFile'
import {
  workspacePreferencesSchema,
  type AppSettings,
  type CsvFile,
  type Dashboard,
  type Events,
  type EventName,
  type ListResult,
  type OrderListResult,
  type OrdersWorkbookFile,
  type OrderTimeZone,
  type WorkspacePreferences
} from '../shared/contract'
import { computeDashboard } from './dashboard/dashboard'
import { isKnownTimeZone, localDateOf } from './localCalendar'
import { openSnapshotReader } from './dashboard/snapshotReader'
import type { Order, SellRequest } from '../shared/domain'
import { DATE_TIME_WORDS } from '../shared/dateTimeWords'
import { SellerDeskError } from '../shared/errors'
import { createPause } from './eventLoopTurns'
import { byDate, byTotal, createOlderOrders, OLDER_ORDERS_MAX, type OlderOrdersRange, type OlderOrdersRead } from './olderOrders'
import { ordersCsvWriter } from './orderExport/orderCsv'
import { ordersWorkbookWriter } from './orderExport/orderWorkbook'
import { deleteNotCheckedError, fieldsNotTaken, notTakenMessage, readBackCause, readBackError, readBackVerdict } from './readBack'
import type { SellerApi, SellRequestChange } from './sellerApi'
import type { Account } from './session/session'
import { keptWhile } from './snapshot/keptWhile'
import { orderMatches } from './snapshot/orderTable'
import { sellRequestFacets } from './snapshot/sellRequestTable'
import { openSnapshot, snapshotFileFor, type IntegrityCheck, type OrderQuery, type SellRequestQuery, type Snapshot } from './snapshot/snapshot'
import { DEFAULT_SYNC_SETTINGS, type SyncSettings } from './sync/syncEngine'
import { createSyncService, type SyncService } from './sync/syncService'
import { createBulkEdit, type BulkEdit } from './bulkEdit/bulkEdit'
import { formatNumber } from '../shared/formatCount'
import { clockOffsetWords } from '../shared/time'

const DAY_MS = 24 * 60 * 60 * 1000

export interface WorkspaceDeps {
  userDataDir: string
  account: Account
  api: SellerApi
  settings: () => AppSettings
  emit: <E extends EventName>(event: E, payload: Events[E]) => void
  syncEngine?: Partial<SyncSettings>
  now?: () => number
  /** When the snapshot file's integrity is checked (snapshot.integrity tells once it is): 'now' by default. */
  integrity?: IntegrityCheck
}

export interface OrderListQuery extends Omit<OrderQuery, 'fromMs' | 'toMs'> {
  fromDate?: string | undefined
  toDate?: string | undefined
}

/** The orders to export: the list's filters and sort, no paging. */
export interface OrderExportQuery extends Omit<OrderListQuery, 'page' | 'take'> {
  timeZone: string
}

/**
 * Said where order times decide what is shown, of a marketplace seen writing them in a zone other than
 * the one they are read in (`zone`; null: UTC), with how far its clock is ahead of UTC where new orders
 * told (`clockOffsetMs`).
 */
const orderTimesOff = (zone: string | null, clockOffsetMs: number | null) =>
  `This marketplace writes order times in a time zone other than ${zone === null ? 'UTC' : zone}, which Seller Desk reads them in${clockOffsetMs === null ? '' : ` (new orders show its clock ${clockOffsetWords(clockOffsetMs)})`}: an order’s time, and the day it counts on, may be off by some hours. Name the marketplace’s time zone in Settings, under “Order times”.`
/** Notes said one after the other; null when there are none. */
const joinNotes = (...notes: (string | null)[]): string | null => notes.filter((note) => note !== null).join(' ') || null
/**
 * Where the synced window starts, as a list's notes name it: with its time, since it starts mid-day (orders
 * placed earlier that day are before it), as the instant itself (ISO), which the list also sends on its own
 * (`windowFrom`): the window says it in the seller's time zone, with the zone's name, as it says every time.
 */
const windowStart = (windowFromMs: number) => new Date(windowFromMs).toISOString()
/** The same start in an export's message, which the window shows as it is: in the seller's zone (`timeZone`), named. */
const windowStartIn = (windowFromMs: number, timeZone: string) => new Date(windowFromMs).toLocaleString('en-US', { ...DATE_TIME_WORDS, timeZone })

/** How many orders an export reads from the snapshot and writes (CSV) or gathers (XLSX) in one step. */
const EXPORT_PART = 100

export interface Workspace {
  readonly account: Account
  readonly snapshot: Snapshot
  readonly sync: SyncService
  /** Bulk edit of prices and quantities: the change set, and the apply queue in the snapshot. */
  readonly bulk: BulkEdit
  listOrders(query: OrderListQuery): Promise<OrderListResult>
  listSellRequests(query: SellRequestQuery): ListResult<SellRequest>
  editSellRequest(id: string, change: SellRequestChange): Promise<SellRequest>
  /** Deletes on the marketplace, then here; one the marketplace no longer has (404) is gone as asked: `alreadyDeleted`. */
  deleteSellRequest(id: string): Promise<{ id: string; alreadyDeleted: boolean }>
  dashboard(timeZone: string): Dashboard
  /**
   * The orders a list matches as a CSV file, written a part at a time with turns of the core between
   * (the core answers other calls meanwhile); each part as the snapshot holds it when read.
   */
  exportOrdersCsv(query: OrderExportQuery): Promise<CsvFile>
  /** The same orders, rows and columns as an Excel workbook (.xlsx), read the same way and written once at the end. */
  exportOrdersXlsx(query: OrderExportQuery): Promise<OrdersWorkbookFile>
  sellRequestFacets(): { brands: string[]; categories: string[] }
  /** The time zone this marketplace writes order times in, as the seller named it (null: UTC), and its clock where new orders show the zone wrong. */
  orderTimeZone(): OrderTimeZone
  /**
   * Reads this marketplace's order times in `zone` (null: UTC) from now on: the sync under way is
   * stopped first, every order's time is read again in it, then a sync runs.
   */
  setOrderTimeZone(zone: string | null): Promise<OrderTimeZone>
  /** How the seller left this account's workspace (view, filters, sort, column widths). */
  preferences(): Promise<WorkspacePreferences>
  savePreferences(preferences: WorkspacePreferences): Promise<WorkspacePreferences>
  /**
   * Closes the workspace (sign-out, account switch, quit): stops syncing and bulk applying, waits for
   * the bulk-edit PATCHes in flight to be answered and recorded, then closes the snapshot. Await it
   * before opening the same account again.
   */
  close(): Promise<void>
}

export function openWorkspace(deps: WorkspaceDeps): Workspace {
  const snapshot = openSnapshot(snapshotFileFor(deps.userDataDir, deps.account), deps.integrity)
  try {
    return workspaceOn(snapshot, deps)
  } catch (error) {
    // A file whose check was left for later may fail as the workspace first reads it: the snapshot is
    // closed, so the file can be set aside (openDatabase) and opened afresh.
    try {
      snapshot.close()
    } catch {
      // Closing a damaged file may fail too; the error that stopped the opening is the one to tell.
    }
    throw error
  }
}

/** The workspace over a snapshot just opened. */
function workspaceOn(snapshot: Snapshot, deps: WorkspaceDeps): Workspace {
  const now = deps.now ?? Date.now
  // What opening found is said to stay until closed, whether or not a page listens yet (see Events).
  if (snapshot.notice) deps.emit('notice', { level: 'warning', message: snapshot.notice, untilClosed: true })

  const sync = createSyncService({
    api: deps.api,
    snapshot,
    settings: deps.settings,
    ...(deps.syncEngine ? { engine: deps.syncEngine } : {}),
    onStatus: (status) => deps.emit('sync.status', status),
    onNewOrders: (ids) => {
      if (!deps.settings().notifyNewOrders) return
      const summary = snapshot.summarizeOrders(ids)
      if (summary.count > 0) deps.emit('orders.new', summary)
    },
    now
  })
  const api = sync.api
  api.useOrderTimeZone(snapshot.orderTimeZone())
  const bulk = createBulkEdit({
    refresh: () => sync.catchUpSellRequests(),
    readBack: () => sync.readBackSellRequests(),
    snapshot,
    api,
    online: () => sync.status().online,
    onProgress: (status) => deps.emit('bulk.progress', status),
    onFailure: (message) => deps.emit('notice', { level: 'error', message }),
    now
  })
  const interrupted = bulk.status().pendingBatch
  if (interrupted) {
    deps.emit('notice', {
      level: 'warning',
      message: `Applying “${interrupted.label}” was interrupted: ${interrupted.pending} changes were not sent yet. Open Bulk edit to resume.`,
      untilClosed: true,
      batchId: interrupted.id
    })
  }
  // Sums and filter choices read through their own read-only connection, beside the sync's writes.
  const reader = openSnapshotReader(snapshot.file)
  /** The brands and categories scan every listing: read once per listings generation. */
  const facets = keptWhile(
    () => [snapshot.listingsGeneration()],
    () => sellRequestFacets(reader)
  )
  // Preferences sit beside the snapshot, under the same account id.
  const preferencesFile = join(deps.userDataDir, 'preferences', basename(snapshot.file).replace(/\.sqlite$/, '.json'))

  function knownMarketplaceZone(timeZone: string): string {
    if (!isKnownTimeZone(timeZone))
      throw new SellerDeskError('invalid-input', `“${timeZone.slice(0, 64)}” is not a time zone Seller Desk knows. Pick one from the list.`)
    return timeZone
  }

  function knownZone(timeZone: string): string {
    if (!isKnownTimeZone(timeZone))
      throw new SellerDeskError('invalid-input', `“${timeZone.slice(0, 64)}” is not a time zone Seller Desk knows. Check your computer's time zone setting.`)
    return timeZone
  }

  const syncedAt = () => sync.status().lastSyncedAt
  const engineSettings = { ...DEFAULT_SYNC_SETTINGS, ...deps.syncEngine }
  // At the page size the marketplace answers, as a full sync learned it (one that refuses larger pages would refuse these).
  const olderOrders = createOlderOrders(api, {
    take: () => snapshot.syncState('orders').pageSize ?? engineSettings.take,
    retries: engineSettings.retriesPerPage,
    now
  })

  /**
   * A list or export reaching before the synced window, online: the range of orders placed to read from
   * the marketplace (see olderOrders.ts), searched and filtered here (olderInList); null when the
   * snapshot answers it.
   */
  function olderRange(query: Omit<OrderListQuery, 'page' | 'take'>, windowFromMs: number): OlderOrdersRange | null {
    const fromMs = query.fromDate ? Date.parse(query.fromDate) : undefined
    if (!startsBeforeWindow(fromMs, windowFromMs) || !sync.status().online) return null
    return { fromMs, toMs: query.toDate ? Date.parse(query.toDate) : undefined }
  }
  /**
   * Dates from more than a day before the kept window: a range starting within a day of the window's start
   * (a preset as long as the window, from the start of its first local day) is the snapshot's to answer.
   */
  const startsBeforeWindow = (fromMs: number | undefined, windowFromMs: number): fromMs is number => fromMs !== undefined && fromMs < windowFromMs - DAY_MS
  const windowFrom = () => snapshot.syncState('orders').windowFromMs ?? now() - deps.settings().historyDays * DAY_MS

  /** Older orders the list's search and status filters keep, in the list's order. */
  const inListOrder = (read: OlderOrdersRead, query: Pick<OrderListQuery, 'sortBy' | 'sortDir' | 'searchTerm' | 'statuses' | 'itemStatuses'>) =>
    read.placed.filter((order) => orderMatches(order, query)).sort(query.sortBy === 'total' ? byTotal(query.sortDir) : byDate(query.sortDir))

  /** What the seller is told of a read of older orders: where they come from and whether any are missing. */
  function olderNote(read: OlderOrdersRead, since: string): string {
    const source = `Orders placed before ${since} are not kept on this computer: these come from the marketplace.`
    if (read.capped)
      return `${source} The marketplace lists more than ${formatNumber(OLDER_ORDERS_MAX)} orders created or updated in these dates, and only that many were read: pick shorter dates, or keep more days on this computer (Settings).`
    if (!read.complete)
      return `${source} The marketplace counted ${formatNumber(read.listed)} orders created or updated in these dates but answered ${formatNumber(read.answered)}: some may be missing. Try again in a moment.`
    return source
  }
  let closing: Promise<void> | null = null

  /**
   * Writes here what the marketplace has taken. A workspace closing meanwhile (sign-out, another
   * account, quit) may refuse the write: the change is still done where it counts, the next sync of
   * this account brings it here, and the seller is not told that it failed.
   */
  async function keepHere(write: () => Promise<void>): Promise<void> {
    try {
      await write()
    } catch (error) {
      if (closing === null) throw error
    }
  }

  function needsConnection(action: string) {
    if (!sync.status().online)
      throw new SellerDeskError('network', `You are offline: ${action} needs a connection to the marketplace. Seller Desk will reconnect by itself.`)
  }

  /**
   * An edit whose outcome the marketplace did not tell (`failure`: answered unreadably, or not at all;
   * readBack.ts): the sell requests changed since the last sync are read back, and the listing as the
   * marketplace holds it now is the answer when it shows the change. Otherwise an error saying what
   * reading back showed (the snapshot then holds the marketplace's values, which the list shows), or,
   * of the failure's kind, that it could not be read back.
   */
  async function editReadBack(id: string, change: SellRequestChange, failure: SellerDeskError): Promise<SellRequest> {
    const readBack = await sync.readBackSellRequests()
    const listing = readBack ? null : snapshot.sellRequest(id)
    const fields = Object.keys(change).filter((field) => change[field] !== undefined)
    const verdicts = fields.map((field) => readBackVerdict(readBack, listing, field, change[field]!))
    const verdict = verdicts.find((v) => v !== 'made')
    if (listing && verdict === undefined) return listing
    throw readBackError(verdict ?? 'unknown', { failure, fields, now: listing })
  }

  /**
   * A delete whose outcome the marketplace did not tell (`failure`: answered unreadably, or not at all):
   * asked again, a 404 (or a readable success) shows the listing is gone. The API has no read by id, and
   * a sync does not see deletions short of reading every listing, so this is the cheapest proof; deleting
   * is what the seller asked anyway.
   */
  async function deleteReadBack(id: string, failure: SellerDeskError): Promise<void> {
    try {
      await api.deleteSellRequest(id)
    } catch (error) {
      if (error instanceof SellerDeskError && error.kind === 'not-found') return
      throw deleteNotCheckedError(failure)
    }
  }

  /**
   * The snapshot keeps the orders placed or updated within the history window (what the API's `fromDate`
   * selects) and older ones with items still to ship (olderOpenOrders.ts), so a list without dates may
   * hold orders placed before it: say why they are there.
   */
  function keptForAnUpdate(query: OrderListQuery, toMs: number | undefined, windowFromMs: number): string | null {
    // Sorted by date whatever the list's order: the date index then finds the range at once (sorted by
    // total, SQLite walks the total index through every order to find none before the window).
    const before = snapshot.queryOrders({
      ...query,
      page: 1,
      take: 1,
      sortBy: 'date',
      fromMs: undefined,
      toMs: Math.min(toMs ?? Number.POSITIVE_INFINITY, windowFromMs - 1)
    }).total
    if (before === 0) return null
    const days = Math.round((now() - windowFromMs) / DAY_MS)
    const since = windowStart(windowFromMs)
    return `This computer keeps the orders placed or updated in the last ${days} days: ${before === 1 ? 'the order' : `the ${formatNumber(before)} orders`} placed before ${since} ${before === 1 ? 'is' : 'are'} here because ${before === 1 ? 'it was' : 'they were'} updated since or still ${before === 1 ? 'has' : 'have'} items to ship.`
  }

  /** Said once a sync saw new orders dated hours away from the marketplace's clock (syncEngine.ts changesSince). */
  function orderTimesNote(): string | null {
    const state = snapshot.syncState('orders')
    return state.orderTimesReadRight === false ? orderTimesOff(snapshot.orderTimeZone(), state.clockOffsetMs) : null
  }

  /**
   * A list of orders with items to ship (an item-status filter), while the look for older ones (placed
   * before the window: olderOpenSweep.ts) has not ended or last failed or read short: it may miss some,
   * and the seller is told so here, not only under the dashboard.
   */
  function olderOpenShortfall(query: OrderListQuery, windowFromMs: number): string | null {
    if (!query.itemStatuses?.length) return null
    const check = snapshot.olderOpenCheck()
    const older = `orders placed before ${windowStart(windowFromMs)} with items still to ship`
    if (!check) return `The marketplace has not yet been looked through for ${older}: they appear here once it has (after a sync).`
    if (check.error)
      return `Looking through the marketplace for ${older} did not end (${check.error.replace(/\.$/, '')}): some may be missing here. Seller Desk tries again in a while.`
    if (!check.complete)
      return `The marketplace answered ${formatNumber(check.answered)} of the ${formatNumber(check.listed)} older orders it counted: ${older} among the others may be missing here.`
    return null
  }

  /**
   * A search that found nothing in the kept orders may be for an older one (an order number from an
   * old email): where to look for it, rather than only "No orders match".
   */
  function notFoundHere(query: OrderListQuery, total: number, windowFromMs: number): string | null {
    if (total > 0 || !query.searchTerm?.trim()) return null
    return `Orders placed before ${windowStart(windowFromMs)} are kept on this computer only while they have items to ship: to search the others, choose their dates.`
  }

  /**
   * The orders an export asks for, handed to `add` a part at a time with a turn of the core between (the
   * core answers other calls meanwhile), in the list's order; each part as the snapshot holds it when
   * read. Returns the file's name without extension, the orders written, and why any are missing.
   */
  async function exportOrders(
    { timeZone, fromDate, toDate, ...filters }: OrderExportQuery,
    add: (orders: Order[]) => void | Promise<void>
  ): Promise<{ name: string; orders: number; missing: string | null }> {
    knownZone(timeZone)
    const windowFromMs = windowFrom()
    const older = olderRange({ fromDate, toDate, ...filters }, windowFromMs)
    // The same orders the list shows: for older dates from the marketplace (refused rather than
    // written short when some are missing), else the snapshot's, read by their ids.
    let ordersInPart: (from: number) => Order[]
    let count: number
    // Offline, older dates than the kept window export only the kept orders: the file is said to be short.
    const fromMs = fromDate ? Date.parse(fromDate) : undefined
    const short = !older && startsBeforeWindow(fromMs, windowFromMs)
    if (older) {
      const read = await olderOrders.read(older)
      if (!read.complete) throw new SellerDeskError('server', `Not exported: ${olderNote(read, windowStartIn(windowFromMs, timeZone))}`)
      const rows = inListOrder(read, filters)
      ordersInPart = (from) => rows.slice(from, from + EXPORT_PART)
      count = rows.length
    } else {
      const ids = snapshot.orderIds({ ...filters, fromMs: fromDate ? Date.parse(fromDate) : undefined, toMs: toDate ? Date.parse(toDate) : undefined })
      ordersInPart = (from) => snapshot.ordersWithIds(ids.slice(from, from + EXPORT_PART))
      count = ids.length
    }
    // A part at a time, with a turn of the core between.
    const pause = createPause()
    let orders = 0
    for (let from = 0; from < count; from += EXPORT_PART) {
      await pause()
      const part = ordersInPart(from)
      await add(part)
      orders += part.length
    }
    // Named by its dates when the seller chose them (a month's export next to another's), else by today.
    const toMs = toDate ? Date.parse(toDate) : now()
    // Without a start, every order up to the end: "orders-until-…", not a name that reads as one day's orders.
    const dates = fromMs === undefined ? `until-${localDateOf(toMs, timeZone)}` : `${localDateOf(fromMs, timeZone)}-to-${localDateOf(toMs, timeZone)}`
    const missing = short ? 'Offline: some older orders are missing.' : null
    return { name: `orders-${dates}`, orders, missing }
  }

  return {
    account: deps.account,
    snapshot,
    sync,
    bulk,

    async listOrders(query) {
      const fromMs = query.fromDate ? Date.parse(query.fromDate) : undefined
      const toMs = query.toDate ? Date.parse(query.toDate) : undefined
      const windowFromMs = windowFrom()
      const older = olderRange(query, windowFromMs)
      if (older) {
        const read = await olderOrders.read(older)
        const rows = inListOrder(read, query)
        return {
          total: rows.length,
          page: query.page,
          take: query.take,
          rows: rows.slice((query.page - 1) * query.take, query.page * query.take),
          source: 'server',
          syncedAt: new Date(now()).toISOString(),
          note: joinNotes(olderNote(read, windowStart(windowFromMs)), orderTimesNote()),
          itemUnits: null,
          windowFrom: windowStart(windowFromMs)
        }
      }
      // An item-status list tells its items' units: counted with them, its orders are not counted again.
      const itemUnits = query.itemStatuses?.length ? snapshot.orderItemUnits({ ...query, fromMs, toMs }, query.itemStatuses) : null
      const page = snapshot.queryOrders({ ...query, fromMs, toMs }, itemUnits?.orders)
      const note = startsBeforeWindow(fromMs, windowFromMs)
        ? `Only orders since ${windowStart(windowFromMs)}, and older ones with items to ship, are saved on this computer${sync.status().online ? '' : '; connect to see older ones'}.`
        : fromMs === undefined
          ? joinNotes(
              olderOpenShortfall(query, windowFromMs),
              keptForAnUpdate(query, toMs, windowFromMs) ?? notFoundHere(query, page.total, windowFromMs),
              toMs === undefined ? null : orderTimesNote()
            )
          : orderTimesNote()
      return { ...page, source: 'snapshot', syncedAt: syncedAt(), note, itemUnits, windowFrom: windowStart(windowFromMs) }
    },

    listSellRequests(query) {
      return { ...snapshot.querySellRequests(query), source: 'snapshot', syncedAt: syncedAt(), note: null }
    },

    async editSellRequest(id, change) {
      needsConnection('changing a listing')
      // A marketplace that wants both fields gets the other one as it is now (a buyer may have bought
      // since the last sync): the sell requests are caught up first, then read.
      const current = async () => {
        await sync.catchUpSellRequests()
        return snapshot.sellRequestValues(id) ?? undefined
      }
      let edited: Awaited<ReturnType<typeof api.editSellRequest>>
      try {
        edited = await api.editSellRequest(id, change, {}, current)
      } catch (error) {
        if (!(error instanceof SellerDeskError && readBackCause(error))) throw error
        return editReadBack(id, change, error)
      }
      const { sellRequest, wire } = edited
      await keepHere(() => snapshot.putSellRequest({ rows: [sellRequest], wire }))
      // Answered with another value than sent: not changed as asked, and the list shows what it holds.
      const notTaken = fieldsNotTaken(sellRequest, change)
      if (notTaken.length > 0)
        throw new SellerDeskError('server', notTaken.map((field) => notTakenMessage(field, sellRequest, change[field as keyof SellRequestChange]!)).join(' '))
      return sellRequest
    },

    async deleteSellRequest(id) {
      needsConnection('deleting a listing')
      let alreadyDeleted = false
      try {
        await api.deleteSellRequest(id)
      } catch (error) {
        if (error instanceof SellerDeskError && readBackCause(error)) {
          await deleteReadBack(id, error)
        } else {
          // Already gone on the marketplace (deleted elsewhere, or by a try whose answer was lost): what the
          // seller asked for is done. Dropped here too, and said so; trying again could only fail the same way.
          if (!(error instanceof SellerDeskError && error.kind === 'not-found')) throw error
          alreadyDeleted = true
        }
      }
      await keepHere(() => snapshot.removeSellRequest(id, now()))
      return { id, alreadyDeleted }
    },

    dashboard(timeZone) {
      const windowFromMs = windowFrom()
      return computeDashboard(reader, {
        timeZone: knownZone(timeZone),
        nowMs: now(),
        windowFromMs,
        lowStockThreshold: deps.settings().lowStockThreshold,
        syncedAt: syncedAt(),
        orderTimesNote: orderTimesNote()
      })
    },

    async exportOrdersCsv(query) {
      const csv = ordersCsvWriter(query.timeZone)
      const { name, orders, missing } = await exportOrders(query, (part) => csv.add(part))
      const { parts, rows } = csv.done()
      return { fileName: `${name}.csv`, parts, orders, rows, missing }
    },

    async exportOrdersXlsx(query) {
      const workbook = ordersWorkbookWriter(query.timeZone)
      try {
        const { name, orders, missing } = await exportOrders(query, (part) => workbook.add(part))
        return { ...(await workbook.done(name)), orders, missing }
      } catch (error) {
        workbook.abort()
        throw error
      }
    },

    sellRequestFacets: () => facets(),

    async preferences() {
      const { value } = await readJsonFile<unknown>(preferencesFile, {})
      // A file from another version, or edited by hand: whatever does not fit is forgotten, not an error.
      const parsed = workspacePreferencesSchema.safeParse(value)
      return parsed.success ? parsed.data : {}
    },

    orderTimeZone() {
      const state = snapshot.syncState('orders')
      const zone = snapshot.orderTimeZone()
      return state.orderTimesReadRight === false && state.clockOffsetMs !== null ? { zone, clockOffsetMs: state.clockOffsetMs } : { zone }
    },

    async setOrderTimeZone(zone) {
      const next = zone === null || zone === 'UTC' ? null : knownMarketplaceZone(zone)
      if (next === snapshot.orderTimeZone()) return { zone: next }
      // No sync reads orders while their times are written again; those read after are read in the new zone.
      await sync.exclusive(async () => {
        api.useOrderTimeZone(next)
        try {
          await snapshot.setOrderTimeZone(next)
        } catch (error) {
          // Read as the snapshot now keeps them (the old zone, or the new one if it was kept before the failure).
          api.useOrderTimeZone(snapshot.orderTimeZone())
          throw error
        } finally {
          olderOrders.forget()
        }
      })
      void sync.sync('auto').catch(() => undefined)
      return { zone: next }
    },

    async savePreferences(preferences) {
      try {
        await writeFileAtomic(preferencesFile, JSON.stringify(preferences, null, 2))
      } catch {
        // The folder is gone or full (e.g. a save sent as the page goes away while the app shuts down).
        throw new SellerDeskError('internal', 'Seller Desk could not remember the open view and filters on this computer. Your data is not affected.')
      }
      return preferences
    },

    close() {
      closing ??= (async () => {
        sync.stop() // no new syncs; a refresh before applying ends
        await bulk.close() // nothing new is sent; answers in flight are recorded while the snapshot is open
        reader.close()
        snapshot.close()
      })()
      return closing
    }
  }
}
