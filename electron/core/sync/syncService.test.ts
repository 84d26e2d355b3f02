/**
 * The sync service: offline when the marketplace stops answering, back online (and synced) by itself
 * when it answers again; status pushed as it goes; new orders reported; cancel.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../sandbox'
import type { SyncStatus } from '../../shared/contract'
import { runUnderWay } from '../../shared/syncRun'
import { createSellerApi } from '../sellerApi'
import { openSnapshot, type Snapshot } from '../snapshot/snapshot'
import { writeSyncState } from '../snapshot/syncBookkeeping'
import { createSyncService, type SyncService } from './syncService'

const KEY = 'sk_test_service_0123456789'
let sandbox: Sandbox | null = null
let snapshot: Snapshot | null = null
let service: SyncService | null = null

afterEach(async () => {
  service?.stop()
  snapshot?.close()
  await sandbox?.close()
})

async function setUp(port = 0) {
  sandbox = await startSandbox({ apiKey: KEY, port, orders: 120, sellRequests: 80, now: new Date() })
  snapshot = openSnapshot(join(mkdtempSync(join(tmpdir(), 'seller-desk-service-')), 'snapshot.sqlite'))
  const statuses: SyncStatus[] = []
  const newOrders: string[][] = []
  service = createSyncService({
    api: createSellerApi({ baseUrl: sandbox.baseUrl, apiKey: KEY, retries: 1, backoffMs: 5, timeoutMs: 1_000 }),
    snapshot,
    settings: () => ({ syncIntervalMinutes: 5, historyDays: 3650 }),
    engine: { take: 50, retriesPerPage: 1 },
    onStatus: (status) => statuses.push(status),
    onNewOrders: (ids) => newOrders.push(ids),
    probe: { firstMs: 50, maxMs: 200 }
  })
  return { statuses, newOrders }
}

const until = async (condition: () => boolean, ms = 5_000) => {
  const start = Date.now()
  while (!condition()) {
    if (Date.now() - start > ms) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

it('syncs, reports progress and completion, then reports new orders', async () => {
  const { statuses, newOrders } = await setUp()
  // Slow enough that the run outlasts the status throttle (100 ms) and progress is pushed while it runs.
  sandbox!.setFaults({ latencyMs: 60 })
  const done = await service!.sync()
  expect(done).toMatchObject({ online: true, lastError: null })
  expect(done.lastSyncedAt).not.toBeNull()
  // The run has ended; the look through older orders it started may go on (beside what comes next).
  expect(runUnderWay(done)).toBe(false)
  expect(statuses.some((s) => s.running && s.pagesTotal > 0)).toBe(true)
  expect(await service!.idle()).toMatchObject({ running: false, kind: null })
  expect(statuses.at(-1)?.running).toBe(false)
  expect(newOrders).toEqual([]) // the first sync is not "new"

  const added = sandbox!.addOrders(3)
  await service!.sync()
  expect(newOrders).toEqual([expect.arrayContaining(added)])
  expect(snapshot!.summarizeOrders(added).count).toBe(3)
})

it('goes offline when the marketplace stops answering, keeps the snapshot readable, and comes back by itself', async () => {
  const { statuses } = await setUp()
  await service!.sync()
  const port = sandbox!.port
  const rows = snapshot!.queryOrders({ page: 1, take: 10, sortBy: 'date', sortDir: 'DESC' }).total
  await sandbox!.close()
  sandbox = null

  const offline = await service!.sync()
  expect(offline.online).toBe(false)
  expect(offline.offlineSince).not.toBeNull()
  expect(snapshot!.queryOrders({ page: 1, take: 10, sortBy: 'date', sortDir: 'DESC', searchTerm: '' }).total).toBe(rows)
  await expect(service!.api.listOrders({ take: 1 })).rejects.toMatchObject({ kind: 'network' })

  sandbox = await startSandbox({ apiKey: KEY, port, orders: 120, sellRequests: 80, now: new Date() })
  const before = statuses.length
  await until(() => service!.status().online)
  // Back online, a sync runs by itself.
  await until(() => statuses.slice(before).some((s) => s.running) && !service!.status().running)
  expect(service!.status()).toMatchObject({ online: true, offlineSince: null, lastError: null })
})

/** The service as the app starts it again with no network, on the same snapshot. */
function restartedOffline(): SyncService {
  service = createSyncService({
    api: createSellerApi({ baseUrl: 'http://127.0.0.1:9', apiKey: KEY, retries: 0, backoffMs: 5, timeoutMs: 1_000 }),
    snapshot: snapshot!,
    settings: () => ({ syncIntervalMinutes: 5, historyDays: 3650 }),
    engine: { take: 50, retriesPerPage: 1 },
    onStatus: () => undefined,
    onNewOrders: () => undefined,
    probe: { firstMs: 50, maxMs: 200 }
  })
  return service
}

