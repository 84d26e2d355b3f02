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

export async function call<N extends CallName>(name: N, input: CallInput<N>): Promise<CallResult<N>> {
  const outcome = await bridge.invoke(name, input)
  if (!outcome.ok) throw new ContractError(outcome.error)
  return outcome.value
}

export function onEvent<E extends EventName>(event: E, listener: (payload: Events[E]) => void): () => void {
  return bridge.on(event, listener)
}

/** A message for any error, for toasts and inline errors. */
export function messageOf(error: unknown): string {
  return error instanceof ContractError ? error.message : 'Something went wrong. Try again.'
}
