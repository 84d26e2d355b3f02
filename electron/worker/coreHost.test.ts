/**
 * The core in its worker: calls cross by contract name and come back as data (invalid ones refused
 * inside the worker by the same router), events come back, the key stays with the host's store, and a
 * worker killed mid-sync or mid-apply is replaced: calls in flight fail with a clear error, the seller
 * gets a notice, what was saved is still there, and the interrupted apply is offered again and finishes.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createHash } from 'node:crypto'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../sandbox'
import { createSessionSecretStore, type SecretStore } from '../core/secrets/secretStore'
import {
  accountKeyOf,
  BULK_IMPORT_MAX_BYTES,
  type BatchStatus,
  type BulkStatus,
  type EventName,
  type Events,
  type ListResult,
  type Outcome,
  type SessionInfo,
  type SyncStatus
} from '../shared/contract'
import { decodeAnswer, encodeCallBody } from '../shared/callBody'
import type { Order, SellRequest } from '../shared/domain'
import { BUNDLED_PACKAGES } from './bundledPackages'
import { CORE_YOUNG_GENERATION_MB, sourceWorkerFile, startCoreHost, withoutPreloads, type CoreHost } from './coreHost'

const KEY = 'sk_test_core_worker_5b1c9d2e7f'
const APP = { name: 'Seller Desk', version: '0.0.0-test', platform: 'linux', runtime: 'preview', dateLocale: 'en-US' } as const
let sandbox: Sandbox
const folders: string[] = []
const hosts: CoreHost[] = []

beforeAll(async () => {
  sandbox = await startSandbox({ apiKey: KEY, seed: 41, orders: 600, sellRequests: 300, now: new Date() })
})
afterAll(() => sandbox.close())
afterEach(async () => {
  sandbox.setFaults({ latencyMs: 0 })
  await Promise.all(hosts.splice(0).map((host) => host.dispose()))
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true })
})

interface Started {
  host: CoreHost
  events: { event: EventName; payload: unknown }[]
  store: SecretStore
}

function start(store: SecretStore = createSessionSecretStore()): Started {
  const userDataDir = mkdtempSync(join(tmpdir(), 'seller-desk-core-worker-'))
  folders.push(userDataDir)
  const events: Started['events'] = []
  const host = startCoreHost({
    userDataDir,
    app: APP,
    secrets: { store, notice: null },
    emit: <E extends EventName>(event: E, payload: Events[E]) => events.push({ event, payload }),
    apiOptions: { retries: 1, backoffMs: 20, timeoutMs: 5_000 },
    syncEngine: { historyDays: 3650, take: 50, concurrency: 2 },
    autoSync: false
  })
  hosts.push(host)
  return { host, events, store }
}

async function value<T>(host: CoreHost, name: string, input: object = {}): Promise<T> {
  const outcome = await host.router.dispatch(name, input)
  if (!outcome.ok) throw new Error(`${name}: ${outcome.error.message}`)
  return outcome.value as T
}

const until = async (what: string, check: () => Promise<boolean>, timeoutMs = 20_000) => {
  const end = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

const syncStatus = (host: CoreHost) => value<SyncStatus>(host, 'sync.status')

it('answers calls by contract name from its worker, refuses bad ones there, sends events back and keeps the key in the host’s store', async () => {
  const { host, events, store } = start()
  expect(await value(host, 'app.info')).toEqual(APP)
  expect(await host.router.dispatch('no.such.call', {})).toMatchObject({
    ok: false,
    error: { kind: 'invalid-input', message: expect.stringContaining('no.such.call') }
  })
  expect(await host.router.dispatch('sellRequests.edit', { id: 'x', priceCents: -1 })).toMatchObject({ ok: false, error: { kind: 'invalid-input' } })

  await value(host, 'session.signIn', { baseUrl: sandbox.baseUrl, apiKey: KEY })
  expect(await store.get(sandbox.baseUrl)).toBe(KEY)
  expect(events.some((e) => e.event === 'session.changed' && (e.payload as { signedIn: boolean }).signedIn)).toBe(true)
  expect(JSON.stringify(events)).not.toContain(KEY)

  await value(host, 'sync.run', { kind: 'full' })
  const orders = await value<ListResult<Order>>(host, 'orders.list', { take: 5 })
  expect(orders.total).toBeGreaterThan(100)
  expect(orders.rows).toHaveLength(5)
  expect(events.some((e) => e.event === 'sync.status')).toBe(true)
})

it('a worker killed mid-sync is replaced: the call in flight fails clearly, a notice says so, the saved snapshot is intact and the next sync completes', async () => {
  const { host, events } = start()
  await value(host, 'session.signIn', { baseUrl: sandbox.baseUrl, apiKey: KEY })
  await value(host, 'sync.run', { kind: 'full' })
  await until('the look through older orders after it to end', async () => !(await syncStatus(host)).running)
  const before = await value<ListResult<Order>>(host, 'orders.list', { take: 1 })
  expect(before.total).toBeGreaterThan(100)

  sandbox.setFaults({ latencyMs: 60 })
  const inFlight = host.router.dispatch('sync.run', { kind: 'full' })
  await until('the full sync to be under way', async () => {
    const status = await syncStatus(host)
    return status.running && status.pagesDone > 2
  })
  const dying = host.worker()
  await dying.terminate()

  const outcome: Outcome<unknown> = await inFlight
  expect(outcome).toEqual({ ok: false, error: { kind: 'internal', message: expect.stringMatching(/stopped while answering this and has been restarted/) } })
  expect(host.restarts()).toBe(1)
  expect(host.worker()).not.toBe(dying)
  expect(events.filter((e) => e.event === 'core.restarted').map((e) => (e.payload as { message: string }).message)).toEqual([
    expect.stringMatching(/stopped unexpectedly and has been restarted/)
  ])

  // The new worker restores the account with the key the host kept, and shows the last complete sync.
  await until('the account to be restored', async () => (await host.router.dispatch('sync.status', {})).ok)
  const after = await value<ListResult<Order>>(host, 'orders.list', { take: 1 })
  expect(after.total).toBe(before.total)
  expect(after.source).toBe('snapshot')

  sandbox.setFaults({ latencyMs: 0 })
  sandbox.addOrders(4)
  await value(host, 'sync.run', { kind: 'full' })
  await until('the look through older orders after it to end', async () => !(await syncStatus(host)).running)
  const status = await syncStatus(host)
  expect(status.lastError).toBeNull()
  expect(status.incomplete).toEqual([])
  expect((await value<ListResult<Order>>(host, 'orders.list', { take: 1 })).total).toBe(before.total + 4)
})

it('a worker killed mid-apply is replaced: the interrupted batch is offered again and resuming it applies every change exactly as staged', async () => {
  const { host, events } = start()
  const account = accountKeyOf(await value<SessionInfo>(host, 'session.signIn', { baseUrl: sandbox.baseUrl, apiKey: KEY }))
  await value(host, 'sync.run', { kind: 'full' })
  const listings = (await value<ListResult<SellRequest>>(host, 'sellRequests.list', { take: 200, sortBy: 'name', sortDir: 'ASC' })).rows.slice(0, 120)
  const intended = new Map(listings.map((listing, index) => [listing.id, 1_000 + index]))
  await value(host, 'bulk.stage', { account, changes: listings.map((listing) => ({ sellRequestId: listing.id, quantity: intended.get(listing.id)! })) })

  sandbox.setFaults({ latencyMs: 40 })
  const started = await value<BatchStatus>(host, 'bulk.apply', { account, confirmed: true })
  expect(started.total).toBe(120)
  await until('some changes to be applied', async () => {
    const running = (await value<BulkStatus>(host, 'bulk.status', { account })).running
    return running !== null && running.applied >= 40
  })
  await host.worker().terminate()
  await until('a new worker with the account open', async () => (await host.router.dispatch('bulk.status', { account })).ok)
  expect(events.some((e) => e.event === 'core.restarted' && /has been restarted/.test((e.payload as { message: string }).message))).toBe(true)

  sandbox.setFaults({ latencyMs: 0 })
  const offered = (await value<BulkStatus>(host, 'bulk.status', { account })).pendingBatch
  expect(offered?.id).toBe(started.id)
  // What the queue had recorded before the kill stays applied; the rest is pending, nothing is lost.
  expect(offered!.pending).toBeGreaterThan(0)
  expect(offered!.applied).toBeGreaterThan(0)
  expect(offered!.applied + offered!.pending).toBe(120)

  await value(host, 'bulk.resume', { account, batchId: started.id })
  await until('the resumed batch to finish', async () => {
    const status = await value<BulkStatus>(host, 'bulk.status', { account })
    return status.running === null && status.pendingBatch === null
  })
  const history = await value<BatchStatus[]>(host, 'bulk.history', { account, limit: 5 })
  expect(history.find((batch) => batch.id === started.id)).toMatchObject({ applied: 120, failed: 0, conflict: 0 })
  for (const [id, quantity] of intended) expect(sandbox.state.sellRequests.find((listing) => listing.id === id)?.quantity).toBe(quantity)
})

it('gives up after repeated deaths instead of restarting forever, and says what to do', async () => {
  const { host, events } = start()
  for (let death = 0; death < 4; death++) await host.worker().terminate()
  expect(host.restarts()).toBe(3)
  expect(await host.router.dispatch('app.info', {})).toMatchObject({
    ok: false,
    error: { message: expect.stringMatching(/keeps stopping\. Quit and restart/) }
  })
  expect(events.at(-1)).toMatchObject({ event: 'notice', payload: { level: 'error' } })
})

it('reads a call given as its body in its worker: JSON text gives the same answer as the parsed call, a frame carries a file as bytes, and a body that is neither is refused as invalid input', async () => {
  const { host } = start()
  const encode = (text: string) => new TextEncoder().encode(text)
  /** What the window reads of the answer to a body (the worker's JSON text). */
  const answered = async (name: string, body: Uint8Array) => decodeAnswer(await host.answerBody(name, body))
  expect(await answered('app.info', encode('{}'))).toEqual(await host.router.dispatch('app.info', {}))
  // The answer crosses as the worker made it: JSON text as bytes, which the window reads.
  const bytes = await host.answer('app.info', {})
  expect(bytes).toBeInstanceOf(Uint8Array)
  expect(JSON.parse(new TextDecoder().decode(bytes))).toEqual(await host.router.dispatch('app.info', {}))
  expect(await answered('app.info', new Uint8Array())).toMatchObject({ ok: true })
  expect(await answered('sellRequests.edit', encode('{"id":"x","priceCents":-1}'))).toMatchObject({ ok: false, error: { kind: 'invalid-input' } })
  expect(await answered('app.info', encode('{"a":'))).toEqual({
    ok: false,
    error: { kind: 'invalid-input', message: 'The request could not be read: it was neither JSON nor a whole file.' }
  })
  // A file comes framed (shared/callBody.ts) and reaches the call's check as bytes: here one too large.
  // (A body is moved to the worker, not copied: each is made afresh.)
  const tooLarge = encodeCallBody({ account: 'demo', fileName: 'x.csv', bytes: new Uint8Array(BULK_IMPORT_MAX_BYTES + 1) }) as Uint8Array
  expect(await answered('bulk.importFile', tooLarge)).toMatchObject({
    ok: false,
    error: { kind: 'invalid-input', message: expect.stringMatching(/larger than 20 MB/) }
  })
  // A cut-off frame is refused as unreadable.
  expect(
    await answered('bulk.importFile', (encodeCallBody({ account: 'demo', fileName: 'x.csv', bytes: new Uint8Array(10) }) as Uint8Array).subarray(0, 20))
  ).toMatchObject({
    ok: false,
    error: { kind: 'invalid-input', message: expect.stringMatching(/could not be read/) }
  })
  // A view over part of a larger buffer (Node pools small ones) is copied, and the pool stays usable.
  const pooled = Buffer.from('{}')
  expect(await answered('app.info', pooled)).toMatchObject({ ok: true })
  expect(pooled.toString()).toBe('{}')
})

