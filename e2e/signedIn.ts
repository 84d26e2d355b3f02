/**
 * What several specs do the same way: sign in to a marketplace the way a seller does (its address and
 * key, through the sign-in page) and wait for the first sync to finish; open Sell requests with the
 * listings to pick from; find a cell of the bulk-edit grid's scrolling part, open the grid, paste into
 * it and open Change many; wait for a toast to be in place, and close it.
 */
import { expect, type Locator, type Page } from '@playwright/test'
import type { GridListingRow, ListResult } from '../electron/shared/contract'
import type { SellRequest } from '../electron/shared/domain'
import type { PreviewHost } from '../electron/preview/host'
import { syncFinishedAfter, viaRouter } from './fromCore'
import { animationsEnded } from './pageMeasures'

export async function signInTo(page: Page, host: PreviewHost, marketplace: { baseUrl: string; apiKey: string }): Promise<void> {
  await page.getByTestId('base-url').fill(marketplace.baseUrl)
  await page.getByTestId('api-key').fill(marketplace.apiKey)
  await page.getByTestId('sign-in').click()
  await syncFinishedAfter(host, null)
}

/** Opens Sell requests (once signed in); returns the first five listings, as the router lists them, to pick a target from. */
export async function openSellRequests(page: Page, host: PreviewHost): Promise<SellRequest[]> {
  await page.getByTestId('nav-sellRequests').click()
  return (await viaRouter<ListResult<SellRequest>>(host, 'sellRequests.list', { take: 5 })).rows
}

/** A price as the grid's price cells show it in the specs' locale (en-US): 129999 → "1,299.99". */
export const gridPrice = (cents: number) => (cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })

/** A price cell's text ("1,299.99") as a number of dollars. */
export const priceOfCell = (text: string | null) => Number((text ?? '').replace(/,/g, ''))

/** A cell of the grid's scrolling (not pinned) part: row and column from 0. */
export const gridCell = (page: Page, row: number, col: number) =>
  page.locator(`revogr-data[type="rgRow"]:not([col-type="rowHeaders"]):not([col-type="colPinStart"]) .rgCell[data-rgrow="${row}"][data-rgcol="${col}"]`)

/** The bulk-edit grid's scrolling (not pinned) columns, in order. */
export const GRID_COLUMN = { priceNow: 0, price: 1, quantityNow: 2, quantity: 3, sku: 4 } as const

/** Opens Bulk edit; returns the rows in the grid's order, as the snapshot has them. */
export async function openGrid(page: Page, host: PreviewHost): Promise<GridListingRow[]> {
  await page.getByTestId('nav-bulkEdit').click()
  await expect(gridCell(page, 0, GRID_COLUMN.price)).toBeVisible()
  return (await viaRouter<{ rows: GridListingRow[] }>(host, 'bulk.gridRows', {})).rows
}

/** Clicks the grid's cell at `row`, `col` (gridCell) and pastes `text` there, as Ctrl+V from a spreadsheet does. */
export async function pasteIntoGrid(page: Page, row: number, col: number, text: string): Promise<void> {
  await gridCell(page, row, col).click()
  await page.evaluate(`navigator.clipboard.writeText(${JSON.stringify(text)})`)
  await page.keyboard.press('Control+v')
}

/** Opens Change many on the operation named `kind` ("Add / subtract quantity", …); answers its dialog. */
export async function openChangeMany(page: Page, kind: string): Promise<Locator> {
  await page.getByTestId('bulk-change-many').click()
  const dialog = page.getByTestId('bulk-operation-dialog')
  await expect(dialog).toBeVisible()
  await dialog.getByTestId('bulk-operation-kind').click()
  await page.locator('.n-base-select-option').filter({ hasText: kind }).click()
  return dialog
}

/**
 * Clicks a button that spins while the store finishes a step (Apply, Undo batch: `bulk.busy`): spinning,
 * it takes no click, as a seller sees, so the click waits for it to stop. An apply's step ends after the
 * grid already shows its outcome (nothing pending, the batch's results): it reads the marks again.
 */
export async function clickOnceIdle(button: Locator): Promise<void> {
  await expect(button).not.toHaveClass(/n-button--loading/)
  await button.click()
}

/** Applies from the open Review, ticking its confirmation first when it asks for one; waits for the batch's panel (failing with what the app said when none shows). */
export async function applyFromPreview(page: Page): Promise<void> {
  const preview = page.getByTestId('bulk-preview')
  const apply = preview.getByTestId('bulk-preview-apply')
  // The Review has read what it reviews once its button counts the changes ("Apply " before): only
  // then is it known whether it asks for a confirmation.
  await expect(apply).toHaveText(/Apply \d/)
  if ((await preview.getByTestId('bulk-preview-confirm').count()) > 0) {
    await expect(apply).toBeDisabled()
    await preview.getByTestId('bulk-preview-confirm').click()
  }
  await clickOnceIdle(apply)
  // The batch starts and its panel shows; when it does not, the failure says what the app said instead.
  const started = await expect(page.getByTestId('batch-panel'))
    .toBeVisible({ timeout: 20_000 })
    .then(() => true)
    .catch(() => false)
  if (!started) {
    const toasts = await page.locator('.n-message').allInnerTexts()
    const button = `${(await apply.count()) ? await apply.innerText() : 'gone'} (${(await apply.count()) ? await apply.getAttribute('class') : ''})`
    throw new Error(`Apply started no batch in 20 s. Toasts: ${JSON.stringify(toasts)}; the Review's Apply: ${button}`)
  }
}

/**
 * Waits for `toast` (a `.n-message`) to show and for nothing on the page to move, so that its box is where
 * it stays: naive-ui expands it in, and a toast it replaces (one shows at a time) slides up and fades out
 * meanwhile, moving the new one with it; a drawer may be opening beside it. A busy machine draws these
 * out past their set lengths, so no fixed wait is enough.
 */
export async function toastInPlace(toast: Locator): Promise<void> {
  await expect(toast).toBeVisible()
  await animationsEnded(toast.page())
  await expect(toast).toBeVisible()
}

/** Closes the toast, unless it has already gone by itself (it closes on its own after its set duration, which a test's checks can outlast on a busy machine). */
export async function dismissToast(toast: Locator): Promise<void> {
  if (await toast.isVisible())
    await toast
      .locator('.n-message__close')
      .click({ timeout: 2_000 })
      .catch(() => undefined)
  await expect(toast).toBeHidden()
}
