/**
 * The signed-in account's workspace: its snapshot, the sync that keeps it fresh, and the list, edit
 * and delete services the contract exposes. Lists read the snapshot (local-first); edits and deletes go
 * to the marketplace and update the snapshot on success. Opened at sign-in, closed at sign-out.
 */
import type { AppSettings, Events, EventName, ListResult } from './contract'
import type { Order, SellRequest } from './domain'
import { SellerDeskError } from './errors'
import type { SellerApi, SellRequestChange } from './sellerApi'
import type { Account } from './session/session'
import { openSnapshot, snapshotFileFor, type OrderQuery, type SellRequestQuery, type Snapshot } from './snapshot/snapshot'
import type { SyncSettings } from './sync/syncEngine'
import { createSyncService, type SyncService } from './sync/syncService'

const DAY_MS = 24 * 60 * 60 * 1000

export interface WorkspaceDeps {
  userDataDir: string
  account: Account
  api: SellerApi
  settings: () => AppSettings
  emit: <E extends EventName>(event: E, payload: Events[E]) => void
  syncEngine?: Partial<SyncSettings>
  now?: () => number
}

export interface OrderListQuery extends Omit<OrderQuery, 'fromMs' | 'toMs'> {
  fromDate?: string | undefined
  toDate?: string | undefined
}

export interface Workspace {
  readonly account: Account
  readonly snapshot: Snapshot
  readonly sync: SyncService
  listOrders(query: OrderListQuery): Promise<ListResult<Order>>
  listSellRequests(query: SellRequestQuery): ListResult<SellRequest>
  editSellRequest(id: string, change: SellRequestChange): Promise<SellRequest>
  deleteSellRequest(id: string): Promise<{ id: string }>
  close(): void
}

export function openWorkspace(deps: WorkspaceDeps): Workspace {
  const now = deps.now ?? Date.now
  const snapshot = openSnapshot(snapshotFileFor(deps.userDataDir, deps.account))
  if (snapshot.notice) deps.emit('notice', { level: 'warning', message: snapshot.notice })

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

  const syncedAt = () => sync.status().lastSyncedAt

  function needsConnection(action: string) {
    if (!sync.status().online) throw new SellerDeskError('network', `You are offline: ${action} needs a connection to the marketplace. Seller Desk will reconnect by itself.`)
  }

  return {
    account: deps.account,
    snapshot,
    sync,

    async listOrders(query) {
      const fromMs = query.fromDate ? Date.parse(query.fromDate) : undefined
      const toMs = query.toDate ? Date.parse(query.toDate) : undefined
      const windowFromMs = snapshot.syncState('orders').windowFromMs ?? now() - deps.settings().historyDays * DAY_MS
      const olderThanWindow = fromMs !== undefined && fromMs < windowFromMs - DAY_MS
      if (olderThanWindow && sync.status().online && query.sortBy === 'date' && !query.statuses?.length && !query.itemStatuses?.length) {
        // Orders before the synced window come from the marketplace on demand.
        const { total, orders } = await api.listOrders({
          page: query.page,
          take: query.take,
          sortDir: query.sortDir,
          ...(query.searchTerm ? { searchTerm: query.searchTerm } : {}),
          ...(query.fromDate ? { fromDate: query.fromDate } : {}),
          ...(query.toDate ? { toDate: query.toDate } : {})
        })
        return { total, page: query.page, take: query.take, rows: orders, source: 'server', syncedAt: new Date(now()).toISOString(), note: 'Older orders, loaded from the marketplace (sorted by last update).' }
      }
      const page = snapshot.queryOrders({ ...query, fromMs, toMs })
      const note = olderThanWindow
        ? `Only orders since ${new Date(windowFromMs).toLocaleDateString('en-US', { dateStyle: 'medium' })} are saved on this computer${sync.status().online ? '' : '; connect to see older ones'}.`
        : null
      return { ...page, source: 'snapshot', syncedAt: syncedAt(), note }
    },

    listSellRequests(query) {
      return { ...snapshot.querySellRequests(query), source: 'snapshot', syncedAt: syncedAt(), note: null }
    },

    async editSellRequest(id, change) {
      needsConnection('changing a listing')
      const { sellRequest, wire } = await api.editSellRequest(id, change)
      snapshot.putSellRequest({ rows: [sellRequest], wire })
      return sellRequest
    },

    async deleteSellRequest(id) {
      needsConnection('deleting a listing')
      try {
        const result = await api.deleteSellRequest(id)
        snapshot.removeSellRequest(id)
        return result
      } catch (error) {
        // Already gone on the marketplace: drop it here too, and say so.
        if (error instanceof SellerDeskError && error.kind === 'not-found') snapshot.removeSellRequest(id)
        throw error
      }
    },

    close() {
      sync.stop()
      snapshot.close()
    }
  }
}
