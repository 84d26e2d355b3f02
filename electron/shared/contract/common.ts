/**
 * What every feature's calls share: how a call is declared, how results cross (as data), and the
 * paging, date and list inputs the lists use alike.
 */
import { z } from 'zod'
import type { Page } from '../domain'
import type { ErrorData } from '../errors'

/** A call: its input schema, and its result type carried as a phantom. */
export interface CallSpec<I extends z.ZodType, R> {
  input: I
  /** Type-level only. */
  result?: R
}

export function call<R>() {
  return <I extends z.ZodType>(input: I): CallSpec<I, R> => ({ input })
}

export const noInput = z.object({}).strict()

/** Results cross as data: never a thrown object. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: ErrorData }

export const isoInstant = z.iso.datetime({ offset: true, error: 'Expected a date and time with a zone.' })

/** The most rows a list's page holds. */
export const MAX_PAGE_TAKE = 200

export const pageInput = {
  page: z.number().int().min(1).max(1_000_000).default(1),
  take: z.number().int().min(1).max(MAX_PAGE_TAKE).default(50),
  searchTerm: z.string().max(200, 'Search is limited to 200 characters.').optional(),
  sortDir: z.enum(['ASC', 'DESC']).default('DESC')
}

export const statusList = z.array(z.string().min(1).max(100)).max(50).optional()

/** The seller's IANA time zone ("Europe/Berlin"), as the renderer reads it from Intl. */
export const timeZoneInput = z.string().min(1).max(64, 'That is not a time zone name.')

/** A list page and where it came from. */
export interface ListResult<T> extends Page<T> {
  source: 'snapshot' | 'server'
  /** When the rows were last synced (snapshot), or now (server). */
  syncedAt: string | null
  /** Something the seller should know about this result (e.g. older orders need a connection). */
  note: string | null
}
