/**
 * The contract between the renderer and the main side: every call the renderer may make (name, zod
 * input schema, result type) and every event main may push. Main (ipc), preload, the renderer's client
 * and the browser-preview bridge are all derived from this one module. Adding a capability means one
 * entry here, one handler in core/router.ts, and UI.
 *
 * This module is imported by the renderer: it may depend on zod and on type-only modules, nothing else.
 */
import { z } from 'zod'
import type { Order, Page, SellRequest } from './domain'
import type { ErrorData } from './errors'
import { priceCentsInput, quantityInput, sellRequestIdInput } from './userInput'

/** A call: its input schema, and its result type carried as a phantom. */
export interface CallSpec<I extends z.ZodType, R> {
  input: I
  /** Type-level only. */
  result?: R
}

function call<R>() {
  return <I extends z.ZodType>(input: I): CallSpec<I, R> => ({ input })
}

const noInput = z.object({}).strict()

const isoInstant = z.iso.datetime({ offset: true, error: 'Expected a date and time with a zone.' })

const pageInput = {
  page: z.number().int().min(1).max(1_000_000).default(1),
  take: z.number().int().min(1).max(200).default(50),
  searchTerm: z.string().max(200, 'Search is limited to 200 characters.').optional(),
  sortDir: z.enum(['ASC', 'DESC']).default('DESC')
}

const statusList = z.array(z.string().min(1).max(100)).max(50).optional()

export const orderListInput = z
  .object({
    ...pageInput,
    fromDate: isoInstant.optional(),
    toDate: isoInstant.optional(),
    statuses: statusList,
    itemStatuses: statusList,
    sortBy: z.enum(['date', 'total']).default('date')
  })
  .strict()
  .refine((q) => !q.fromDate || !q.toDate || Date.parse(q.fromDate) <= Date.parse(q.toDate), {
    message: 'The start date must be before the end date.',
    path: ['toDate']
  })

export const sellRequestListInput = z
  .object({ ...pageInput, statuses: statusList, sortBy: z.enum(['updated', 'price', 'quantity', 'name']).default('updated') })
  .strict()

export const sellRequestEditInput = z
  .object({ id: sellRequestIdInput, priceCents: priceCentsInput.optional(), quantity: quantityInput.optional() })
  .strict()
  .refine((edit) => edit.priceCents !== undefined || edit.quantity !== undefined, 'Change the price, the quantity, or both.')

export const signInInput = z
  .object({
    baseUrl: z.string().trim().min(1, 'Enter the marketplace address.').max(2048),
    apiKey: z.string().trim().min(1, 'Enter your API key.').max(4096, 'That API key is too long.')
  })
  .strict()

/** App-wide settings: each field falls back to its default when missing or invalid. */
export const appSettingsSchema = z.object({
  syncIntervalMinutes: z.number().int().min(1).max(240).catch(5),
  historyDays: z.number().int().min(7).max(3650).catch(90),
  notifyNewOrders: z.boolean().catch(true)
})
export type AppSettings = z.infer<typeof appSettingsSchema>

export const appSettingsUpdateInput = z
  .object({
    syncIntervalMinutes: z.number().int('Whole minutes, please.').min(1, 'At least 1 minute.').max(240, 'At most 240 minutes.'),
    historyDays: z.number().int('Whole days, please.').min(7, 'At least 7 days.').max(3650, 'At most 3650 days.'),
    notifyNewOrders: z.boolean()
  })
  .partial()
  .strict()

/** Where the snapshot stands and whether the marketplace answers. */
export interface SyncStatus {
  running: boolean
  kind: 'full' | 'incremental' | null
  resource: 'orders' | 'sellRequests' | null
  pagesDone: number
  pagesTotal: number
  items: number
  /** The older of the two resources' last completed syncs; null before the first. */
  lastSyncedAt: string | null
  lastError: ErrorData | null
  online: boolean
  offlineSince: string | null
}

