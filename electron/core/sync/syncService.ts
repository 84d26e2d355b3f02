/**
 * Keeps one account's snapshot fresh and says how fresh it is: runs the sync engine at start, on
 * window focus, every N minutes and on demand (one run at a time, cancellable), tracks online/offline
 * from the marketplace's answers, pushes status to the renderer, and reports orders not seen before (once
 * each, after the run that stored them, whether it then ended well or not).
 * A run that synced the orders is followed by the look through older orders for unshipped ones placed
 * before the synced window, when it is due (olderOpenSweep.ts). The look runs beside whatever comes
 * next: Sync now, a timed sync or a catch-up before an edit starts at once instead of waiting for it
 * (a first look reads a whole history), and the two never write over each other's rows (a row read in
 * the window stays as read there: olderOpenOrders.ts keepOlderOpen).
 */
import type { SyncShortfall, SyncStatus, SyncUnreadable } from '../../shared/contract'
import { SellerDeskError, toErrorData, type ErrorData } from '../../shared/errors'
import type { SellerApi } from '../sellerApi'
import type { Resource, Snapshot } from '../snapshot/snapshot'
import type { ResourceSyncState } from '../snapshot/syncBookkeeping'
import { createConnectivity, isOfflineError, observedApi } from './connectivity'
import { createOlderOpenSweep, type LookProgress } from './olderOpenSweep'
import { createSyncEngine, DEFAULT_SYNC_SETTINGS, type SyncProgress, type SyncReport, type SyncSettings } from './syncEngine'

export interface SyncServiceDeps {
  api: SellerApi
  snapshot: Snapshot
  /** Read at every run, so setting changes apply to the next one. */
  settings: () => { syncIntervalMinutes: number; historyDays: number }
  engine?: Partial<SyncSettings>
  onStatus: (status: SyncStatus) => void
  onNewOrders: (orderIds: string[]) => void
  /** Focus triggers a sync only when the last one started longer ago than this. */
  focusCooldownMs?: number
  probe?: { firstMs?: number; maxMs?: number }
  now?: () => number
}

export interface SyncService {
  /** The API with every outcome feeding online/offline: use it for edits and deletes too. */
  readonly api: SellerApi
  status(): SyncStatus
  /**
   * Runs a sync (or joins the one running) and resolves with the status after it: the look through
   * older orders it may have started goes on (the status says so).
   */
  sync(kind?: 'auto' | 'full'): Promise<SyncStatus>
  /** Resolves once no run and no look through older orders is under way. */
  idle(): Promise<SyncStatus>
  /**
   * Brings the sell requests up to date, quickly (before applying bulk changes, whose conflicts are
   * judged against them): joins a running sync, or runs an incremental pass of sell requests only.
   * Fails as the run that read them failed (the snapshot then holds what the last good run read).
   */
  catchUpSellRequests(): Promise<SyncStatus>
  /**
   * Reads the sell requests changed since the last sync in a pass that starts now, after a running one
   * (never joining it: a pass begun before a change may have read past the listing it changed), to learn
   * what the marketplace holds after a change whose answer could not be read. Resolves with null once
   * read, or with what stopped the pass.
   */
  readBackSellRequests(): Promise<ErrorData | null>
  /** Stops what the status shows: the run under way, else the look through older orders. */
  cancel(): SyncStatus
  /**
   * Runs `work` with no sync reading orders meanwhile: a run that reads them and the look through older
   * orders are stopped and awaited first (a run of the sell requests alone, such as a bulk apply's
   * read-back, is let end), and syncs asked for meanwhile start once it has ended.
   */
  exclusive<T>(work: () => Promise<T>): Promise<T>
  windowFocused(): SyncStatus
  /** First sync (after `delayMs`, so the first screen is drawn from the snapshot first) and the interval timer. */
  start(delayMs?: number): void
  /** Re-reads the settings (interval). */
  settingsChanged(): void
  stop(): void
  lastReport(): SyncReport | null
}

/** One sync run: what it covers, and, once it has ended, why it failed (null: it read everything asked). */
interface Run {
  promise: Promise<SyncStatus>
  controller: AbortController
  resources: readonly Resource[]
  failure: ErrorData | null
}

