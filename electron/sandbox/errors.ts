/**
 * Failures of the demo marketplace. By default they are answered in the NestJS-style shape
 * `{ statusCode, error, message }` (the spec does not show one; this is the common shape of such
 * APIs); the `errorBody` variant answers them in the other shapes servers and their proxies use.
 */
import type { ErrorBodyForm } from './variant'
import type { WireError } from './wire'

const REASONS: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  413: 'Payload Too Large',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable'
}

/**
 * A request the marketplace refuses; `message` names the problem and never echoes a secret.
 * `messages` lists the problems one by one where there are several (a validator's list).
 */
export class ApiError extends Error {
  readonly messages: readonly string[]

  constructor(
    readonly statusCode: number,
    message: string,
    messages?: readonly string[]
  ) {
    super(message)
    this.name = 'ApiError'
    this.messages = messages && messages.length > 0 ? [...messages] : [message]
  }
}

export function errorBody(statusCode: number, message: string): WireError {
  return { statusCode, error: reasonOf(statusCode), message }
}

function reasonOf(statusCode: number): string {
  return REASONS[statusCode] ?? 'Error'
}

/** An error answer's body as sent: its media type (none for an empty body) and text. */
export interface ErrorPayload {
  contentType: string | undefined
  text: string
}

export function errorPayload(form: ErrorBodyForm, error: ApiError): ErrorPayload {
  const { statusCode, message } = error
  switch (form) {
    case 'json':
      return { contentType: 'application/json; charset=utf-8', text: JSON.stringify(errorBody(statusCode, message)) }
    case 'json-array':
      return {
        contentType: 'application/json; charset=utf-8',
        text: JSON.stringify({ statusCode, error: reasonOf(statusCode), message: error.messages })
      }
    case 'text':
      return { contentType: 'text/plain; charset=utf-8', text: message }
    case 'html':
      return { contentType: 'text/html; charset=utf-8', text: proxyPage(statusCode) }
    case 'empty':
      return { contentType: undefined, text: '' }
  }
}

/** The page a reverse proxy answers in place of the application: the status in the title, no message. */
function proxyPage(statusCode: number): string {
  const title = `${statusCode} ${reasonOf(statusCode)}`
  return (
    `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n` +
    `<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`
  )
}