it('runs the core with a small young generation, a restarted worker too: a scavenge copies at most that much of what the core keeps', async () => {
  const { host } = start()
  await host.router.dispatch('app.info', {})
  expect(host.worker().resourceLimits?.maxYoungGenerationSizeMb).toBe(CORE_YOUNG_GENERATION_MB)
  await host.worker().terminate()
  await host.router.dispatch('app.info', {})
  expect(host.restarts()).toBe(1)
  expect(host.worker().resourceLimits?.maxYoungGenerationSizeMb).toBe(CORE_YOUNG_GENERATION_MB)
})

it('from source, the worker is bundled as the build bundles it, in a folder named by its content, made once per process', () => {
  const file = sourceWorkerFile()
  expect(sourceWorkerFile()).toBe(file)
  const path = fileURLToPath(file)
  expect(path.replaceAll('\\', '/')).toMatch(/node_modules\/\.cache\/seller-desk\/coreWorker-[0-9a-f]{16}\/coreWorker\.mjs$/)
  const folder = dirname(path)
  const hash = createHash('sha256')
  for (const name of readdirSync(folder).sort((a, b) => a.localeCompare(b))) hash.update(name).update(readFileSync(join(folder, name)))
  expect(basename(folder)).toBe(`coreWorker-${hash.digest('hex').slice(0, 16)}`)
  const texts = readdirSync(folder).map((name) => readFileSync(join(folder, name), 'utf8'))
  // The core's own modules and the packages it loads as it starts are inside it; the others are loaded
  // from node_modules (the native ones, the spreadsheets' when needed), and what the core loads only when
  // needed (the demo) is a chunk of its own.
  const imported = (name: string) => new RegExp(`(from ?|import\\()["']${name}(/[^"']*)?["']`)
  for (const name of BUNDLED_PACKAGES) for (const text of texts) expect(text).not.toMatch(imported(name))
  for (const name of ['libsql', 'read-excel-file']) expect(texts.join('\n')).toMatch(imported(name))
  expect(texts.length).toBeGreaterThan(1)
  expect(readFileSync(path, 'utf8').length).toBeLessThan(texts.reduce((sum, text) => sum + text.length, 0))
})

