/** Bulk edit: the change set, its operations, applying it in batches, import and export, and the grid. */
import { z } from 'zod'
import type { Page } from '../domain'
import { LISTING_FIELD_KEYS, type ListingFieldKey } from '../listingFieldKeys'
import { priceField, quantityField } from '../listingFields'
import { priceCentsInput, priceChangePercentInput, quantityCutPercentInput, quantityInput, sellRequestIdInput, warningPercentInput } from '../userInput'
import { call, noInput, pageInput } from './common'
import { checkedInOneLoop, isArrayOf } from '../checkedInOneLoop'
import { accountKeyInput } from './session'
export * from '../bulkEditBasics'
import type { WarningRules } from '../bulkEditBasics'
import { sellRequestFilterInput } from './sellRequests'
import { formatNumber } from '../formatCount'

/** The largest file `bulk.importFile` reads. */
export const BULK_IMPORT_MAX_BYTES = 20 * 1024 * 1024
/**
 * The files `bulk.importFile` reads, as a file picker's `accept`: workbooks, and text delimited by commas,
 * semicolons, tabs or bars, which spreadsheets and marketplaces save as .csv, .tsv or .txt (Excel's
 * "Text (Tab delimited)" and "Unicode Text", UTF-16, are .txt).
 */
export const BULK_IMPORT_ACCEPT = '.csv,.tsv,.txt,.xlsx,text/csv,text/tab-separated-values,text/plain'
/** The most changes one call may stage. */
export const BULK_MAX_CHANGES = 100_000
/** Applying more listings than this (or any change with a warning) needs the seller's confirmation. */
export const BULK_CONFIRM_LISTINGS = 50
/** The most grid rows one `bulk.gridRows` call reads: each page is one short step of the core. */
export const BULK_GRID_MAX_PAGE = 10_000

/** Where a page of the grid's rows starts in the grid's order, and how many rows it takes (default: the most). */
export const bulkGridPageInput = z
  .object({
    offset: z.number().int().min(0).max(100_000_000).default(0),
    limit: z
      .number()
      .int()
      .min(1)
      .max(BULK_GRID_MAX_PAGE, `A page of the grid holds at most ${formatNumber(BULK_GRID_MAX_PAGE)} rows.`)
      .default(BULK_GRID_MAX_PAGE)
  })
  .strict()

/** A page of the grid's rows, how many listings there are, and the listings' version the page was read at. */
export interface GridRowsPage {
  rows: GridListingRow[]
  total: number
  version: string
}

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
  /**
   * The last batch, while some of its changes did not apply (failed, conflict, cancelled) and the seller
   * has not put that note away: the grid says so, and shows those listings (`bulk.unappliedChanges`).
   * Null while a batch runs, and once a newer batch is queued.
   */
  unapplied: BatchStatus | null
}

/** A change of a batch that did not apply, as the grid notes it on its listing: the value it was to set, and why not. */
export type UnappliedChange = [
  sellRequestId: string,
  field: BulkField,
  status: Extract<BatchRowStatus, 'failed' | 'conflict' | 'cancelled'>,
  after: number,
  /** The marketplace's message (failed), what moved (conflict) or why cancelled. */
  message: string | null
]

/** A page (BULK_MARKS_PAGE at most) of a batch's changes that did not apply, by listing, and how many there are. */
export interface UnappliedChangesPage {
  total: number
  changes: UnappliedChange[]
}

export interface ImportProblem {
  /** The row in the file (the header is row 1). */
  row: number
  message: string
}

