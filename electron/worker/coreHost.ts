/**
 * The answering thread's side of the core worker: a `Router` whose calls run in the worker, the host
 * services the worker asks for (keychain, system browser), and the worker's life. Electron's main
 * process and the browser-preview host both use it, so the window is never held up by the core.
 *
 * If the worker dies (a crash, running out of memory, killed), calls in flight fail with a clear error,
 * the seller is told, and a new worker starts on the same files: the snapshot's transactions keep what
 * was saved, and an apply that was cut off is offered again as after any interrupted run.
 */
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { threadId, Worker } from 'node:worker_threads'
import type { SecretStoreChoice } from '../core/secrets/chooseSecretStore'
import type { Router } from '../core/router'
import type { Emit } from '../core/sellerDesk'
import type { Outcome } from '../shared/contract'
import { decodeAnswer, encodeAnswer } from '../shared/callBody'
import { isAllowedExternalUrl } from '../shared/externalLinks'
import type { CoreWorkerData, FromWorker, HostServices, ToWorker } from './protocol'
import { BUNDLED_PACKAGES } from './bundledPackages'

export interface CoreHostOptions extends Omit<CoreWorkerData, 'secrets' | 'canOpenExternal'> {
  secrets: SecretStoreChoice
  emit: Emit
  /** Opens an https page in the seller's browser (Electron: shell.openExternal). */
  openExternal?: (url: string) => Promise<void>
  onUnexpectedError?: (where: string, errorName: string) => void
  /** Restarts allowed within `restartWindowMs` before the host gives up (default 3 in 60 s). */
  maxRestarts?: number
  restartWindowMs?: number
  /** How long a closing worker may take to finish what it records (default 20 s). */
  disposeTimeoutMs?: number
  /**
   * The worker's file. Default: the built one beside this module's bundle (out/main/coreWorker.js), or
   * from source the bundle sourceWorkerFile makes. The end-to-end tests give the built one, so they run
   * the core as the app ships it.
   */
  workerFile?: URL
}

export interface CoreHost {
  /** Calls with their outcomes as values (read here from the worker's answers: for tests and scripts). */
  router: Router
  /**
   * A call's answer as the worker made it: its Outcome as JSON text (shared/callBody.ts encodeAnswer),
   * which the window's IPC and the preview's bridge pass on unread, so a large answer (a page of grid
   * rows, every cell mark) costs this thread neither serializing nor copying.
   */
  answer(name: string, input: unknown): Promise<Uint8Array>
  /**
   * The same for a call whose input is its body as received (the preview bridge's request: JSON text,
   * or a frame carrying bytes; shared/callBody.ts): the worker reads it, so a large input (an import's
   * file) costs this thread no parsing. A body that is neither is refused as invalid input.
   */
  answerBody(name: string, body: Uint8Array): Promise<Uint8Array>
  /** The running worker (tests kill it to check recovery). */
  worker(): Worker
  /** How many times the worker was restarted after dying. */
  restarts(): number
  dispose(): Promise<void>
}

const STOPPED_MID_CALL = 'Seller Desk’s background work stopped while answering this and has been restarted. Try again.'
const RESTARTED =
  'Seller Desk’s background work stopped unexpectedly and has been restarted. Everything saved is kept; changes that were being applied are offered again in Bulk edit.'
const GAVE_UP = 'Seller Desk’s background work keeps stopping. Quit and restart Seller Desk; your saved data is kept.'
const CLOSED = 'Seller Desk is closing.'

/**
 * The core worker's young generation, in MB. A scavenge copies what is still alive in it, and the core's
 * long work (an import holding tens of thousands of rows, a sync's pages) keeps much of what it makes
 * alive. With V8's own sizing (semi-spaces that grow several times over) one scavenge can copy enough to
 * take both cores for a whole call's budget; too small a one collects so often that a sync spends a good
 * share of its CPU copying the same pages again. This size sits between: measured with
 * bench/responsiveness.bench.ts (the trivial call's p99, against the busy cores' floor) and
 * bench/syncRatio.bench.ts (the sync's CPU, `BENCH_SEMI_SPACE_MB` = a third of it), where a quarter of it
 * did no better for the call and cost the sync more CPU.
 */
export const CORE_YOUNG_GENERATION_MB = 24

/**
 * Starts the worker's file. Built, it sits next to this module's bundle (out/main/coreWorker.js). From
 * source (the preview run by tsx, tests) it is the bundle sourceWorkerFile makes.
 */
function newCoreWorker(workerData: CoreWorkerData, workerFile: URL | undefined): Worker {
  const resourceLimits = { maxYoungGenerationSizeMb: CORE_YOUNG_GENERATION_MB }
  if (!workerFile && !import.meta.url.endsWith('.ts')) return new Worker(new URL('./coreWorker.js', import.meta.url), { workerData, resourceLimits })
  const file = workerFile ?? sourceWorkerFile()
  // Either bundle is plain JavaScript: the loader that reads TypeScript, which the tests and benchmarks run
  // under and the app never has, would only slow the worker's start. Flags given to a worker are checked,
  // and Node refuses there some it was started with (V8's, such as --max-old-space-size or --expose-gc);
  // with one of those the worker inherits them all, the loader too.
  try {
    return new Worker(file, { workerData, resourceLimits, execArgv: withoutPreloads(process.execArgv) })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw error
    return new Worker(file, { workerData, resourceLimits })
  }
}

