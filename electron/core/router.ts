/**
 * Turns a contract call (name + untrusted input) into a service call. The one entry point for both the
 * Electron IPC binding and the browser-preview bridge: unknown names and invalid inputs are refused
 * here, every result or error crosses as data.
 */
import { calls, type CallName, type CallParsed, type CallResult, type Outcome } from '../shared/contract'
import { SellerDeskError, toErrorData } from '../shared/errors'
import { noteCall } from './eventLoopTurns'

export type Handlers = { [N in CallName]: (input: CallParsed<N>) => Promise<CallResult<N>> }

export interface Router {
  dispatch(name: string, input: unknown): Promise<Outcome<unknown>>
}

const isCallName = (name: string): name is CallName => Object.prototype.hasOwnProperty.call(calls, name)

export function createRouter(handlers: Handlers, onUnexpected?: (name: string, error: unknown) => void): Router {
  return {
    async dispatch(name, input) {
      noteCall()
      if (!isCallName(name)) return { ok: false, error: { kind: 'invalid-input', message: `Unknown call “${String(name).slice(0, 80)}”.` } }
      const parsed = calls[name].input.safeParse(input ?? {})
      if (!parsed.success) {
        const issues = parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }))
        return {
          ok: false,
          error: { kind: 'invalid-input', message: issues[0]?.message ?? 'Invalid input.', issues }
        }
      }
      try {
        const handler = handlers[name] as (input: unknown) => Promise<unknown>
        return { ok: true, value: await handler(parsed.data) }
      } catch (error) {
        if (!(error instanceof SellerDeskError)) onUnexpected?.(name, error)
        return { ok: false, error: toErrorData(error) }
      }
    }
  }
}
