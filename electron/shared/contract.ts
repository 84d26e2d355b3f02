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
import { LISTING_FIELD_KEYS, type ListingFieldKey } from './listingFieldKeys'
import { MAX_PRICE_CENTS, MAX_QUANTITY, priceCentsInput, quantityInput, sellRequestIdInput } from './userInput'

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

/** The orders a seller narrowed the list to: shared by the list and its CSV export. */
const orderFilterInput = {
  searchTerm: pageInput.searchTerm,
  sortDir: pageInput.sortDir,
  fromDate: isoInstant.optional(),
  toDate: isoInstant.optional(),
  statuses: statusList,
  itemStatuses: statusList,
  sortBy: z.enum(['date', 'total']).default('date')
}

const datesInOrder = (q: { fromDate?: string | undefined; toDate?: string | undefined }) =>
  !q.fromDate || !q.toDate || Date.parse(q.fromDate) <= Date.parse(q.toDate)
const datesInOrderIssue = { message: 'The start date must be before the end date.', path: ['toDate'] }

export const orderListInput = z
  .object({ ...pageInput, ...orderFilterInput })
  .strict()
  .refine(datesInOrder, datesInOrderIssue)

/** The seller's IANA time zone ("Europe/Berlin"), as the renderer reads it from Intl. */
export const timeZoneInput = z.string().min(1).max(64, 'That is not a time zone name.')

export const orderExportInput = z
  .object({ ...orderFilterInput, timeZone: timeZoneInput })
  .strict()
  .refine(datesInOrder, datesInOrderIssue)

const textList = z.array(z.string().max(200)).max(200).optional()
const centsBound = z.number().int('Whole cents, please.').min(0, 'A price cannot be negative.').max(MAX_PRICE_CENTS).optional()
const quantityBound = z.number().int('A whole number, please.').min(0, 'A quantity cannot be negative.').max(MAX_QUANTITY).optional()

export const sellRequestListInput = z
  .object({
    ...pageInput,
    statuses: statusList,
    brands: textList,
    categories: textList,
    minPriceCents: centsBound,
    maxPriceCents: centsBound,
    /** Listings with at least / at most this many units (not the listing's own `minQuantity`). */
    quantityAtLeast: quantityBound,
    quantityAtMost: quantityBound,
    sortBy: z.enum(['updated', 'price', 'quantity', 'name']).default('updated')
  })
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

export const themeChoices = ['system', 'light', 'dark'] as const
export type ThemeChoice = (typeof themeChoices)[number]

/** An account to switch to or remove: the marketplace address (its key stays in the secret store). */
export const accountInput = z.object({ baseUrl: z.string().trim().min(1, 'Choose an account.').max(2048) }).strict()

/** App-wide settings: each field falls back to its default when missing or invalid. */
export const appSettingsSchema = z.object({
  syncIntervalMinutes: z.number().int().min(1).max(240).catch(5),
  historyDays: z.number().int().min(7).max(3650).catch(90),
  notifyNewOrders: z.boolean().catch(true),
  /** Listings with fewer units than this count as low on stock (dashboard). */
  lowStockThreshold: z.number().int().min(1).max(MAX_QUANTITY).catch(5),
  /** Light or dark look; 'system' follows the OS setting. */
  theme: z.enum(themeChoices).catch('system')
})
export type AppSettings = z.infer<typeof appSettingsSchema>

export const appSettingsUpdateInput = z
  .object({
    syncIntervalMinutes: z.number().int('Whole minutes, please.').min(1, 'At least 1 minute.').max(240, 'At most 240 minutes.'),
    historyDays: z.number().int('Whole days, please.').min(7, 'At least 7 days.').max(3650, 'At most 3650 days.'),
    notifyNewOrders: z.boolean(),
    lowStockThreshold: z.number().int('A whole number, please.').min(1, 'At least 1.').max(MAX_QUANTITY, 'At most 1,000,000.'),
    theme: z.enum(themeChoices, { error: 'Choose system, light or dark.' })
  })
  .partial()
  .strict()