/**
 * The worker as `electron-vite build` makes it for the app (out/main/coreWorker.js under `root`), for
 * tests and benchmarks of what ships; a clear error when it has not been built.
 */
export function builtCoreWorkerFile(root = process.cwd()): URL {
  const file = join(root, 'out', 'main', 'coreWorker.js')
  if (!existsSync(file)) throw new Error(`${file} is missing: run \`npx electron-vite build\` first.`)
  return pathToFileURL(file)
}

const PRELOAD_FLAGS = ['--import', '--require', '-r', '--loader', '--experimental-loader']

/**
 * Node's flags less the modules it preloads (`--import tsx`, or tsx's own `--require …preflight.cjs
 * --import …loader.mjs`): what a worker on the bundle from source is given, where Node takes them all.
 */
export function withoutPreloads(execArgv: readonly string[]): string[] {
  const kept: string[] = []
  for (let index = 0; index < execArgv.length; index++) {
    const flag = execArgv[index] as string
    if (PRELOAD_FLAGS.includes(flag))
      index++ // and its value
    else if (!PRELOAD_FLAGS.some((preload) => flag.startsWith(`${preload}=`))) kept.push(flag)
  }
  return kept
}

const DAY_MS = 24 * 60 * 60 * 1000
let sourceWorker: URL | null = null
/**
 * From source, the worker's file bundled as the build bundles it, once per process: the core and the
 * packages it loads as it starts (bundledPackages.ts), minified, what it imports only when needed in
 * chunks of their own. A worker does not inherit the loader that reads TypeScript; with tsx's loader
 * registered in it, the worker read the core a file at a time through that loader at every start (and
 * every restart), far slower than one bundle. The bundle is written under node_modules (so that the
 * packages it leaves out resolve from it), in a folder named by its content: processes that
 * bundle the same source share one, and a changed source makes a new one.
 */
export function sourceWorkerFile(): URL {
  // Made again if it went meanwhile (pruned by a process of another source a day later).
  if (sourceWorker && existsSync(fileURLToPath(sourceWorker))) return sourceWorker
  // Loaded only here: the built app never bundles from source and does not ship esbuild.
  const require = createRequire(import.meta.url)
  const { buildSync } = require('esbuild') as typeof import('esbuild')
  const outdir = fileURLToPath(new URL('../../node_modules/.cache/seller-desk/', import.meta.url))
  const files = buildSync({
    entryPoints: { coreWorker: fileURLToPath(new URL('./coreWorker.ts', import.meta.url)) },
    bundle: true,
    splitting: true,
    minify: true,
    keepNames: true,
    platform: 'node',
    format: 'esm',
    // No package.json above it says "module" (Node stops looking at node_modules): the extension does.
    outExtension: { '.js': '.mjs' },
    external: Object.keys((require('../../package.json') as { dependencies: Record<string, string> }).dependencies).filter(
      (name) => !BUNDLED_PACKAGES.includes(name)
    ),
    outdir,
    write: false
  }).outputFiles.sort((a, b) => a.path.localeCompare(b.path))
  if (!files.some((output) => output.path === join(outdir, 'coreWorker.mjs'))) throw new Error('esbuild made no bundle of the core worker')
  const hash = createHash('sha256')
  for (const output of files) hash.update(output.path.slice(outdir.length)).update(output.contents)
  const folder = join(outdir, `coreWorker-${hash.digest('hex').slice(0, 16)}`)
  if (existsSync(folder)) {
    // Used again: a day from now it is still not an older source's to prune.
    try {
      utimesSync(folder, new Date(), new Date())
    } catch {
      // Another process is writing it.
    }
  } else {
    // Written whole, then named: another process may be starting the same bundle.
    const partial = `${folder}.${process.pid}.${threadId}.partial`
    for (const output of files) {
      const file = join(partial, output.path.slice(outdir.length))
      mkdirSync(dirname(file), { recursive: true })
      writeFileSync(file, output.contents)
    }
    try {
      renameSync(partial, folder)
    } catch (error) {
      // Named by another process meanwhile (or Windows refuses while one of its files is open).
      rmSync(partial, { recursive: true, force: true })
      if (!existsSync(folder)) throw error
    }
    // Bundles of older sources, unused for a day (a process started before may still restart its worker from one).
    for (const name of readdirSync(outdir)) {
      if (!/^coreWorker-[0-9a-f]+(\.mjs)?$/.test(name) || join(outdir, name) === folder) continue
      try {
        if (statSync(join(outdir, name)).mtimeMs < Date.now() - DAY_MS) rmSync(join(outdir, name), { recursive: true, force: true })
      } catch {
        // Pruned by another process meanwhile.
      }
    }
  }
  return (sourceWorker = pathToFileURL(join(folder, 'coreWorker.mjs')))
}

