/**
 * Where the snapshot stands and whether the marketplace answers (SyncStatus), as the main side pushes it,
 * and the seller's sync actions: sync now, sync everything again, cancel.
 *
 * This is also the one place that keeps the lists fresh: when a sync ends (or moves on from a resource)
 * the lists on screen read their current page again, keeping the seller's page, search and filters.
 */
import type { SyncStatus } from '@shared/contract'
import { runUnderWay } from '@shared/syncRun'
import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import { call, messageOf, onEvent } from '../bridge/sellerDesk'
import { createCooldown } from '../cooldown'
import { useBulkEditStore } from './bulkEdit'
import { useDashboardStore } from './dashboard'
import { useFilterStatusesStore } from './filterStatuses'
import { useOrdersStore } from './orders'
import { useSellRequestsStore } from './sellRequests'
import { staleListsAfter } from './staleLists'

/** Why an action that changes something on the marketplace is unavailable. */
export const OFFLINE_REASON = 'You are offline: changes need a connection to the marketplace'

const FOCUS_COOLDOWN_MS = 10_000

export const useSyncStore = defineStore('sync', () => {
  const orders = useOrdersStore()
  const sellRequests = useSellRequestsStore()
  const filterStatuses = useFilterStatusesStore()
  const dashboard = useDashboardStore()
  const bulkEdit = useBulkEditStore()

  const status = ref<SyncStatus | null>(null)
  /** Why the status could not be read. */
  const loadError = ref<string | null>(null)

  /** Until the main side says otherwise, assume the marketplace answers. */
  const online = computed(() => status.value?.online ?? true)
  /** A sync run is under way (not the look through older orders alone, beside which a sync runs at once). */
  const running = computed(() => (status.value ? runUnderWay(status.value) : false))
  const lastSyncedAt = computed(() => status.value?.lastSyncedAt ?? null)
  /** Why edits and deletes are unavailable now (a sync may still be tried), or null when they are available. */
  const offlineReason = computed(() => (online.value ? null : OFFLINE_REASON))

  /** Statuses pushed by the main side so far: a call's answer older than a push is not applied. */
  let pushes = 0

  function apply(next: SyncStatus) {
    const stale = staleListsAfter(status.value, next)
    status.value = next
    loadError.value = null
    if (stale.includes('orders')) void orders.reloadIfShown()
    if (stale.includes('sellRequests')) {
      if (next.listSyncedAt.sellRequests) sellRequests.syncedAt(Date.parse(next.listSyncedAt.sellRequests))
      void sellRequests.reloadIfShown()
      bulkEdit.markStale()
    }
    if (stale.length) {
      void filterStatuses.load()
      void dashboard.reloadIfShown()
    }
  }

  /**
   * Runs a sync call and applies its answer, unless a pushed status arrived meanwhile (pushes and call
   * answers travel separately; the push is the newer word).
   */
  async function ask(run: () => Promise<SyncStatus>): Promise<SyncStatus> {
    const before = pushes
    const answer = await run()
    if (pushes === before) apply(answer)
    return answer
  }

  async function load(): Promise<void> {
    try {
      await ask(() => call('sync.status', {}))
    } catch (e) {
      loadError.value = messageOf(e)
    }
  }

  /** A sync of what changed (or a full one when due). Resolves when it has ended. Throws ContractError. */
  function refresh(): Promise<SyncStatus> {
    return ask(() => call('sync.run', { kind: 'auto' }))
  }

  /** Every order and sell request again, from the marketplace. Resolves when it has ended. Throws ContractError. */
  function fullResync(): Promise<SyncStatus> {
    return ask(() => call('sync.run', { kind: 'full' }))
  }

  /** Stops the running sync; what it already stored stays. Throws ContractError. */
  function cancel(): Promise<SyncStatus> {
    return ask(() => call('sync.cancel', {}))
  }

  /**
   * Reads the status and follows it (the workspace calls this when it opens), and tells the main side
   * when the window gains focus (at most every 10 s; the main side decides whether to sync).
   * Returns the function that stops following.
   */
  function follow(): () => void {
    const focusReady = createCooldown(FOCUS_COOLDOWN_MS)
    const onFocus = () => {
      if (focusReady()) void ask(() => call('sync.windowFocused', {})).catch(() => undefined)
    }
    const stopPushes = onEvent('sync.status', (next) => {
      pushes++
      apply(next)
    })
    window.addEventListener('focus', onFocus)
    void load()
    return () => {
      stopPushes()
      window.removeEventListener('focus', onFocus)
      status.value = null
      loadError.value = null
    }
  }

  return { status, loadError, online, running, lastSyncedAt, offlineReason, refresh, fullResync, cancel, follow }
})