export interface ImportReport {
  fileName: string
  format: 'csv' | 'xlsx'
  /** A workbook of more than one sheet: the sheet the rows were read from (a hidden one never is); else null. */
  sheet: string | null
  /**
   * Data rows read (the header excluded, blank rows skipped). Each is counted once: `stagedRows` +
   * `unchanged` + `blankValues` + the rows with problems (`problems.length` + `moreProblems`) = `rows`.
   */
  rows: number
  /** Changes staged from the file, each one changing what is staged (rows with problems stage nothing). */
  staged: number
  /** Rows the staged changes came from (a row may stage a change to each field). */
  stagedRows: number
  /** Of `staged`, those with a warning (the field's rule: a large price move, a deep quantity cut…), to check before applying. */
  warnings: number
  /** Rows that change nothing: their values are the listing's current ones (a pending change there is kept) or the pending ones. */
  unchanged: number
  /** Rows naming a listing but with every value blank: nothing to change. */
  blankValues: number
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
  /** Data rows written (one per listing, or per order item), the header excluded. */
  rows: number
}

/**
 * One listing as the bulk-edit grid shows it: the snapshot's current values plus the properties a
 * seller filters by, then each editable field's value. A tuple, not an object, because the grid loads
 * every listing, page by page, across the bridge, and a tuple carries no key names on every row; read
 * it only through `gridRow` (gridRow.ts), which knows the positions.
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

/**
 * A pending change as the grid marks it: the cell's new value, why it cannot be applied, and, when it
 * deserves a second look, the listing's value the warning rules judged it against (null when it does
 * not). The grid words a warning from those two values with the field's descriptor (listingFields.ts)
 * as it shows the cell, so the marks of a 10,000-cell paste carry no 10,000 texts, and the words are
 * the change's own even after a sync has moved the listing's value since.
 */
export type StagedCell = [sellRequestId: string, field: BulkField, after: number, invalid: string | null, warnsFrom: number | null]

/**
 * The most marks one answer carries: the grid reads every mark in pages of this many (bulk.stagedCells),
 * and a change-set call whose marks would be more asks it to (`reread`). Each answer crosses the
 * window's thread (a copy, and text for the preview's bridge), so none may be large.
 */
export const BULK_MARKS_PAGE = 5_000

/** A page of every pending change's mark, as they were when the read began (its first page). */
export interface StagedCellsPage {
  /** Names this read: its later pages ask for it. */
  read: number
  total: number
  cells: StagedCell[]
}

/** The first page of a new read (no `read`), or a later page of the read named. */
export const stagedCellsPageInput = z
  .object({
    offset: z.number().int().min(0).max(100_000_000).default(0),
    read: z.number().int().positive().optional()
  })
  .strict()
  .refine((input) => input.offset === 0 || input.read !== undefined, 'A later page of the marks names its read.')

/**
 * The change set after a call that changed it: the counts, and the grid's cell marks that changed,
 * sent with the answer so the grid is marked without asking again. Only the cells the call touched
 * (a one-cell edit with 10,000 changes staged sends one mark, not 10,000), unless `whole`. With
 * `reread`, there were more than a page of marks to send: the grid reads them all (bulk.stagedCells).
 */
export interface ChangeSetState {
  summary: ChangeSetSummary
  /** The marks of the touched cells still staged; with `whole`, of every staged cell (replacing all marks). */
  cells: StagedCell[]
  /** Touched cells no longer staged: their marks go (empty with `whole`). */
  cleared: [sellRequestId: string, field: BulkField][]
  whole: boolean
  /** Every mark is to be read afresh with bulk.stagedCells (`cells` and `cleared` are empty). */
  reread?: true
  /**
   * bulk.stage's answer when the cells it was sent are the only ones touched: their marks by their
   * place among the cells sent, without ids or values (the grid holds both), so a paste of 10,000 cells
   * is answered in one small answer, not read again in pages. `cells` and `cleared` are empty then.
   */
  sent?: SentMarks
}

/**
 * The marks of the cells a bulk.stage call was sent. A cell's place: the changes in the order sent,
 * each change's fields in the order of the field list (listingFields.ts), those it gives a value or
 * null. A cell staged is staged at the value sent; unless named here, it has no problem.
 */
export interface SentMarks {
  /** Cells not staged (the listing's value, or taken back with null): their marks go. */
  unstaged: number[]
  /** Cells staged with a problem: why it cannot be applied, the value a warning was judged against (see StagedCell). */
  problems: [at: number, invalid: string | null, warnsFrom: number | null][]
}