const failure = (message: string): Uint8Array => encodeAnswer({ ok: false, error: { kind: 'internal', message } } satisfies Outcome<unknown>)

export function startCoreHost(options: CoreHostOptions): CoreHost {
  const { secrets, emit, openExternal, onUnexpectedError, maxRestarts = 3, restartWindowMs = 60_000, disposeTimeoutMs = 20_000, workerFile, ...data } = options
  const workerData: CoreWorkerData = { ...data, secrets: { kind: secrets.store.kind, notice: secrets.notice }, canOpenExternal: openExternal !== undefined }

  const services: HostServices = {
    secretGet: (account) => secrets.store.get(account),
    secretSet: (account, secret) => secrets.store.set(account, secret),
    secretDelete: (account) => secrets.store.delete(account),
    async openExternal(url) {
      if (!openExternal || !isAllowedExternalUrl(url)) throw new Error('That address is not one Seller Desk opens.')
      await openExternal(new URL(url).href)
    },
    async unexpectedError(where, errorName) {
      onUnexpectedError?.(where, errorName)
    }
  }

  let nextCall = 1
  const inFlight = new Map<number, (answer: Uint8Array) => void>()
  const crashes: number[] = []
  let restarted = 0
  let gaveUp = false
  let disposing: Promise<void> | null = null
  let current = spawn()

  function spawn(): Worker {
    const worker = newCoreWorker(workerData, workerFile)
    const send = (message: ToWorker) => worker.postMessage(message)
    worker.on('message', (message: FromWorker) => {
      switch (message.type) {
        case 'result':
          inFlight.get(message.id)?.(message.answer)
          inFlight.delete(message.id)
          return
        case 'event':
          emit(message.event, message.payload as never)
          return
        case 'hostCall': {
          const service = services[message.name] as (...args: unknown[]) => Promise<unknown>
          service(...message.args).then(
            (value) => send({ type: 'hostAnswer', id: message.id, ok: true, value }),
            (error: unknown) => send({ type: 'hostAnswer', id: message.id, ok: false, message: error instanceof Error ? error.message : 'failed' })
          )
          return
        }
        case 'disposed':
          // Everything is recorded and closed; what still holds the thread (idle sockets) may go.
          void worker.terminate()
          return
        case 'ready':
          return
      }
    })
    // An uncaught error or running out of memory ends the worker; 'exit' follows and handles it.
    worker.on('error', (error) => onUnexpectedError?.('core worker', error.name))
    worker.on('exit', () => {
      if (worker !== current || disposing) return
      for (const answer of inFlight.values()) answer(failure(STOPPED_MID_CALL))
      inFlight.clear()
      const now = Date.now()
      crashes.push(now)
      while (crashes.length > 0 && crashes[0]! < now - restartWindowMs) crashes.shift()
      if (crashes.length > maxRestarts) {
        gaveUp = true
        emit('notice', { level: 'error', message: GAVE_UP })
        return
      }
      restarted++
      current = spawn()
      emit('core.restarted', { message: RESTARTED })
    })
    return worker
  }

  function call(message: (id: number) => ToWorker, transfer: ArrayBuffer[] = []): Promise<Uint8Array> {
    if (disposing) return Promise.resolve(failure(CLOSED))
    if (gaveUp) return Promise.resolve(failure(GAVE_UP))
    return new Promise((resolve) => {
      const id = nextCall++
      inFlight.set(id, resolve)
      current.postMessage(message(id), transfer)
    })
  }
  const answer = (name: string, input: unknown) => call((id) => ({ type: 'call', id, name, input }))
  const router: Router = { dispatch: async (name, input) => decodeAnswer(await answer(name, input)) as Outcome<unknown> }

  return {
    router,
    answer,
    answerBody(name, body) {
      // Moved to the worker, not copied: a view over part of a shared pool (small buffers) is copied out first.
      const own = body.byteOffset === 0 && body.byteLength === body.buffer.byteLength && body.buffer instanceof ArrayBuffer ? body : new Uint8Array(body)
      return call((id) => ({ type: 'callBody', id, name, body: own }), [own.buffer as ArrayBuffer])
    },
    worker: () => current,
    restarts: () => restarted,
    dispose() {
      disposing ??= new Promise<void>((done) => {
        const worker = current
        if (gaveUp) return void worker.terminate().then(() => done())
        const timer = setTimeout(() => void worker.terminate(), disposeTimeoutMs)
        worker.once('exit', () => {
          clearTimeout(timer)
          for (const answer of inFlight.values()) answer(failure(CLOSED))
          inFlight.clear()
          done()
        })
        worker.postMessage({ type: 'dispose' } satisfies ToWorker)
      })
      return disposing
    }
  }
}