it('started offline, says the marketplace has not answered since the last sync before, not since the start', async () => {
  await setUp()
  await service!.sync()
  const lastSynced = service!.status().listSyncedAt
  service!.stop()
  await sandbox!.close()
  sandbox = null
  // Later, the app starts again with no network.
  await new Promise((resolve) => setTimeout(resolve, 30))
  const offline = await restartedOffline().sync()
  expect(offline.online).toBe(false)
  const latest = [lastSynced.orders!, lastSynced.sellRequests!].sort().at(-1)
  expect(offline.offlineSince).toBe(latest)
})

it('started offline after a full sync whose pass ended long after it began and whose catch-up failed: not answered since the pass ended', async () => {
  await setUp()
  await service!.sync()
  service!.stop()
  await sandbox!.close()
  sandbox = null
  // As such a sync leaves the snapshot: started an hour before its pass was committed, nothing after.
  const state = snapshot!.syncState('orders')
  const passEndedMs = Math.max(state.lastFullMs!, state.lastIncrementalMs!)
  const startedMs = passEndedMs - 3_600_000
  writeSyncState(snapshot!.database, 'orders', { lastFullMs: startedMs, lastIncrementalMs: startedMs, lastFullEndedMs: passEndedMs })
  writeSyncState(snapshot!.database, 'sellRequests', {
    lastFullMs: startedMs - 60_000,
    lastIncrementalMs: startedMs - 60_000,
    lastFullEndedMs: startedMs - 60_000
  })
  const offline = await restartedOffline().sync()
  expect(offline.online).toBe(false)
  expect(offline.offlineSince).toBe(new Date(passEndedMs).toISOString())
})

it('cancels a running sync without an error, and the next one resumes', async () => {
  await setUp()
  sandbox!.setFaults({ latencyMs: 30 })
  const running = service!.sync('full')
  await until(() => service!.status().pagesDone >= 1)
  service!.cancel()
  const after = await running
  expect(after).toMatchObject({ running: false, lastError: null })
  expect(snapshot!.run('orders') ?? snapshot!.run('sellRequests')).not.toBeNull()
  sandbox!.setFaults({ latencyMs: 0 })
  await service!.sync()
  expect(snapshot!.dump().orders).toHaveLength(120)
  expect(snapshot!.dump().sellRequests).toHaveLength(80)
})

it('a focus triggers a sync only after the cooldown, and one run at a time', async () => {
  await setUp()
  const first = service!.sync()
  expect(service!.sync()).toBe(first) // joins the running one
  const kinds: string[] = []
  const full = service!.sync('full').then((status) => {
    kinds.push(service!.lastReport()!.kinds.orders)
    return status
  })
  await first
  await full
  expect(kinds).toEqual(['full']) // a full request while one runs follows it, it is not swallowed
  await service!.idle()
  const requests = sandbox!.requestCount()
  service!.windowFocused() // within the cooldown
  await new Promise((resolve) => setTimeout(resolve, 50))
  expect(sandbox!.requestCount()).toBe(requests)
})

it('a delayed start-up sync never runs after stop (the snapshot may be closed by then)', async () => {
  await setUp()
  service!.start(50)
  service!.stop()
  snapshot!.close()
  const requests = sandbox!.requestCount()
  await new Promise((resolve) => setTimeout(resolve, 150))
  expect(sandbox!.requestCount()).toBe(requests)
  expect(service!.status().running).toBe(false)
  snapshot = null
})