const batchIdInput = z.guid('That is not a batch id.')

/** A sell request id as zod's guid() reads it (sellRequestIdInput). */
const isSellRequestId = (value: unknown) => typeof value === 'string' && z.regexes.guid.test(value)
/** Selected ids as zod reads them; the call checks them in one loop first (checkedInOneLoop). */
export const selectedIds = z.array(sellRequestIdInput).min(1, 'Select at least one listing.').max(BULK_MAX_CHANGES)

/** Listings by id, every listing, or exactly the listings the Sell requests list shows with this filter. */
export const bulkSelectionInput = z.union([
  z
    .object({
      ids: checkedInOneLoop(selectedIds, (ids) => isArrayOf(ids, isSellRequestId, 1, BULK_MAX_CHANGES))
    })
    .strict(),
  z.object({ all: z.literal(true) }).strict(),
  z.object({ filter: sellRequestFilterInput }).strict()
])

/**
 * A number for each editable field, by key (`priceCents`, `quantity`), any of them; `null` takes back the
 * field's pending change (the change set stages the listing's value as it holds it, which removes it).
 */
const fieldValuesInput = Object.fromEntries(LISTING_FIELD_KEYS.map((key) => [key, z.number().nullable().optional()])) as Record<
  ListingFieldKey,
  z.ZodOptional<z.ZodNullable<z.ZodNumber>>
>

/**
 * The account a call that changes the change set, or sends, retries or stops a batch, was made for (see
 * `accountKeyOf`): the core refuses the call, changing nothing, when another account is open, so a paste
 * (or an undo, an import, a retry…) in flight while the seller switches accounts never lands in the next
 * account's change set or batches.
 */
const forAccount = { account: accountKeyInput }

const LISTING_FIELD_KEY_SET = new Set<string>(LISTING_FIELD_KEYS)
/** Staged changes as zod reads them; the call checks them in one loop first (checkedInOneLoop). */
export const stageChanges = z
  .array(z.object({ sellRequestId: sellRequestIdInput, ...fieldValuesInput }).strict())
  .min(1)
  .max(BULK_MAX_CHANGES, `At most ${formatNumber(BULK_MAX_CHANGES)} changes at a time.`)

/** A change as stageChanges reads one: a plain object of an id and, for any editable field, a finite number or null. */
function isStageChange(change: unknown): boolean {
  if (typeof change !== 'object' || change === null || Array.isArray(change)) return false
  // Every key zod's strict object reads, inherited ones included.
  for (const key in change) {
    const value = (change as Record<string, unknown>)[key]
    if (key === 'sellRequestId') {
      if (!isSellRequestId(value)) return false
    } else if (!LISTING_FIELD_KEY_SET.has(key) || !(value === undefined || value === null || Number.isFinite(value))) return false
  }
  return 'sellRequestId' in change
}

/** Values are checked by the change set (the same rules as single edits) and marked invalid, not refused. */
export const bulkStageInput = z
  .object({
    ...forAccount,
    changes: checkedInOneLoop(stageChanges, (changes) => isArrayOf(changes, isStageChange, 1, BULK_MAX_CHANGES))
  })
  .strict()

/** Each value and change is checked by the rules in userInput.ts and the field descriptors (listingFields.ts). */
export const bulkOperationInput = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('setPrice'), priceCents: priceCentsInput }).strict(),
  z.object({ kind: z.literal('adjustPricePercent'), percent: priceChangePercentInput }).strict(),
  z.object({ kind: z.literal('adjustPriceAmount'), amountCents: priceField.changeRule }).strict(),
  z.object({ kind: z.literal('setQuantity'), quantity: quantityInput }).strict(),
  z.object({ kind: z.literal('adjustQuantity'), delta: quantityField.changeRule }).strict()
])
export type BulkOperation = z.infer<typeof bulkOperationInput>

export const bulkRulesInput = z
  .object({
    priceChangePercent: warningPercentInput,
    priceFloorCents: priceCentsInput.nullable(),
    quantityCutPercent: quantityCutPercentInput
  })
  .strict()