it("from source, the worker keeps Node's flags but not the TypeScript loader: the bundle is plain JavaScript", () => {
  // As `npx tsx` starts Node, and as `node --import tsx` does.
  const tsxCli = ['--require', '/app/node_modules/tsx/dist/preflight.cjs', '--import', 'file:///app/node_modules/tsx/dist/loader.mjs']
  expect(withoutPreloads(tsxCli)).toEqual([])
  expect(withoutPreloads(['--cpu-prof', '--import', 'tsx', '--cpu-prof-dir=/tmp/prof'])).toEqual(['--cpu-prof', '--cpu-prof-dir=/tmp/prof'])
  expect(withoutPreloads(['--import=tsx', '-r', 'x.cjs', '--loader=y.mjs', '--experimental-loader', 'z.mjs', '--max-old-space-size=4096'])).toEqual([
    '--max-old-space-size=4096'
  ])
  expect(withoutPreloads([])).toEqual([])
})

it('a worker started from a built file (as the app ships it) is not given the TypeScript loader the tests run under either', async () => {
  // A worker file that tells the flags it was started with, as an event.
  const folder = mkdtempSync(join(tmpdir(), 'seller-desk-worker-flags-'))
  folders.push(folder)
  const file = join(folder, 'flags.mjs')
  writeFileSync(
    file,
    "import { parentPort } from 'node:worker_threads'\nparentPort.postMessage({ type: 'event', event: 'notice', payload: { level: 'info', message: JSON.stringify(process.execArgv) } })\n"
  )
  const before = [...process.execArgv]
  process.execArgv.push('--import', 'tsx', '--trace-warnings')
  let told: string[] | null = null
  try {
    const host = startCoreHost({
      userDataDir: folder,
      app: APP,
      secrets: { store: createSessionSecretStore(), notice: null },
      // Its flags come first; the host's own notices (the worker stopped, once it has told them) are not its.
      emit: (_event, payload) => {
        const { message } = payload as { message: string }
        if (told === null && message.startsWith('[')) told = JSON.parse(message) as string[]
      },
      workerFile: pathToFileURL(file)
    })
    hosts.push(host)
    await until('the worker to tell its flags', async () => told !== null)
  } finally {
    process.execArgv.splice(0, process.execArgv.length, ...before)
  }
  // Node's other flags are kept; no module is preloaded (tsx's loader, or the test runner's own).
  expect(told).toContain('--trace-warnings')
  expect(told!.filter((flag) => /^(--import|--require|-r|--loader|--experimental-loader)(=|$)/.test(flag))).toEqual([])
})

it('from source, a worker still starts when Node was started with flags a worker may not be given (V8 flags): it inherits them', async () => {
  const before = [...process.execArgv]
  process.execArgv.push('--max-old-space-size=4096', '--expose-gc')
  try {
    const { host } = start()
    const outcome = await host.router.dispatch('app.info', {})
    expect(outcome.ok).toBe(true)
  } finally {
    process.execArgv.splice(0, process.execArgv.length, ...before)
  }
})
