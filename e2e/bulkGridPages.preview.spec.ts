/**
 * Bulk edit shows its first rows before the last page of listings has arrived: the later
 * `bulk.gridRows` pages are held on the preview bridge, and the grid already shows the first rows, says
 * how far it is, takes an edit on a row it has, refuses a paste reaching rows it has not, and leaves
 * sorting and Change many for when every listing is in; released, every row is there, with the mark of a change staged on a row that came late.
 */
import type { Page, Route } from '@playwright/test'
import {
  accountKeyOf,
  BULK_GRID_FIRST_PAGE,
  BULK_MARKS_PAGE,
  type GridListingRow,
  type GridRowsPage,
  type SessionInfo,
  type StagedChangeView
} from '../electron/shared/contract'
import type { Page as ListPage } from '../electron/shared/domain'
import { priceField } from '../electron/shared/listingFields'
import { gridRow } from '../electron/shared/gridRow'
import { expect, test } from './fixtures'
import { marketplaceForEachTest } from './marketplace'
import { viaRouter } from './fromCore'
import { GRID_COLUMN, gridCell, gridPrice, signInTo, pasteIntoGrid as paste } from './signedIn'

const KEY = 'sk_live_grid_pages_e2e_4Tn8'
const LISTINGS = 3_000
const sandbox = marketplaceForEachTest({ apiKey: KEY, orders: 10, sellRequests: LISTINGS, seed: 63 })

test.use({ locale: 'en-US', permissions: ['clipboard-read', 'clipboard-write'] })

/** Grid columns of the scrolling (not pinned) part. */
const COLUMN = GRID_COLUMN

/** Holds every `bulk.gridRows` call past the first page until `release`; counts the pages asked for. */
async function holdLaterPages(page: Page) {
  let release = () => {}
  const released = new Promise<void>((resolve) => (release = resolve))
  const asked: number[] = []
  await page.route('**/rpc/bulk.gridRows', async (route: Route) => {
    const { offset = 0 } = (route.request().postDataJSON() ?? {}) as { offset?: number }
    asked.push(offset)
    if (offset > 0) await released
    await route.continue()
  })
  return { release, asked }
}

const scrollTo = (page: Page, row: number) =>
  page.locator('revo-grid').evaluate((grid, at) => (grid as unknown as { scrollToRow(row: number): Promise<void> }).scrollToRow(at), row)

async function everyRow(host: Parameters<typeof viaRouter>[0]): Promise<GridListingRow[]> {
  const rows: GridListingRow[] = []
  for (let offset = 0; ; offset += 10_000) {
    const page = await viaRouter<GridRowsPage>(host, 'bulk.gridRows', { offset, limit: 10_000 })
    rows.push(...page.rows)
    if (offset + 10_000 >= page.total) return rows
  }
}