/** Where the snapshot stands and whether the marketplace answers. */
/**
 * A list the last sync could not bring whole: the rows the snapshot holds against the marketplace's
 * total for it, after reading the list again.
 */
export interface SyncShortfall {
  resource: 'orders' | 'sellRequests'
  synced: number
  total: number
}

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
  /** Empty when the last completeness check of each list found every row the marketplace counts. */
  incomplete: SyncShortfall[]
}

/** A list page and where it came from. */
export interface ListResult<T> extends Page<T> {
  source: 'snapshot' | 'server'
  /** When the rows were last synced (snapshot), or now (server). */
  syncedAt: string | null
  /** Something the seller should know about this result (e.g. older orders need a connection). */
  note: string | null
}

/**
 * The orders a list matches (all pages) and the units of their items in each item status the list is
 * filtered by, counted as the dashboard counts them, so the two agree.
 */
export interface OrderItemUnits {
  orders: number
  units: { status: string; units: number }[]
}

/** A page of orders, with the item units of the whole list when it is filtered by item status (else null). */
export interface OrderListResult extends ListResult<Order> {
  itemUnits: OrderItemUnits | null
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

/** A marketplace account Seller Desk holds a key for (the demo is not one). */
export interface AccountSummary {
  baseUrl: string
  /** The marketplace's host, as shown to the seller. */
  label: string
  sellerId: string | null
  /** The account signed in now. */
  current: boolean
}

export interface AppInfo {
  name: string
  version: string
  platform: string
  /** Where the main side runs: the Electron app or the browser preview host. */
  runtime: 'electron' | 'preview'
}

/** A figure of orders over a range of instants (both ends included, like the Orders date filter). */
export interface OrderFigure {
  fromDate: string
  toDate: string
  orders: number
  revenueCents: number
}

/** The seller's workspace at a glance, from the snapshot, in the seller's time zone. */
export interface Dashboard {
  timeZone: string
  /** Today, local midnight to the end of the day. */
  today: OrderFigure
  /** The last 7 local days including today (the Orders list's "Last 7 days"). */
  week: OrderFigure
  /** Units of items in this status and the orders holding them. */
  awaitingShipment: { status: 'awaiting-shipment'; units: number; orders: number }
  readyToShip: { status: 'ready-to-ship'; units: number; orders: number }
  /** Listings with fewer than `threshold` units. */
  lowStock: { threshold: number; listings: number }
  /** One point per local day over the synced window, oldest first. */
  days: ({ date: string } & OrderFigure)[]
  /** When the synced window starts and when the snapshot was last synced (null before the first sync). */
  windowFrom: string | null
  syncedAt: string | null
}

/** A CSV file the renderer offers as a download. */
export interface CsvFile {
  fileName: string
  text: string
  orders: number
  rows: number
}

/** Views a seller can be looking at. */
export const workspaceViews = ['dashboard', 'orders', 'sellRequests', 'bulkEdit', 'settings'] as const
export type WorkspaceView = (typeof workspaceViews)[number]

const idList = z.array(z.string().max(200)).max(200)
const columnWidths = z
  .record(z.string().max(60), z.number().min(40).max(2000))
  .refine((widths) => Object.keys(widths).length <= 50, 'Too many columns.')
const listPreferences = {
  searchTerm: z.string().max(200).optional(),
  sortBy: z.string().max(40).optional(),
  sortDir: z.enum(['ASC', 'DESC']).optional(),
  take: z.number().int().min(1).max(200).optional(),
  columnWidths: columnWidths.optional()
}

/** How the seller left the workspace (per account): view, filters, sort, page size, column widths. */
export const workspacePreferencesSchema = z.object({
  view: z.enum(workspaceViews).optional(),
  orders: z
    .object({
      ...listPreferences,
      /** A preset is kept by name so "Today" is today again tomorrow. */
      datePreset: z.enum(['today', 'last7', 'last30', 'thisMonth']).optional(),
      fromDate: isoInstant.optional(),
      toDate: isoInstant.optional(),
      statuses: idList.optional(),
      itemStatuses: idList.optional()
    })
    .strict()
    .optional(),
  sellRequests: z
    .object({
      ...listPreferences,
      statuses: idList.optional(),
      brands: idList.optional(),
      categories: idList.optional(),
      minPriceCents: centsBound,
      maxPriceCents: centsBound,
      quantityAtLeast: quantityBound,
      quantityAtMost: quantityBound,
      /** The quantity range's names in preferences saved before `quantityAtLeast` / `quantityAtMost`: read when those are absent. */
      minQuantity: quantityBound,
      maxQuantity: quantityBound
    })
    .strict()
    .optional()
}).strict()
export type WorkspacePreferences = z.infer<typeof workspacePreferencesSchema>

// ── Bulk edit ──────────────────────────────────────────────────────────────────────────────────

/** The largest file `bulk.importFile` reads. */
export const BULK_IMPORT_MAX_BYTES = 20 * 1024 * 1024
/** The most changes one call may stage. */
export const BULK_MAX_CHANGES = 100_000
/** Applying more listings than this (or any change with a warning) needs the seller's confirmation. */
export const BULK_CONFIRM_LISTINGS = 50

/** A listing's field a bulk edit changes, by its descriptor's key (listingFields.ts): `priceCents` (in cents), `quantity`. */
export type BulkField = string

/** One pending change to one field of one listing. Invalid ones are never applied; warnings do not block. */
export interface StagedChange {
  sellRequestId: string
  field: BulkField
  /** The listing's value when staged. */
  before: number
  after: number
  /** The listing's `updatedAt` when staged: if it moved by the time of applying, the change is a conflict. */
  baseUpdatedAt: string
  /** Why this change cannot be applied, or null. */
  invalid: string | null
  /** Something to double-check (large price move, below the floor), or null. */
  warning: string | null
}

export interface StagedChangeView extends StagedChange {
  name: string
  sku: string
}

export interface ChangeSetSummary {
  changes: number
  /** Distinct listings with at least one change. */
  listings: number
  invalid: number
  warnings: number
  canUndo: boolean
  canRedo: boolean
}

export interface BulkPreview extends ChangeSetSummary {
  /** Listings with at least one valid change: what `bulk.apply` would send. */
  applicableListings: number
  applicableChanges: number
  /** Sum of (after − before) over valid quantity changes. */
  quantityDelta: number
  /** Average of (after − before) over valid price changes, in cents (0 when none). */
  averagePriceChangeCents: number
  /** Average relative price change in percent (0 when none). */
  averagePriceChangePercent: number
  /** `bulk.apply` must be called with `confirmed: true`. */
  needsConfirmation: boolean
  confirmationThreshold: number
}

export interface WarningRules {
  /** Warn when a price moves by more than this percentage. */
  priceChangePercent: number
  /** Warn when a new price falls below this, or null. */
  priceFloorCents: number | null
}

export type BatchRowStatus = 'pending' | 'applied' | 'failed' | 'conflict' | 'cancelled'

/** A batch of changes being (or having been) applied. */
export interface BatchStatus {
  id: string
  label: string
  createdAt: string
  startedAt: string | null
  finishedAt: string | null
  running: boolean
  total: number
  pending: number
  applied: number
  failed: number
  conflict: number
  cancelled: number
  /** Estimated time left while running, or null. */
  etaMs: number | null
  /** The batch this one undoes (it applied changes staged by "Undo batch" of that one), or null. */
  undoOf: { id: string; label: string; createdAt: string } | null
  /** When a later batch that undoes this one applied any of its changes, or null (not undone). */
  undoneAt: string | null
}

/** One change of a batch: a field of one listing, from its value before to the value sent. */
export interface BatchChange {
  sellRequestId: string
  sku: string
  name: string
  field: BulkField
  before: number
  after: number
}

export interface BatchRow extends BatchChange {
  status: BatchRowStatus
  /** The API's message (failed), what moved (conflict) or why cancelled; null when applied or pending. */
  message: string | null
  changedAt: string
}

export interface BulkStatus {
  changeSet: ChangeSetSummary
  rules: WarningRules
  /** The batch being applied now. */
  running: BatchStatus | null
  /** A batch with changes not yet sent (e.g. the app was closed mid-apply): offer `bulk.resume`. */
  pendingBatch: BatchStatus | null
}

export interface ImportProblem {
  /** The row in the file (the header is row 1). */
  row: number
  message: string
}

export interface ImportReport {
  fileName: string
  format: 'csv' | 'xlsx'
  /** Data rows read (the header excluded, blank rows skipped). */
  rows: number
  /** Changes staged from the file, each one changing what is staged (rows with problems stage nothing). */
  staged: number
  /** Rows that change nothing: their values are the listing's current ones or the pending ones. */
  unchanged: number
  /** Of `staged`, the changes that replace a pending change to the same cell with the file's value. */
  replaced: number
  /** Pending changes kept where the file has the listing's current value (an import never removes one). */
  kept: number
  /** The first problems found, by row. */
  problems: ImportProblem[]
  /** Problems beyond those listed. */
  moreProblems: number
  changeSet: ChangeSetSummary
}

export interface ExportedFile {
  fileName: string
  mimeType: string
  base64: string
  /** Data rows written (one per listing), the header excluded. */
  rows: number
}

/**
 * One listing as the bulk-edit grid shows it: the snapshot's current values plus the properties a
 * seller filters by, then each editable field's value. A tuple, not an object, because the grid loads
 * every listing at once (100,000 rows cross the bridge in a few MB instead of tens); read it only
 * through `gridRow` (gridRow.ts), which knows the positions.
 */
export type GridListingRow = [
  id: string,
  name: string,
  sku: string,
  brand: string,
  grade: string,
  color: string,
  storage: string,
  carrier: string,
  /** In words, as the grid shows it ("Open"; see plainWords). */
  status: string,
  updatedAt: string,
  /** One per editable field, in the order of the field list (listingFields.ts). */
  ...values: number[]
]

/** A pending change as the grid marks it: the cell's new value, why it cannot be applied, what to double-check. */
export type StagedCell = [sellRequestId: string, field: BulkField, after: number, invalid: string | null, warning: string | null]

/**
 * The change set after a call that changed it: the counts, and the grid's cell marks that changed,
 * sent with the answer so the grid is marked without asking again. Only the cells the call touched
 * (a one-cell edit with 10,000 changes staged sends one mark, not 10,000), unless `whole`.
 */
export interface ChangeSetState {
  summary: ChangeSetSummary
  /** The marks of the touched cells still staged; with `whole`, of every staged cell (replacing all marks). */
  cells: StagedCell[]
  /** Touched cells no longer staged: their marks go (empty with `whole`). */
  cleared: [sellRequestId: string, field: BulkField][]
  whole: boolean
}

const batchIdInput = z.guid('That is not a batch id.')

/** The Sell requests list's filter (search, statuses, brands, categories, price and quantity ranges), without paging or sort. */
export const sellRequestFilterInput = sellRequestListInput.pick({
  searchTerm: true, statuses: true, brands: true, categories: true, minPriceCents: true, maxPriceCents: true, quantityAtLeast: true, quantityAtMost: true
})
export type SellRequestFilter = z.infer<typeof sellRequestFilterInput>

/** Listings by id, every listing, or exactly the listings the Sell requests list shows with this filter. */
export const bulkSelectionInput = z.union([
  z.object({ ids: z.array(sellRequestIdInput).min(1, 'Select at least one listing.').max(BULK_MAX_CHANGES) }).strict(),
  z.object({ all: z.literal(true) }).strict(),
  z.object({ filter: sellRequestFilterInput }).strict()
])

/** A number for each editable field, by key (`priceCents`, `quantity`), any of them. */
const fieldValuesInput = Object.fromEntries(LISTING_FIELD_KEYS.map((key) => [key, z.number().optional()])) as Record<ListingFieldKey, z.ZodOptional<z.ZodNumber>>

/** Values are checked by the change set (the same rules as single edits) and marked invalid, not refused. */
export const bulkStageInput = z
  .object({
    changes: z
      .array(z.object({ sellRequestId: sellRequestIdInput, ...fieldValuesInput }).strict())
      .min(1)
      .max(BULK_MAX_CHANGES, `At most ${BULK_MAX_CHANGES.toLocaleString('en-US')} changes at a time.`)
  })
  .strict()

const percentInput = z
  .number({ error: 'Enter a percentage.' })
  .min(-100, 'A price cannot go down by more than 100%.')
  .max(1000, 'At most +1000%.')
  .refine((n) => Number.isInteger(Math.round(n * 100)) && Math.abs(n * 100 - Math.round(n * 100)) < 1e-9, 'At most two decimals.')

export const bulkOperationInput = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('setPrice'), priceCents: priceCentsInput }).strict(),
  z.object({ kind: z.literal('adjustPricePercent'), percent: percentInput }).strict(),
  z.object({ kind: z.literal('adjustPriceAmount'), amountCents: z.number().int('Whole cents, please.').min(-MAX_PRICE_CENTS).max(MAX_PRICE_CENTS) }).strict(),
  z.object({ kind: z.literal('setQuantity'), quantity: quantityInput }).strict(),
  z.object({ kind: z.literal('adjustQuantity'), delta: z.number().int('A whole number, please.').min(-MAX_QUANTITY).max(MAX_QUANTITY) }).strict()
])
export type BulkOperation = z.infer<typeof bulkOperationInput>

