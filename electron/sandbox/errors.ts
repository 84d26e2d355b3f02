/**
 * Failures of the demo marketplace, answered in the NestJS-style shape
 * `{ statusCode, error, message }` (the spec does not show one; this is the common shape of such APIs).
 */
import type { WireError } from './wire'

const REASONS: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  404: 'Not Found',
  413: 'Payload Too Large',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable'
}

/** A request the marketplace refuses; `message` names the problem and never echoes a secret. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    message: string
  ) {
    super(message)
    this.name = 'ApiError'
  }
}

export function errorBody(statusCode: number, message: string): WireError {
  return { statusCode, error: REASONS[statusCode] ?? 'Error', message }
}
