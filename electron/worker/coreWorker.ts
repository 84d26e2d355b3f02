/**
 * The core's thread: snapshot, sync, bulk edit, import/export and dashboard queries all run here, so
 * their synchronous SQLite work never holds up the thread that answers the window. Calls arrive by
 * contract name and go to the same router (and its zod validation) as before; results and errors go
 * back as data; events go back by name. The keychain and the system browser stay with the answering
 * thread and are reached through `HostServices`.
 */
import { parentPort, workerData } from 'node:worker_threads'
import type { Router } from '../core/router'
import type { SecretStore } from '../core/secrets/secretStore'
import { createSellerDesk } from '../core/sellerDesk'
import { decodeCallBody, encodeAnswer } from '../shared/callBody'
import type { EventName, Events, Outcome } from '../shared/contract'
import { hostServiceNames, type CoreWorkerData, type FromWorker, type HostServices, type ToWorker } from './protocol'

if (!parentPort) throw new Error('coreWorker runs only as a worker thread.')
const port = parentPort
const init = workerData as CoreWorkerData
const post = (message: FromWorker) => port.postMessage(message)

let nextHostCall = 1
const waitingHost = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>()

/** Each host service as a function that asks the answering thread and waits for its answer. */
const host = Object.fromEntries(
  hostServiceNames.map((name) => [
    name,
    (...args: unknown[]) =>
      new Promise((resolve, reject) => {
        const id = nextHostCall++
        waitingHost.set(id, { resolve, reject })
        post({ type: 'hostCall', id, name, args })
      })
  ])
) as unknown as HostServices

const secrets: SecretStore = {
  kind: init.secrets.kind,
  get: (account) => host.secretGet(account),
  set: (account, secret) => host.secretSet(account, secret),
  delete: (account) => host.secretDelete(account)
}

const NOT_STARTED =
  'Seller Desk could not open its settings on this computer. Restart the app; if it keeps failing, check that its user-data folder can be written.'

/**
 * Answers call `id` with what `run` makes of it once the core has started (or that it could not start):
 * the outcome goes back as JSON text, moved (shared/callBody.ts encodeAnswer).
 */
function reply(id: number, run: (router: Router) => Promise<Outcome<unknown>>) {
  void desk
    .then(
      (started) => run(started.router),
      (): Outcome<unknown> => ({ ok: false, error: { kind: 'internal', message: NOT_STARTED } })
    )
    .then((outcome) => {
      const json = encodeAnswer(outcome)
      port.postMessage({ type: 'result', id, answer: json } satisfies FromWorker, [json.buffer])
    })
}

const emit = <E extends EventName>(event: E, payload: Events[E]) => post({ type: 'event', event, payload } as FromWorker)

const desk = createSellerDesk({
  userDataDir: init.userDataDir,
  secrets: { store: secrets, notice: init.secrets.notice },
  app: init.app,
  emit,
  // Loaded only when a seller explores the demo.
  startDemoMarketplace: async () => (await import('../sandbox/demo')).startDemoMarketplace(),
  ...(init.canOpenExternal ? { openExternal: (url: string) => host.openExternal(url) } : {}),
  ...(init.apiOptions ? { apiOptions: init.apiOptions } : {}),
  ...(init.syncEngine ? { syncEngine: init.syncEngine } : {}),
  ...(init.autoSync !== undefined ? { autoSync: init.autoSync } : {}),
  onUnexpectedError: (where, error) => void host.unexpectedError(where, error instanceof Error ? error.name : 'unknown').catch(() => undefined)
})

/** Inputs past this size are checked a turn after they are read (each can take milliseconds). */
const LARGE_INPUT_BYTES = 64 * 1024
const UNREADABLE: Outcome<unknown> = {
  ok: false,
  error: { kind: 'invalid-input', message: 'The request could not be read: it was neither JSON nor a whole file.' }
}

port.on('message', (message: ToWorker) => {
  switch (message.type) {
    case 'call':
      return reply(message.id, (router) => router.dispatch(message.name, message.input))
    case 'callBody':
      return reply(message.id, async (router) => {
        let input: unknown
        try {
          input = decodeCallBody(message.body)
        } catch {
          return UNREADABLE
        }
        // A large input's check (an import's whole file) in a turn of its own, after the reading.
        if (message.body.byteLength > LARGE_INPUT_BYTES) await new Promise((resolve) => setImmediate(resolve))
        return router.dispatch(message.name, input)
      })
    case 'hostAnswer': {
      const waiting = waitingHost.get(message.id)
      waitingHost.delete(message.id)
      if (message.ok) waiting?.resolve(message.value)
      else waiting?.reject(new Error(message.message))
      return
    }
    case 'dispose':
      void desk
        .then((started) => started.dispose())
        .finally(() => {
          post({ type: 'disposed' })
          port.close()
        })
      return
  }
})

void desk.then(
  async (started) => {
    post({ type: 'ready' })
    await started.session.restore().catch(() => undefined)
  },
  () => post({ type: 'ready' })
)