it('each list says when it was last synced; the status line’s time is the older of the two', async () => {
  await setUp()
  const first = await service!.sync()
  expect(first.listSyncedAt.orders).not.toBeNull()
  expect(first.listSyncedAt.sellRequests).not.toBeNull()
  await new Promise((resolve) => setTimeout(resolve, 5))
  const caughtUp = await service!.catchUpSellRequests()
  expect(caughtUp.listSyncedAt.orders).toBe(first.listSyncedAt.orders)
  expect(Date.parse(caughtUp.listSyncedAt.sellRequests!)).toBeGreaterThan(Date.parse(first.listSyncedAt.sellRequests!))
  expect(caughtUp.lastSyncedAt).toBe(first.listSyncedAt.orders)
})

it('a sync asked for while a catch-up of sell requests runs follows it and brings orders too; another catch-up joins it', async () => {
  const { newOrders } = await setUp()
  await service!.sync()
  sandbox!.setFaults({ latencyMs: 60 })
  const added = sandbox!.addOrders(2)
  const catchUp = service!.catchUpSellRequests()
  expect(service!.catchUpSellRequests()).toBe(catchUp)
  const whole = service!.sync()
  await catchUp
  expect(newOrders).toEqual([])
  await whole
  expect(service!.lastReport()!.pagesFetched.orders).toBeGreaterThan(0)
  expect(newOrders).toEqual([expect.arrayContaining(added)])
})

it('a catch-up of sell requests that joined a wider sync then stopped reads them in a pass of its own; one that cannot read them fails saying why', async () => {
  await setUp()
  await service!.sync()
  const listing = snapshot!.querySellRequests({ page: 1, take: 1, sortBy: 'updated', sortDir: 'ASC' }).rows[0]!
  sandbox!.state.editSellRequest(listing.id, { priceCents: listing.priceCents + 7 }, Date.now())
  sandbox!.setFaults({ latencyMs: 40 })
  const whole = service!.sync('full')
  await until(() => service!.status().running && service!.status().pagesDone > 0)
  const catchUp = service!.catchUpSellRequests()
  service!.cancel()
  await whole
  await catchUp
  expect(snapshot!.sellRequest(listing.id)!.priceCents).toBe(listing.priceCents + 7)
  // A pass of its own that cannot read them: the catch-up fails, saying why.
  sandbox!.setFaults({ latencyMs: 0 })
  sandbox!.injectNext('server-error', 10)
  await expect(service!.catchUpSellRequests()).rejects.toMatchObject({ kind: 'server' })
  sandbox!.injectNext('server-error', 0)
})

it('a read-back never joins a sync under way (it may have read past the change): it waits, reads the sell requests in a pass of its own, and says why when it could not', async () => {
  await setUp()
  await service!.sync()
  sandbox!.setFaults({ latencyMs: 40 })
  const listing = snapshot!.querySellRequests({ page: 1, take: 1, sortBy: 'updated', sortDir: 'ASC' }).rows[0]!
  const under = service!.sync()
  // Changed on the marketplace while that sync runs (as an edit whose answer could not be read).
  await until(() => service!.status().running && service!.status().pagesDone > 0)
  sandbox!.state.editSellRequest(listing.id, { priceCents: listing.priceCents + 1 }, Date.now())
  let requestsWhenItEnded = 0
  void under.then(() => (requestsWhenItEnded = sandbox!.requestCount()))
  expect(await service!.readBackSellRequests()).toBeNull()
  expect(requestsWhenItEnded, 'the sync under way had ended').toBeGreaterThan(0)
  expect(sandbox!.requestCount(), 'then a pass of its own').toBeGreaterThan(requestsWhenItEnded)
  expect(snapshot!.sellRequest(listing.id)!.priceCents).toBe(listing.priceCents + 1)

  sandbox!.injectNext('malformed', 2)
  expect(await service!.readBackSellRequests()).toMatchObject({ kind: 'malformed-response' })
  service!.stop()
  expect(await service!.readBackSellRequests()).toMatchObject({ kind: 'internal' })
})