export const bulkRulesInput = z
  .object({
    priceChangePercent: z.number().min(1, 'At least 1%.').max(1000, 'At most 1000%.'),
    priceFloorCents: priceCentsInput.nullable()
  })
  .strict()

export const bulkImportInput = z
  .object({
    fileName: z.string().trim().min(1).max(255),
    base64: z
      .string()
      .max(Math.ceil(BULK_IMPORT_MAX_BYTES / 3) * 4, 'That file is larger than 20 MB. Split it into smaller files.')
      .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'The file content is not base64.')
  })
  .strict()

export const bulkExportInput = z
  .object({
    format: z.enum(['csv', 'xlsx']),
    rows: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('listings'), selection: bulkSelectionInput }).strict(),
      z.object({ kind: z.literal('failed'), batchId: batchIdInput }).strict()
    ])
  })
  .strict()

const batchInput = z.object({ batchId: batchIdInput }).strict()

/** The bulk-edit calls, spread into `calls`. */
const bulkCalls = {
  'bulk.stage': call<ChangeSetState>()(bulkStageInput),
  'bulk.operation': call<ChangeSetState>()(z.object({ selection: bulkSelectionInput, operation: bulkOperationInput }).strict()),
  'bulk.changes': call<Page<StagedChangeView>>()(
    z.object({ page: pageInput.page, take: pageInput.take, only: z.enum(['all', 'invalid', 'warnings']).default('all') }).strict()
  ),
  'bulk.preview': call<BulkPreview>()(noInput),
  'bulk.undo': call<ChangeSetState>()(noInput),
  'bulk.redo': call<ChangeSetState>()(noInput),
  'bulk.discard': call<ChangeSetState>()(noInput),
  'bulk.setRules': call<ChangeSetState>()(bulkRulesInput),
  'bulk.apply': call<BatchStatus>()(z.object({ confirmed: z.boolean().default(false) }).strict()),
  'bulk.cancel': call<BatchStatus>()(batchInput),
  'bulk.retryFailed': call<BatchStatus>()(batchInput),
  'bulk.resume': call<BatchStatus>()(batchInput),
  'bulk.status': call<BulkStatus>()(noInput),
  'bulk.history': call<BatchStatus[]>()(z.object({ limit: z.number().int().min(1).max(200).default(20) }).strict()),
  'bulk.batchRows': call<Page<BatchRow>>()(
    z.object({ batchId: batchIdInput, status: z.enum(['pending', 'applied', 'failed', 'conflict', 'cancelled']).optional(), page: pageInput.page, take: pageInput.take }).strict()
  ),
  'bulk.undoBatch': call<ChangeSetState>()(batchInput),
  'bulk.importFile': call<ImportReport>()(bulkImportInput),
  'bulk.exportFile': call<ExportedFile>()(bulkExportInput),
  /** Every listing of the snapshot, for the grid (sorting and filtering happen in the grid), and their version. */
  'bulk.gridRows': call<{ rows: GridListingRow[]; version: string }>()(noInput),
  /** Changes whenever any listing in the snapshot does: the grid reads its rows again only then. */
  'bulk.gridVersion': call<{ version: string }>()(noInput),
  /** Every pending change, for the grid to mark its cells. */
  'bulk.stagedCells': call<{ cells: StagedCell[] }>()(noInput)
} as const