/** The look through older orders after a run: what stops it, and its end (it never fails: it records why). */
interface Look {
  controller: AbortController
  promise: Promise<void>
  progress: Omit<SyncProgress, 'kind'> & { kind: 'olderOrders' }
}

const STATUS_THROTTLE_MS = 100
const BOTH: readonly Resource[] = ['orders', 'sellRequests']
/** Unreadable rows of a list the status names (the rest it counts). */
const UNREADABLE_NAMED = 3

/** The time of a list's last sync (full or incremental) by its sync state, in ms; 0 before its first. */
const syncedMsOf = (state: ResourceSyncState): number => Math.max(state.lastFullMs ?? 0, state.lastIncrementalMs ?? 0)

export function createSyncService(deps: SyncServiceDeps): SyncService {
  const now = deps.now ?? Date.now
  const focusCooldownMs = deps.focusCooldownMs ?? 60_000
  let runProgress: SyncProgress | null = null
  let lastError: SyncStatus['lastError'] = null
  /** The run under way; `failure` is set when it ends without having read what it was asked to. */
  let running: Run | null = null
  /** How the last run that covered the sell requests ended (null: it read them), and whether it read only them. */
  let sellRequestsEnd: { failure: ErrorData | null; only: boolean } = { failure: null, only: true }
  /** Each run a catch-up joined, and its answer that fails as the run did. */
  const checkedCatchUps = new WeakMap<Promise<SyncStatus>, Promise<SyncStatus>>()
  let looking: Look | null = null
  /** Set while exclusive work runs: syncs wait for it, the look does not start. */
  let held: Promise<void> | null = null
  let lastStartedMs = 0
  let interval: ReturnType<typeof setInterval> | null = null
  let intervalMinutes = 0
  let report: SyncReport | null = null
  let stopped = false
  let startTimer: ReturnType<typeof setTimeout> | null = null
  /** The status at stop(): the snapshot may be closed after that, so it is not read again. */
  let finalStatus: SyncStatus | null = null

  const connectivity = createConnectivity({
    probe: () => deps.api.listSellRequests({ page: 1, take: 1 }, { retries: 0 }),
    onChange: (state) => {
      emit(true)
      if (state.online) void sync('auto') // back online: catch up
    },
    ...(deps.probe?.firstMs !== undefined ? { firstProbeMs: deps.probe.firstMs } : {}),
    ...(deps.probe?.maxMs !== undefined ? { maxProbeMs: deps.probe.maxMs } : {}),
    now,
    // The last answer this snapshot knows of (listAnsweredMs is declared further down, and hoisted).
    answeredBefore: () => instant(Math.max(...BOTH.map(listAnsweredMs)))
  })
  const api = observedApi(deps.api, connectivity)
  const engineSettings = { ...DEFAULT_SYNC_SETTINGS, ...deps.engine }
  const olderOpen = createOlderOpenSweep(api, deps.snapshot, { take: engineSettings.take, retries: engineSettings.retriesPerPage, now })

  /** The time of a list's last sync (full or incremental), in ms; 0 before its first. */
  const listSyncedMs = (resource: Resource): number => syncedMsOf(deps.snapshot.syncState(resource))
  /**
   * When the marketplace last answered a sync of a list, as far as the snapshot knows: the later of its
   * last sync's start and the end of its last full sync's pass (a pass whose catch-up then failed ended
   * long after the sync started).
   */
  function listAnsweredMs(resource: Resource): number {
    const state = deps.snapshot.syncState(resource)
    return Math.max(syncedMsOf(state), state.lastFullEndedMs ?? 0)
  }
  const instant = (ms: number) => (ms > 0 ? new Date(ms).toISOString() : null)

  function incomplete(): SyncShortfall[] {
    return BOTH.flatMap((resource) => {
      const { syncedCount: synced, serverTotal: total, complete } = deps.snapshot.syncState(resource)
      return complete === false && synced !== null && total !== null ? [{ resource, synced, total }] : []
    })
  }

  function unreadable(): SyncUnreadable[] {
    return BOTH.flatMap((resource) => {
      const summary = deps.snapshot.unreadableSummary(resource, UNREADABLE_NAMED)
      return summary.count > 0 ? [{ resource, ...summary }] : []
    })
  }

  function status(): SyncStatus {
    if (finalStatus) return finalStatus
    const net = connectivity.state()
    // A run's progress shows while one is under way, the look's otherwise.
    const progress = running ? runProgress : looking?.progress
    return {
      running: running !== null || looking !== null,
      kind: progress?.kind ?? null,
      resource: progress?.resource ?? null,
      pagesDone: progress?.pagesDone ?? 0,
      pagesTotal: progress?.pagesTotal ?? 0,
      items: progress?.items ?? 0,
      lastSyncedAt: instant(Math.min(...BOTH.map(listSyncedMs))),
      listSyncedAt: { orders: instant(listSyncedMs('orders')), sellRequests: instant(listSyncedMs('sellRequests')) },
      lastError,
      online: net.online,
      offlineSince: net.offlineSince,
      incomplete: incomplete(),
      unreadable: unreadable()
    }
  }

  let lastEmitMs = 0
  let pendingEmit: ReturnType<typeof setTimeout> | null = null
  function emit(force = false) {
    if (stopped) return
    const elapsed = now() - lastEmitMs
    if (!force && elapsed < STATUS_THROTTLE_MS) {
      pendingEmit ??= setTimeout(() => {
        pendingEmit = null
        emit(true)
      }, STATUS_THROTTLE_MS - elapsed)
      return
    }
    if (pendingEmit) clearTimeout(pendingEmit)
    pendingEmit = null
    lastEmitMs = now()
    deps.onStatus(status())
  }

  function engine() {
    const { historyDays } = deps.settings()
    return createSyncEngine({
      api,
      snapshot: deps.snapshot,
      settings: { ...engineSettings, historyDays },
      onProgress: (p) => {
        runProgress = p
        emit()
      },
      now
    })
  }

  function sync(kind: 'auto' | 'full' | 'catchUp' = 'auto', resources?: readonly Resource[]): Promise<SyncStatus> {
    // One run at a time: a request joins the running one when that covers it; otherwise (a full one,
    // or more than a catch-up of sell requests covers) it follows it.
    const covers = resources ?? BOTH
    if (held) return held.then(() => sync(kind, resources))
    if (running) {
      const joined = running
      const covered = kind !== 'full' && covers.every((resource) => joined.resources.includes(resource))
      return covered ? joined.promise : joined.promise.then(() => sync(kind, resources))
    }
    if (stopped) return Promise.resolve(status())
    return begin(kind, covers).promise
  }

  /** Starts a run now (none is running). */
  function begin(kind: 'auto' | 'full' | 'catchUp', covers: readonly Resource[]): Run {
    const controller = new AbortController()
    const partial = covers.length < BOTH.length
    // A catch-up of one resource is not "a sync" for the focus cooldown or the error shown: those are about both.
    if (!partial) lastStartedMs = now()
    const run = { controller, resources: covers, failure: null } as Omit<Run, 'promise'> as Run
    run.promise = (async () => {
      let read = false
      try {
        report = await engine().run(kind, controller.signal, covers)
        if (!partial) lastError = null
        read = true
      } catch (error) {
        run.failure = toErrorData(error)
        // Cancelled: not an error. Offline: the banner says it; the last error stays for details.
        if (!partial) lastError = controller.signal.aborted ? null : run.failure
        if (isOfflineError(error)) connectivity.report(error)
      } finally {
        running = null
        runProgress = null
        if (covers.includes('sellRequests'))
          sellRequestsEnd = {
            failure: run.failure && controller.signal.aborted ? { kind: 'invalid-input', message: 'The read of your listings was cancelled.' } : run.failure,
            only: covers.length === 1
          }
      }
      await announceNewOrders()
      // After the orders were synced, or owed by a look that ended while this run went on.
      if (read) lookIfDue()
      emit(true)
      return status()
    })()
    running = run
    emit(true)
    return run
  }

  /**
   * Tells of the orders a run stored as new, whether it then ended well or not (a check stopped by the
   * rate limit, the listings offline): they are in the lists now. Each once: the snapshot forgets them as
   * it answers them. Orders a run only staged (a full pass it did not finish) are told of by the run that
   * swaps them in; ones left untold by a closed account, by the next run of it.
   */
  async function announceNewOrders(): Promise<void> {
    if (stopped) return
    let ids: string[]
    try {
      ids = await deps.snapshot.takeOrdersToAnnounce()
    } catch {
      // The snapshot closed meanwhile: they stay noted for the next run.
      return
    }
    if (ids.length && !stopped) deps.onNewOrders(ids)
  }

  /** Starts the look through older orders when it is due and none is under way. */
  function lookIfDue(): void {
    if (stopped || held || looking || !olderOpen.due()) return
    const controller = new AbortController()
    const progressOf = (done: LookProgress): Look['progress'] => ({ kind: 'olderOrders', resource: 'orders', ...done })
    const look = { controller, progress: progressOf({ pagesDone: 0, pagesTotal: 0, items: 0 }) } as Omit<Look, 'promise'> as Look
    look.promise = (async () => {
      let ended = false
      try {
        await olderOpen.sweep(controller.signal, (done) => {
          look.progress = progressOf(done)
          emit()
        })
        ended = true
      } catch {
        // Cancelled or stopped (the sweep records any other end itself): looked at again after the next sync.
      } finally {
        looking = null
        // A full sync beside it moved the window: what left it is looked at now (a run under way, at its end).
        if (ended && !running) lookIfDue()
        emit(true)
      }
    })()
    looking = look
  }

  async function readBackSellRequests(): Promise<ErrorData | null> {
    while (running) await running.promise
    if (stopped) return { kind: 'internal', message: 'This account was closed before the listing could be read back.' }
    const run = begin('catchUp', ['sellRequests'])
    await run.promise
    return run.failure
  }

  function scheduleInterval() {
    const minutes = deps.settings().syncIntervalMinutes
    if (interval && minutes === intervalMinutes) return
    if (interval) clearInterval(interval)
    intervalMinutes = minutes
    interval = setInterval(() => {
      scheduleInterval() // pick up a changed setting
      if (connectivity.state().online) void sync('auto')
    }, minutes * 60_000)
    interval.unref?.()
  }

  return {
    api,
    status,
    sync: (kind) => sync(kind),
    catchUpSellRequests() {
      // Callers joining one run share one answer, as they share the run.
      const read = sync('catchUp', ['sellRequests'])
      let checked = checkedCatchUps.get(read)
      if (!checked) {
        checked = read.then(async (done) => {
          // A wider run that failed or was stopped (its orders, before the listings) is no answer about
          // the listings: they are read in a pass of their own, once.
          if (sellRequestsEnd.failure && !sellRequestsEnd.only) done = await sync('catchUp', ['sellRequests'])
          const { failure } = sellRequestsEnd
          if (failure) throw new SellerDeskError(failure.kind, failure.message)
          return done
        })
        checkedCatchUps.set(read, checked)
      }
      return checked
    },
    readBackSellRequests,
    idle: async () => {
      while (running || looking) await (running?.promise ?? looking?.promise)
      return status()
    },
    cancel() {
      ;(running ?? looking)?.controller.abort(new DOMException('Sync cancelled', 'AbortError'))
      return status()
    },
    async exclusive(work) {
      while (held) await held
      let release!: () => void
      held = new Promise<void>((resolve) => (release = resolve))
      try {
        const reason = new DOMException('Sync cancelled', 'AbortError')
        if (running?.resources.includes('orders')) running.controller.abort(reason)
        looking?.controller.abort(reason)
        while (running || looking) await (running?.promise ?? looking?.promise)
        return await work()
      } finally {
        held = null
        release()
      }
    },
    windowFocused() {
      if (!running && connectivity.state().online && now() - lastStartedMs > focusCooldownMs) void sync('auto')
      return status()
    },
    start(delayMs = 0) {
      scheduleInterval()
      if (delayMs <= 0) return void sync('auto')
      startTimer = setTimeout(() => void sync('auto'), delayMs)
      startTimer.unref?.()
    },
    settingsChanged: () => scheduleInterval(),
    stop() {
      finalStatus = { ...status(), running: false }
      stopped = true
      if (startTimer) clearTimeout(startTimer)
      running?.controller.abort(new DOMException('Stopped', 'AbortError'))
      looking?.controller.abort(new DOMException('Stopped', 'AbortError'))
      if (interval) clearInterval(interval)
      if (pendingEmit) clearTimeout(pendingEmit)
      connectivity.stop()
    },
    lastReport: () => report
  }
}