export const bulkImportInput = z
  .object({
    ...forAccount,
    fileName: z.string().trim().min(1).max(255),
    // As read from the disk: IPC and the preview's bridge (shared/callBody.ts) carry bytes as they are.
    bytes: z.instanceof(Uint8Array).refine((bytes) => bytes.byteLength <= BULK_IMPORT_MAX_BYTES, 'That file is larger than 20 MB. Split it into smaller files.')
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
const accountOnly = z.object(forAccount).strict()

export const bulkEditCalls = {
  // Calls that change the change set name their account (`forAccount`): refused when another is open.
  'bulk.stage': call<ChangeSetState>()(bulkStageInput),
  'bulk.operation': call<ChangeSetState>()(z.object({ ...forAccount, selection: bulkSelectionInput, operation: bulkOperationInput }).strict()),
  'bulk.changes': call<Page<StagedChangeView>>()(
    z.object({ page: pageInput.page, take: pageInput.take, only: z.enum(['all', 'invalid', 'warnings']).default('all') }).strict()
  ),
  'bulk.preview': call<BulkPreview>()(noInput),
  'bulk.undo': call<ChangeSetState>()(accountOnly),
  'bulk.redo': call<ChangeSetState>()(accountOnly),
  'bulk.discard': call<ChangeSetState>()(accountOnly),
  'bulk.setRules': call<ChangeSetState>()(bulkRulesInput.extend(forAccount)),
  /** Takes the valid pending changes out of the change set into a batch, and starts applying it. */
  'bulk.apply': call<BatchStatus>()(z.object({ ...forAccount, confirmed: z.boolean().default(false) }).strict()),
  // A batch belongs to one account (its snapshot): these name it too, refused when another is open, so
  // an answer read as the seller switches accounts is never shown as the next account's batches.
  'bulk.cancel': call<BatchStatus>()(batchInput.extend(forAccount)),
  'bulk.retryFailed': call<BatchStatus>()(batchInput.extend(forAccount)),
  'bulk.resume': call<BatchStatus>()(batchInput.extend(forAccount)),
  'bulk.status': call<BulkStatus>()(accountOnly),
  'bulk.history': call<BatchStatus[]>()(z.object({ ...forAccount, limit: z.number().int().min(1).max(200).default(20) }).strict()),
  'bulk.batchRows': call<Page<BatchRow>>()(
    z
      .object({
        ...forAccount,
        batchId: batchIdInput,
        status: z.enum(['pending', 'applied', 'failed', 'conflict', 'cancelled']).optional(),
        page: pageInput.page,
        take: pageInput.take
      })
      .strict()
  ),
  /** A page of a batch's changes that did not apply (see `BulkStatus.unapplied`), from `offset` in listing order. */
  'bulk.unappliedChanges': call<UnappliedChangesPage>()(batchInput.extend({ ...forAccount, offset: z.number().int().min(0).max(100_000_000).default(0) })),
  /** Puts away the note of a batch's changes that did not apply (they stay in History); a retry of the batch notes them again. */
  'bulk.dismissUnapplied': call<{ unapplied: BatchStatus | null }>()(batchInput.extend(forAccount)),
  'bulk.undoBatch': call<ChangeSetState>()(batchInput.extend(forAccount)),
  'bulk.importFile': call<ImportReport>()(bulkImportInput),
  'bulk.exportFile': call<ExportedFile>()(bulkExportInput),
  /**
   * A page of the snapshot's listings in the grid's order (name, then id), for the grid (which reads
   * every page, then sorts and filters itself), with how many there are and their version: a page read
   * at another version than the one before belongs to other listings.
   */
  'bulk.gridRows': call<GridRowsPage>()(bulkGridPageInput),
  /** Changes whenever any listing in the snapshot does: the grid reads its rows again only then. */
  'bulk.gridVersion': call<{ version: string }>()(noInput),
  /** Every pending change's mark, a page at a time, for the grid to mark its cells. */
  'bulk.stagedCells': call<StagedCellsPage>()(stagedCellsPageInput)
} as const