export const calls = {
  'app.info': call<AppInfo>()(noInput),
  'session.get': call<SessionInfo>()(noInput),
  'session.signIn': call<SessionInfo>()(signInInput),
  'session.startDemo': call<SessionInfo>()(noInput),
  'session.signOut': call<SessionInfo>()(noInput),
  'accounts.list': call<{ accounts: AccountSummary[] }>()(noInput),
  /** Signs in to another saved account with its stored key. */
  'accounts.switch': call<SessionInfo>()(accountInput),
  /** Forgets an account and deletes its key; signs out when it is the current one. */
  'accounts.remove': call<SessionInfo>()(accountInput),
  'orders.list': call<OrderListResult>()(orderListInput),
  'sellRequests.list': call<ListResult<SellRequest>>()(sellRequestListInput),
  'filters.statuses': call<{ orders: string[]; orderItems: string[]; sellRequests: string[] }>()(noInput),
  'sync.status': call<SyncStatus>()(noInput),
  'sync.run': call<SyncStatus>()(z.object({ kind: z.enum(['auto', 'full']).default('auto') }).strict()),
  'sync.cancel': call<SyncStatus>()(noInput),
  'sync.windowFocused': call<SyncStatus>()(noInput),
  'settings.get': call<AppSettings>()(noInput),
  'settings.update': call<AppSettings>()(appSettingsUpdateInput),
  'sellRequests.edit': call<SellRequest>()(sellRequestEditInput),
  'sellRequests.delete': call<{ id: string }>()(z.object({ id: sellRequestIdInput }).strict()),
  'dashboard.get': call<Dashboard>()(z.object({ timeZone: timeZoneInput }).strict()),
  'orders.exportCsv': call<CsvFile>()(orderExportInput),
  'sellRequests.facets': call<{ brands: string[]; categories: string[] }>()(noInput),
  /** Opens an https page of an allow-listed carrier in the seller's default browser (refused otherwise). */
  'shell.openExternal': call<{ opened: boolean }>()(z.object({ url: z.string().min(1).max(2048) }).strict()),
  'preferences.get': call<WorkspacePreferences>()(noInput),
  'preferences.set': call<WorkspacePreferences>()(workspacePreferencesSchema),
  ...bulkCalls
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
  navigate: { view: WorkspaceView }
  'settings.changed': AppSettings
  /** Progress of the bulk-edit batch being applied (throttled), and its final state. */
  'bulk.progress': BatchStatus
  /** The core's worker stopped and a new one took over: what the renderer holds may be out of date. */
  'core.restarted': { message: string }
}
export type EventName = keyof Events
export const eventNames: EventName[] = ['session.changed', 'notice', 'sync.status', 'orders.new', 'navigate', 'settings.changed', 'bulk.progress', 'core.restarted']

/** The object preload exposes as `window.sellerDesk` and the preview bridge implements. */
export interface SellerDeskBridge {
  invoke<N extends CallName>(name: N, input: CallInput<N>): Promise<Outcome<CallResult<N>>>
  on<E extends EventName>(event: E, listener: (payload: Events[E]) => void): () => void
}

/** IPC channel names, derived, so main and preload cannot disagree. */
export const channelOf = (name: CallName) => `seller-desk:call:${name}`
export const eventChannelOf = (name: EventName) => `seller-desk:event:${name}`