test('the first rows show and take edits before the last page arrives; the rest fill in with their marks', async ({ app: page, host }) => {
  await signInTo(page, host, { baseUrl: sandbox().baseUrl, apiKey: KEY })
  const rows = await everyRow(host)
  expect(rows).toHaveLength(LISTINGS)
  // A change staged before the grid is opened (kept from an earlier session), on the last row by name.
  const last = rows.at(-1)!
  const account = accountKeyOf(await viaRouter<SessionInfo>(host, 'session.get', {}))
  await viaRouter(host, 'bulk.stage', { account, changes: [{ sellRequestId: gridRow.id(last), priceCents: gridRow.value(last, 'priceCents') + 1 }] })

  const pages = await holdLaterPages(page)
  await page.getByTestId('nav-bulkEdit').click()

  // The first rows are there while the second page is held.
  await expect(page.locator('revogr-data[col-type="colPinStart"] .rgCell[data-rgrow="0"]')).toHaveText(gridRow.text(rows[0]!, 'name'))
  const progress = page.getByTestId('bulk-load-progress')
  await expect(progress).toContainText(`Loading listings ${BULK_GRID_FIRST_PAGE.toLocaleString('en-US')} of ${LISTINGS.toLocaleString('en-US')}`)
  expect(pages.asked).toContain(BULK_GRID_FIRST_PAGE)
  await expect(page.locator('revo-grid')).toHaveAttribute('aria-rowcount', String(LISTINGS))

  // A row already read takes an edit.
  await gridCell(page, 0, COLUMN.price).click()
  await page.keyboard.type('123.45')
  await page.keyboard.press('Enter')
  await expect(gridCell(page, 0, COLUMN.price)).toHaveText('123.45')
  await expect(gridCell(page, 0, COLUMN.price)).toHaveAttribute('data-mark', /staged|warning/)
  await expect(page.getByTestId('bulk-summary')).toHaveAttribute('data-changes', '2')

  // A paste reaching rows not read yet stages nothing, and says why.
  const edge = BULK_GRID_FIRST_PAGE - 2
  await scrollTo(page, edge)
  await gridCell(page, edge, COLUMN.price).click()
  await page.evaluate(`navigator.clipboard.writeText(${JSON.stringify('10\n11\n12\n13\n')})`)
  await page.keyboard.press('Control+v')
  await expect(page.locator('.n-message')).toContainText('Your listings are still being read')
  await expect(page.getByTestId('bulk-summary')).toHaveAttribute('data-changes', '2')
  await expect(gridCell(page, edge, COLUMN.price)).not.toHaveAttribute('data-mark', /.+/)
  // A row not read yet shows no values: no price, and no quantity of 0 either.
  const unread = BULK_GRID_FIRST_PAGE + 1
  for (const column of [COLUMN.priceNow, COLUMN.price, COLUMN.quantityNow, COLUMN.quantity]) await expect(gridCell(page, unread, column)).toHaveText('')
  await scrollTo(page, 0)

  // Sorting waits for every listing: the header says so; Change many opens once they are in.
  await expect(page.locator('revogr-header .rgHeaderCell[title]').first()).toHaveAttribute('title', /every listing is read/)
  await page.getByTestId('bulk-change-many').click()
  await page.waitForTimeout(300)
  await expect(page.getByTestId('bulk-operation-dialog')).toHaveCount(0)
  await expect(progress).toBeVisible()

  pages.release()
  await expect(progress).toHaveCount(0)
  await expect(page.getByTestId('bulk-operation-dialog')).toBeVisible()
  await expect(page.getByTestId('bulk-operation-dialog')).toContainText(`Every row the filters show (${LISTINGS.toLocaleString('en-US')} listings)`)
  await page.keyboard.press('Escape')

  // Every row is in, the one that came last with the change staged on it before.
  await scrollTo(page, LISTINGS - 1)
  const lastPrice = gridCell(page, LISTINGS - 1, COLUMN.price)
  await expect(lastPrice).toHaveText(gridPrice(gridRow.value(last, 'priceCents') + 1))
  await expect(lastPrice).toHaveAttribute('data-mark', /staged|warning/)
  await expect(page.locator(`revogr-data[col-type="colPinStart"] .rgCell[data-rgrow="${LISTINGS - 1}"]`)).toHaveText(gridRow.text(last, 'name'))
})

