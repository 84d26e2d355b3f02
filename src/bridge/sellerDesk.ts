/**
 * The renderer's typed client of the contract. Uses the preload's bridge in Electron and the loopback
 * bridge in the browser preview; either way the renderer never sees the API key and never calls the
 * Seller API itself. `call` resolves with the result or throws a ContractError carrying { kind, message }.
 */
import type { CallInput, CallName, CallResult, EventName, Events, SellerDeskBridge } from '@shared/contract'
import type { ErrorData } from '@shared/errors'
import { createPreviewBridge } from './previewBridge'

export class ContractError extends Error {
  readonly kind: ErrorData['kind']
  readonly issues: ErrorData['issues']
  readonly status: number | undefined
  constructor(data: ErrorData) {
    super(data.message)
    this.kind = data.kind
    this.issues = data.issues
    this.status = data.status
  }
}

const bridge: SellerDeskBridge = window.sellerDesk ?? createPreviewBridge()

/** Calls sent and not yet answered, and who waits for there to be none (callsAnswered). */
let callsInFlight = 0
const waitingForAnswers = new Set<() => void>()

export async function call<N extends CallName>(name: N, input: CallInput<N>): Promise<CallResult<N>> {
  callsInFlight++
  try {
    const outcome = await bridge.invoke(name, input)
    if (!outcome.ok) throw new ContractError(outcome.error)
    return outcome.value
  } finally {
    // Told a task later, once what the answer changes on screen has been rendered (Vue renders in microtasks).
    if (--callsInFlight === 0) setTimeout(() => callsInFlight === 0 && waitingForAnswers.forEach((done) => done()), 0)
  }
}

/**
 * Resolves at the first moment no call is waiting for its answer, the last answer's changes rendered (a
 * call sent meanwhile is waited for too), or after `timeoutMs` at the latest: a long call, such as an
 * export, does not hold back what waits here.
 */
export function callsAnswered(timeoutMs: number): Promise<void> {
  if (callsInFlight === 0) return Promise.resolve()
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer)
      waitingForAnswers.delete(done)
      resolve()
    }
    const timer = setTimeout(done, timeoutMs)
    waitingForAnswers.add(done)
  })
}

export function onEvent<E extends EventName>(event: E, listener: (payload: Events[E]) => void): () => void {
  return bridge.on(event, listener)
}

/** A message for any error, for toasts and inline errors. */
export function messageOf(error: unknown): string {
  return error instanceof ContractError ? error.message : 'Something went wrong. Try again.'
}
