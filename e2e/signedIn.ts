/**
 * What several specs do the same way: sign in to a marketplace the way a seller does (its address and
 * key, through the sign-in page) and wait for the first sync to finish; and find a cell of the bulk-edit
 * grid's scrolling part.
 */
import type { Page } from '@playwright/test'
import type { PreviewHost } from '../electron/preview/host'
import { syncFinishedAfter } from './fromCore'

export async function signInTo(page: Page, host: PreviewHost, marketplace: { baseUrl: string; apiKey: string }): Promise<void> {
  await page.getByTestId('base-url').fill(marketplace.baseUrl)
  await page.getByTestId('api-key').fill(marketplace.apiKey)
  await page.getByTestId('sign-in').click()
  await syncFinishedAfter(host, null)
}

/** A cell of the grid's scrolling (not pinned) part: row and column from 0. */
export const gridCell = (page: Page, row: number, col: number) =>
  page.locator(`revogr-data[type="rgRow"]:not([col-type="rowHeaders"]):not([col-type="colPinStart"]) .rgCell[data-rgrow="${row}"][data-rgcol="${col}"]`)