/** A list page and where it came from. */
export interface ListResult<T> extends Page<T> {
  source: 'snapshot' | 'server'
  /** When the rows were last synced (snapshot), or now (server). */
  syncedAt: string | null
  /** Something the seller should know about this result (e.g. older orders need a connection). */
  note: string | null
}

/** How the API key is kept on this computer. */
export type KeyStorage = 'keychain' | 'encrypted-file' | 'session-only'

export interface SessionInfo {
  signedIn: boolean
  baseUrl: string | null
  /** The last marketplace address used, to prefill sign-in after signing out. */
  lastBaseUrl: string | null
  /** Signed in to the built-in demo marketplace. */
  demo: boolean
  keyStorage: KeyStorage | null
  /** Something the seller should know about where the key is kept (e.g. session only). */
  keyStorageNotice: string | null
}

export interface AppInfo {
  name: string
  version: string
  platform: string
  /** Where the main side runs: the Electron app or the browser preview host. */
  runtime: 'electron' | 'preview'
}

export const calls = {
  'app.info': call<AppInfo>()(noInput),
  'session.get': call<SessionInfo>()(noInput),
  'session.signIn': call<SessionInfo>()(signInInput),
  'session.startDemo': call<SessionInfo>()(noInput),
  'session.signOut': call<SessionInfo>()(noInput),
  'orders.list': call<ListResult<Order>>()(orderListInput),
  'sellRequests.list': call<ListResult<SellRequest>>()(sellRequestListInput),
  'filters.statuses': call<{ orders: string[]; orderItems: string[]; sellRequests: string[] }>()(noInput),
  'sync.status': call<SyncStatus>()(noInput),
  'sync.run': call<SyncStatus>()(z.object({ kind: z.enum(['auto', 'full']).default('auto') }).strict()),
  'sync.cancel': call<SyncStatus>()(noInput),
  'sync.windowFocused': call<SyncStatus>()(noInput),
  'settings.get': call<AppSettings>()(noInput),
  'settings.update': call<AppSettings>()(appSettingsUpdateInput),
  'sellRequests.edit': call<SellRequest>()(sellRequestEditInput),
  'sellRequests.delete': call<{ id: string }>()(z.object({ id: sellRequestIdInput }).strict())
} as const

export type CallName = keyof typeof calls
export const callNames = Object.keys(calls) as CallName[]
/** What the renderer passes (defaults may be omitted). */
export type CallInput<N extends CallName> = z.input<(typeof calls)[N]['input']>
/** What the handler receives after validation. */
export type CallParsed<N extends CallName> = z.output<(typeof calls)[N]['input']>
export type CallResult<N extends CallName> = NonNullable<(typeof calls)[N]['result']>

/** Results cross as data: never a thrown object. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: ErrorData }

export interface Events {
  'session.changed': SessionInfo
  /** Something the seller should see as a toast or banner. */
  notice: { level: 'info' | 'warning' | 'error'; message: string }
  'sync.status': SyncStatus
  /** A sync brought orders not seen before. */
  'orders.new': { count: number; totalCents: number }
  /** Main asks the renderer to show a view (e.g. after a notification was clicked). */
  navigate: { view: 'orders' | 'sellRequests' | 'settings' }
  'settings.changed': AppSettings
}
export type EventName = keyof Events
export const eventNames: EventName[] = ['session.changed', 'notice', 'sync.status', 'orders.new', 'navigate', 'settings.changed']

/** The object preload exposes as `window.sellerDesk` and the preview bridge implements. */
export interface SellerDeskBridge {
  invoke<N extends CallName>(name: N, input: CallInput<N>): Promise<Outcome<CallResult<N>>>
  on<E extends EventName>(event: E, listener: (payload: Events[E]) => void): () => void
}

/** IPC channel names, derived, so main and preload cannot disagree. */
export const channelOf = (name: CallName) => `seller-desk:call:${name}`
export const eventChannelOf = (name: EventName) => `seller-desk:event:${name}`
