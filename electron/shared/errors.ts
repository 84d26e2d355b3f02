/**
 * Errors that cross the contract are data: `{ kind, message }` with a message a seller can act on.
 * Never a stack trace, never the API key.
 */

export const ERROR_KINDS = [
  'auth', // missing or wrong API key
  'not-found', // unknown id or path
  'invalid-input', // the app or the server refused the input
  'rate-limited', // 429 after retries
  'server', // 5xx after retries
  'network', // no connection, DNS, dropped connection
  'timeout', // no answer in time
  'malformed-response', // the server answered something that is not the spec's shape
  'unconfirmed', // a change the server accepted (2xx) whose answer cannot be read: most likely made, not known
  'not-signed-in', // a call that needs a session without one
  'keychain', // the secret store failed
  'internal' // a bug: anything else
] as const

export type ErrorKind = (typeof ERROR_KINDS)[number]

export interface ErrorData {
  kind: ErrorKind
  message: string
  /** HTTP status where one was received. */
  status?: number
  /** Field-level problems for invalid input: path → message. */
  issues?: { path: string; message: string }[]
}

/** An error raised inside core that is meant to be shown to the seller. */
export class SellerDeskError extends Error {
  readonly kind: ErrorKind
  readonly status?: number
  readonly issues?: { path: string; message: string }[]
  /** Set when the failure came after one or more retries (a retried DELETE's 404 means it worked). */
  afterRetry = false
  /**
   * Set on a change (PATCH, DELETE) whose request may have reached the marketplace but whose answer never
   * came (it timed out, the connection was lost, or a gateway in front of it answered that it got none):
   * the change may or may not have been made.
   */
  unanswered = false
  /**
   * Set on a change answered as a success (HTTP 2xx) whose body said it failed: what it said, in short
   * (`status 422: “Price is too low”`). The change may or may not have been made.
   */
  saidFailed?: string

  constructor(kind: ErrorKind, message: string, extra: { status?: number; issues?: { path: string; message: string }[] } = {}) {
    super(message)
    this.name = 'SellerDeskError'
    this.kind = kind
    if (extra.status !== undefined) this.status = extra.status
    if (extra.issues !== undefined) this.issues = extra.issues
  }
}

/** Anything thrown → data safe to send to the renderer. Unknown errors become 'internal' without details. */
export function toErrorData(error: unknown): ErrorData {
  if (error instanceof SellerDeskError) {
    const data: ErrorData = { kind: error.kind, message: error.message }
    if (error.status !== undefined) data.status = error.status
    if (error.issues !== undefined) data.issues = error.issues
    return data
  }
  return { kind: 'internal', message: 'Something went wrong inside Seller Desk. Try again; if it keeps happening, restart the app.' }
}

/** True when a text contains the secret or any 8-character piece of it. */
export function mentionsSecret(text: string, secret: string | undefined): boolean {
  if (!secret || !text) return false
  const window = Math.min(8, secret.length)
  for (let i = 0; i + window <= secret.length; i++) if (text.includes(secret.slice(i, i + window))) return true
  return false
}

/** Removes every occurrence of a secret from a text (defence in depth for anything that may echo a request). */
export function redactSecret(text: string, secret: string | undefined): string {
  if (!secret) return text
  return text.split(secret).join('[redacted]')
}