test('an import staging more marks than one answer carries marks every cell it changed, and so do its undo and redo', async ({ app: page, host }) => {
  await signInTo(page, host, { baseUrl: sandbox().baseUrl, apiKey: KEY })
  const rows = await everyRow(host)
  await page.getByTestId('nav-bulkEdit').click()
  await expect(page.locator('revo-grid')).toHaveAttribute('aria-rowcount', String(LISTINGS))
  await expect(page.getByTestId('bulk-load-progress')).toHaveCount(0)
  const marksAsked: number[] = []
  await page.route('**/rpc/bulk.stagedCells', async (route: Route) => {
    marksAsked.push(((route.request().postDataJSON() ?? {}) as { offset?: number }).offset ?? 0)
    await route.continue()
  })

  // A new price and quantity for every listing: 6,000 changes, more marks than one page.
  const changes = 2 * LISTINGS
  expect(changes).toBeGreaterThan(BULK_MARKS_PAGE)
  const csv = `id,price,quantity\n${rows
    .map((row) => `${gridRow.id(row)},${((gridRow.value(row, 'priceCents') + 1) / 100).toFixed(2)},${gridRow.value(row, 'quantity') + 1}`)
    .join('\n')}\n`
  await page.getByTestId('bulk-import-file').setInputFiles({ name: 'everything.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) })
  const report = page.getByTestId('import-report')
  await expect(report.getByTestId('import-summary')).toContainText(
    `${LISTINGS.toLocaleString('en-US')} rows read: ${LISTINGS.toLocaleString('en-US')} rows staged ${changes.toLocaleString('en-US')} changes.`
  )
  await report.getByTestId('import-report-close').click()
  const summary = page.getByTestId('bulk-summary')
  await expect(summary).toHaveAttribute('data-changes', String(changes))
  expect(marksAsked).toEqual([0, BULK_MARKS_PAGE])

  const last = rows.at(-1)!
  const marked = async (staged: boolean) => {
    for (const at of [0, LISTINGS - 1]) {
      await scrollTo(page, at)
      for (const column of [COLUMN.price, COLUMN.quantity]) {
        if (staged) await expect(gridCell(page, at, column)).toHaveAttribute('data-mark', /staged|warning/)
        else await expect(gridCell(page, at, column)).not.toHaveAttribute('data-mark', /.+/)
      }
    }
  }
  await marked(true)
  await expect(gridCell(page, LISTINGS - 1, COLUMN.quantity)).toHaveText(String(gridRow.value(last, 'quantity') + 1))

  // Undo takes every mark away; redo's answer asks for the marks, which are read again in pages.
  await page.getByTestId('bulk-undo').click()
  await expect(summary).toHaveAttribute('data-changes', '0')
  await marked(false)
  marksAsked.length = 0
  await page.getByTestId('bulk-redo').click()
  await expect(summary).toHaveAttribute('data-changes', String(changes))
  await marked(true)
  expect(marksAsked).toEqual([0, BULK_MARKS_PAGE])
  await expect(gridCell(page, LISTINGS - 1, COLUMN.price)).toHaveText(gridPrice(gridRow.value(last, 'priceCents') + 1))
})

test('a paste of more cells than a page of marks is marked from its own answer: every cell it staged, none it did not', async ({ app: page, host }) => {
  await signInTo(page, host, { baseUrl: sandbox().baseUrl, apiKey: KEY })
  const rows = await everyRow(host)
  await page.getByTestId('nav-bulkEdit').click()
  await expect(page.locator('revo-grid')).toHaveAttribute('aria-rowcount', String(LISTINGS))
  await expect(page.getByTestId('bulk-load-progress')).toHaveCount(0)
  const marksAsked: number[] = []
  await page.route('**/rpc/bulk.stagedCells', async (route: Route) => {
    marksAsked.push(((route.request().postDataJSON() ?? {}) as { offset?: number }).offset ?? 0)
    await route.continue()
  })

  // Price and quantity for every listing (6,000 cells): the second row's price as it is (nothing
  // staged), the third row's quantity below 0 (staged, invalid).
  const price = (at: number) => gridRow.value(rows[at]!, 'priceCents') + (at === 1 ? 0 : 1)
  const quantity = (at: number) => (at === 2 ? -1 : gridRow.value(rows[at]!, 'quantity') + 1)
  expect(2 * LISTINGS).toBeGreaterThan(BULK_MARKS_PAGE)
  await paste(page, 0, COLUMN.price, rows.map((_, at) => `${(price(at) / 100).toFixed(2)}\t${quantity(at)}`).join('\n'))
  await expect(page.getByTestId('bulk-summary')).toHaveAttribute('data-changes', String(2 * LISTINGS - 1))

  await scrollTo(page, 0)
  await expect(gridCell(page, 0, COLUMN.price)).toHaveText(gridPrice(price(0)))
  await expect(gridCell(page, 0, COLUMN.price)).toHaveAttribute('data-mark', /staged|warning/)
  await expect(gridCell(page, 1, COLUMN.price)).not.toHaveAttribute('data-mark', /.+/)
  await expect(gridCell(page, 1, COLUMN.quantity)).toHaveAttribute('data-mark', /staged|warning/)
  await expect(gridCell(page, 2, COLUMN.quantity)).toHaveAttribute('data-mark', 'invalid')
  await expect(gridCell(page, 2, COLUMN.quantity)).toHaveAttribute('title', 'Quantity cannot be negative.')
  await scrollTo(page, LISTINGS - 1)
  await expect(gridCell(page, LISTINGS - 1, COLUMN.price)).toHaveText(gridPrice(price(LISTINGS - 1)))
  await expect(gridCell(page, LISTINGS - 1, COLUMN.quantity)).toHaveText(String(quantity(LISTINGS - 1)))
  for (const column of [COLUMN.price, COLUMN.quantity]) await expect(gridCell(page, LISTINGS - 1, column)).toHaveAttribute('data-mark', /staged|warning/)
  expect(marksAsked).toEqual([])
})

test('a paste of 2,000 prices, a request far larger than a small call’s, stages each one at its value on its row', async ({ app: page, host }) => {
  await signInTo(page, host, { baseUrl: sandbox().baseUrl, apiKey: KEY })
  const rows = await everyRow(host)
  await page.getByTestId('nav-bulkEdit').click()
  await expect(page.getByTestId('bulk-load-progress')).toHaveCount(0)
  const pasted = 2_000
  // Above every listing's price, so each pasted cell is a change.
  const cents = (i: number) => 900_000 + i
  await paste(page, 0, COLUMN.price, Array.from({ length: pasted }, (_, i) => (cents(i) / 100).toFixed(2)).join('\n'))
  await expect(page.getByTestId('bulk-summary')).toHaveAttribute('data-changes', String(pasted), { timeout: 15_000 })
  await expect(gridCell(page, 0, COLUMN.price)).toHaveText(gridPrice(cents(0)))
  await expect(gridCell(page, 0, COLUMN.price)).toHaveAttribute('data-mark', /staged|warning/)

  const staged = new Map<string, number>()
  for (let at = 1; staged.size < pasted; at++) {
    const answer = await viaRouter<ListPage<StagedChangeView>>(host, 'bulk.changes', { page: at, take: 200 })
    if (answer.rows.length === 0) break
    for (const change of answer.rows) if (change.field === priceField.key) staged.set(change.sellRequestId, change.after)
  }
  expect(staged.size).toBe(pasted)
  rows.slice(0, pasted).forEach((row, i) => expect(staged.get(gridRow.id(row))).toBe(cents(i)))
})
