/**
 * Bulk edit in the browser preview, as a seller does it: paste a column from the clipboard, type a
 * value and drag the fill handle, undo, review, apply, read the result per change; change a selected
 * range at once; import a file with bad rows; export what the grid shows; resume a batch the app was
 * closed in the middle of. Expected values come from the marketplace's own state.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import Papa from 'papaparse'
import { accountKeyOf, type GridListingRow, type SessionInfo } from '../electron/shared/contract'
import { gridRow } from '../electron/shared/gridRow'
import { expect, test } from './fixtures'
import { marketplaceForEachTest } from './marketplace'
import { viaRouter } from './fromCore'
import { applyFromPreview, clickOnceIdle, signInTo, gridCell, gridPrice, openGrid, pasteIntoGrid as paste, GRID_COLUMN, openChangeMany } from './signedIn'
import { startPreviewHost, type PreviewHost } from '../electron/preview/host'
import { builtCoreWorkerFile } from '../electron/worker/coreHost'

const KEY = 'sk_live_bulk_e2e_7Qd2'
const sandbox = marketplaceForEachTest({ apiKey: KEY, orders: 20, sellRequests: 40, seed: 57 })

test.use({ locale: 'en-US', permissions: ['clipboard-read', 'clipboard-write'] })

const COLUMN = GRID_COLUMN

const cell = gridCell

/** Signs in to this spec's marketplace as a seller would; the first sync has finished. */
const signIn = (page: Page, host: PreviewHost) => signInTo(page, host, sandbox())

const server = (id: string) => sandbox().state.sellRequest(id)!

/** Applies from the open preview, ticking the extra confirmation when the preview asks for it. */

test('a name cell’s tooltip names its listing whole: the name, the SKU and the properties that tell listings of one product apart', async ({
  app: page,
  host
}) => {
  await signIn(page, host)
  const rows = await openGrid(page, host)
  const first = sandbox().state.sellRequest(gridRow.id(rows[0]!))!
  const nameCell = page.locator('revogr-data[type="rgRow"][col-type="colPinStart"] .rgCell[data-rgrow="0"]')
  await expect(nameCell).toHaveText(first.name)
  const title = (await nameCell.getAttribute('title')) ?? ''
  expect(title.startsWith(first.name)).toBe(true)
  expect(title).toContain(`SKU ${first.sku}`)
  for (const property of ['storage', 'color'] as const) if (first.properties?.[property]) expect(title).toContain(first.properties[property])
})

test('paste a column, fill down, undo, review and apply: a result per change, and the marketplace holds exactly the intended edits', async ({
  app: page,
  host
}) => {
  await signIn(page, host)
  const rows = await openGrid(page, host)
  const before = new Map(sandbox().state.sellRequests.map((s) => [s.id, { priceCents: s.priceCents, quantity: s.quantity }]))
  const summary = page.getByTestId('bulk-summary')

  // Paste a column of prices from a spreadsheet (with its trailing newline), one of them no price:
  // reported, and its cell marked with why.
  await paste(page, 0, COLUMN.price, '100.5\n101\nabc\n')
  await expect(summary).toHaveAttribute('data-changes', '2')
  await expect(cell(page, 0, COLUMN.price)).toHaveText('100.50')
  await expect(cell(page, 1, COLUMN.price)).toHaveText('101.00')
  await expect(cell(page, 2, COLUMN.price)).toHaveText(gridPrice(gridRow.value(rows[2]!, 'priceCents')))
  await expect(page.locator('.n-message')).toContainText(`1 cell was left unchanged, on ${gridRow.text(rows[2]!, 'sku')}: select it to see why.`)
  await expect(cell(page, 2, COLUMN.price)).toHaveAttribute('title', 'Left unchanged: Not a number: “abc”.')
  await expect(cell(page, 0, COLUMN.price)).toHaveAttribute('data-mark', /staged|warning/)

  // Type a quantity, then drag the fill handle three rows down: one undo step for the fill.
  await cell(page, 0, COLUMN.quantity).click()
  await page.keyboard.press('Enter')
  await page.locator('revogr-edit input').fill('7') // the cell editor, opened by Enter
  await page.keyboard.press('Enter')
  await expect(cell(page, 0, COLUMN.quantity)).toHaveText('7')
  await cell(page, 0, COLUMN.quantity).click()
  const handle = (await page.locator('.autofill-handle').boundingBox())!
  const target = (await cell(page, 3, COLUMN.quantity).boundingBox())!
  await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2)
  await page.mouse.down()
  await page.mouse.move(target.x + 10, target.y + target.height / 2, { steps: 6 })
  // Rest on the last row before letting go, as a hand does (the grid reads the range from the pointer's moves).
  await page.mouse.move(target.x + 12, target.y + target.height / 2)
  await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))')
  await page.mouse.up()
  for (const row of [1, 2, 3]) await expect(cell(page, row, COLUMN.quantity)).toHaveText('7')
  await expect(summary).toHaveAttribute('data-changes', '6')

  // Undo the fill with the keyboard; redo and undo with the toolbar.
  await page.keyboard.press('Control+z')
  await expect(summary).toHaveAttribute('data-changes', '3')
  for (const row of [1, 2, 3]) await expect(cell(page, row, COLUMN.quantity)).toHaveText(String(gridRow.value(rows[row]!, 'quantity')))
  await page.getByTestId('bulk-redo').click()
  await expect(summary).toHaveAttribute('data-changes', '6')
  await page.getByTestId('bulk-undo').click()
  await expect(summary).toHaveAttribute('data-changes', '3')
  await expect(cell(page, 0, COLUMN.quantity)).toHaveText('7')

  // Row 1's listing is deleted on the marketplace meanwhile: its change must fail with the reason.
  const [first, second] = [rows[0]!, rows[1]!]
  sandbox().state.deleteSellRequest(gridRow.id(second))

  await page.getByTestId('bulk-review').click()
  const preview = page.getByTestId('bulk-preview')
  await expect(preview.getByTestId('preview-listings')).toHaveText('2')
  await expect(preview.getByTestId('preview-changes')).toHaveText('3')
  // Signed as the price totals are: a real minus sign, not a hyphen.
  const quantityDelta = 7 - gridRow.value(first, 'quantity')
  await expect(preview.getByTestId('preview-quantity-delta')).toHaveText(
    `${quantityDelta > 0 ? '+' : quantityDelta < 0 ? '\u2212' : ''}${Math.abs(quantityDelta).toLocaleString('en-US')}`
  )
  await applyFromPreview(page)

  const panel = page.getByTestId('batch-panel')
  await expect(panel).toHaveAttribute('data-running', 'false', { timeout: 20_000 })
  await expect(panel.getByTestId('batch-summary')).toHaveText('2 applied, 1 failed.')
  await expect(panel.getByTestId('batch-results')).toContainText(gridRow.text(second, 'name'))
  await expect(panel.getByTestId('batch-row-status').first()).toHaveText('Failed')

  // The marketplace: the first listing has both edits, every other listing is as it was.
  expect(server(gridRow.id(first))).toMatchObject({ priceCents: 10050, quantity: 7 })
  for (const listing of sandbox().state.sellRequests) {
    if (listing.id === gridRow.id(first)) continue
    expect({ id: listing.id, priceCents: listing.priceCents, quantity: listing.quantity }).toEqual({ id: listing.id, ...before.get(listing.id) })
  }
  // The grid reads the applied values back: nothing pending, current price is the new one.
  await expect(summary).toHaveAttribute('data-changes', '0')
  await expect(cell(page, 0, COLUMN.priceNow)).toHaveText('100.50')

  // History keeps the batch; "Undo batch" stages the reverse for review.
  await page.getByTestId('bulk-history').click()
  await expect(page.getByTestId('history-batch')).toHaveCount(1)
  await clickOnceIdle(page.getByTestId('history-undo'))
  await expect(summary).toHaveAttribute('data-changes', '2')
  await expect(cell(page, 0, COLUMN.price)).toHaveText(gridPrice(gridRow.value(first, 'priceCents')))
  await expect(cell(page, 0, COLUMN.quantity)).toHaveText(String(gridRow.value(first, 'quantity')))
})

test('after Apply and after an applied Undo batch, the grid shows the applied values as soon as the batch answers, without a sync', async ({
  app: page,
  host
}) => {
  await signIn(page, host)
  const rows = await openGrid(page, host)
  const summary = page.getByTestId('bulk-summary')
  const panel = page.getByTestId('batch-panel')
  /** The grid's current and new values for the first 12 rows equal the marketplace's. */
  const gridShowsMarketplace = async () => {
    for (let i = 0; i < 12; i++) {
      const listing = server(gridRow.id(rows[i]!))
      const price = gridPrice(listing.priceCents)
      await expect(cell(page, i, COLUMN.priceNow)).toHaveText(price, { timeout: 3_000 })
      await expect(cell(page, i, COLUMN.price)).toHaveText(price, { timeout: 3_000 })
      await expect(cell(page, i, COLUMN.quantityNow)).toHaveText(String(listing.quantity), { timeout: 3_000 })
    }
  }
  /**
   * Applies what is staged while a read of the grid is under way as the batch ends: a listing changed
   * elsewhere makes the catch-up before the batch bring news (the grid reads its rows again), the
   * marketplace answers slowly and the marks of that read arrive late.
   */
  const applyAll = async () => {
    const other = rows[rows.length - 1]!
    sandbox().state.editSellRequest(gridRow.id(other), { quantity: server(gridRow.id(other)).quantity + 1 }, Date.now())
    sandbox().setFaults({ latencyMs: 300 })
    await page.route(/\/rpc\/bulk\.stagedCells$/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1_500))
      await route.continue()
    })
    await page.getByTestId('bulk-review').click()
    await applyFromPreview(page)
    await expect(panel).toHaveAttribute('data-running', 'false', { timeout: 20_000 })
    await expect(summary).toHaveAttribute('data-changes', '0')
    await page.unrouteAll({ behavior: 'wait' })
    sandbox().setFaults({ latencyMs: 0 })
  }

  // 17 changes: new prices on 12 listings (two pastes of 6), new quantities on 5 of them.
  const prices = rows.slice(0, 12).map((row, i) => ((gridRow.value(row, 'priceCents') + 111 * (i + 1)) / 100).toFixed(2))
  await paste(page, 0, COLUMN.price, prices.slice(0, 6).join('\n'))
  await paste(page, 6, COLUMN.price, prices.slice(6).join('\n'))
  await paste(
    page,
    0,
    COLUMN.quantity,
    rows
      .slice(0, 5)
      .map((row) => String(gridRow.value(row, 'quantity') + 3))
      .join('\n')
  )
  await expect(summary).toHaveAttribute('data-changes', '17')
  await applyAll()
  await expect(page.getByTestId('batch-summary')).toHaveText('17 applied.')
  rows.slice(0, 12).forEach((row, i) => expect(server(gridRow.id(row)).priceCents).toBe(gridRow.value(row, 'priceCents') + 111 * (i + 1)))
  await gridShowsMarketplace()

  // Undo batch stages the old values; applied, the grid shows them again.
  await page.getByTestId('bulk-history').click()
  await clickOnceIdle(page.getByTestId('history-undo').first())
  await expect(summary).toHaveAttribute('data-changes', '17')
  await applyAll()
  rows.slice(0, 12).forEach((row) => expect(server(gridRow.id(row)).priceCents).toBe(gridRow.value(row, 'priceCents')))
  await gridShowsMarketplace()

  // History names the undo after its batch, and the batch undone no longer offers its undo.
  await page.getByTestId('bulk-history').click()
  const batches = page.getByTestId('history-batch')
  await expect(batches).toHaveCount(2)
  await expect(batches.nth(0).getByTestId('history-label')).toHaveText('Undo of “12 prices and 5 quantities on 12 listings”')
  await expect(batches.nth(0).getByTestId('history-undo-of')).toContainText('Undoes the batch of')
  await expect(batches.nth(0).getByTestId('history-undo')).toBeVisible()
  await expect(batches.nth(1).getByTestId('history-undone')).toHaveText('Undone')
  await expect(batches.nth(1).getByTestId('history-undo')).toHaveCount(0)
})

test('change a selected range at once, with problems marked on the cells and kept from applying', async ({ app: page, host }) => {
  await signIn(page, host)
  const rows = await openGrid(page, host)

  await cell(page, 0, COLUMN.price).click()
  await cell(page, 4, COLUMN.price).click({ modifiers: ['Shift'] })
  const dialog = await openChangeMany(page, 'Adjust price by amount')
  await dialog.getByTestId('bulk-operation-value').locator('input').fill('abc')
  await expect(dialog.getByTestId('bulk-operation-error')).toContainText('Not a number: “abc”')
  await dialog.getByTestId('bulk-operation-value').locator('input').fill('-1.00')
  await expect(dialog.getByTestId('bulk-target-selected')).toContainText('5 listings')
  await dialog.getByTestId('bulk-operation-run').click()
  await expect(dialog).toBeHidden()
  for (let i = 0; i < 5; i++) await expect(cell(page, i, COLUMN.price)).toHaveText(gridPrice(gridRow.value(rows[i]!, 'priceCents') - 100))
  await expect(cell(page, 5, COLUMN.price)).toHaveText(gridPrice(gridRow.value(rows[5]!, 'priceCents')))

  // A quantity below zero is staged, marked with the reason, counted, and kept out of the apply.
  await paste(page, 6, COLUMN.quantity, '-4')
  await expect(cell(page, 6, COLUMN.quantity)).toHaveAttribute('data-mark', 'invalid')
  await expect(cell(page, 6, COLUMN.quantity)).toHaveAttribute('title', 'Quantity cannot be negative.')
  await expect(page.getByTestId('bulk-invalid-count')).toHaveText('1 with problems')
  await cell(page, 6, COLUMN.quantity).click()
  await expect(page.getByTestId('bulk-focus-text')).toContainText('Cannot be applied: Quantity cannot be negative.')

  // A price a hundred times the listing's is a move past the rule: marked, and its warning worded from the two prices.
  const was = gridRow.value(rows[7]!, 'priceCents')
  const hundredTimes = was * 100
  await paste(page, 7, COLUMN.price, (hundredTimes / 100).toFixed(2))
  const warned = cell(page, 7, COLUMN.price)
  await expect(warned).toHaveAttribute('data-mark', 'warning')
  const warning = `Price rises by 9,900% (from $${gridPrice(was)} to $${gridPrice(hundredTimes)}).`
  await expect(warned).toHaveAttribute('title', warning)
  await warned.click()
  await expect(page.getByTestId('bulk-focus-text')).toContainText(`Warning: ${warning}`)
  await page.keyboard.press('Delete')
  await expect(warned).not.toHaveAttribute('data-mark', /./)
  await page.getByTestId('bulk-review').click()
  const preview = page.getByTestId('bulk-preview')
  await expect(preview.getByTestId('preview-listings')).toHaveText('5')
  await expect(preview.getByTestId('preview-invalid-note')).toContainText('1 change has a problem')
  await expect(preview.getByTestId('preview-average-price')).toHaveText('−$1.00')
  // The percentages are averaged on their own (each listing's −$1.00 against its own price), under their own label.
  const percents = rows.slice(0, 5).map((row) => (-100 / gridRow.value(row, 'priceCents')) * 100)
  const averagePercent = Math.round((percents.reduce((sum, percent) => sum + percent, 0) / percents.length) * 100) / 100
  await expect(preview.getByTestId('preview-average-percent')).toHaveText(`−${Math.abs(averagePercent)}%`)
  await expect(preview.getByTestId('preview-average-percent').locator('xpath=preceding-sibling::dt')).toHaveText('Average change in %')
})

test('import a semicolon CSV with bad rows: good rows staged, each bad row reported by number; export what the grid shows', async ({ app: page, host }) => {
  await signIn(page, host)
  const rows = await openGrid(page, host)
  const [a, b, c] = [rows[0]!, rows[1]!, rows[2]!]
  const csv = `\uFEFFSKU;Price;Quantity\n${gridRow.text(a, 'sku')};55.50;\nNO-SUCH-SKU;1;\n${gridRow.text(b, 'sku')};12.345;\n${gridRow.text(b, 'sku')};;-2\n${gridRow.text(c, 'sku')};9;99;\n`
  const picker = page.getByTestId('bulk-import-file')
  for (const type of ['.csv', '.tsv', '.txt', '.xlsx'])
    await expect(picker, `the picker offers ${type} files`).toHaveAttribute('accept', new RegExp(`(^|,)\\${type}(,|$)`))
  await picker.setInputFiles({ name: 'prices.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) })
  const report = page.getByTestId('import-report')
  await expect(report.getByTestId('import-summary')).toContainText('5 rows read: 1 row staged 1 change, 4 rows not used (below).')
  const problems = report.getByTestId('import-problem')
  await expect(problems.filter({ hasText: 'Row 3' })).toContainText('NO-SUCH-SKU')
  await expect(problems.filter({ hasText: 'Row 4' })).toContainText('12.345')
  await expect(problems.filter({ hasText: 'Row 5' })).toContainText('-2')
  await expect(problems.filter({ hasText: 'Row 6' })).toContainText('This row has 4 fields but the header has 3')
  await report.getByTestId('import-report-close').click()
  await expect(cell(page, 0, COLUMN.price)).toHaveText('55.50')
  await expect(cell(page, 1, COLUMN.price)).toHaveText(gridPrice(gridRow.value(b, 'priceCents')))

  const download = page.waitForEvent('download')
  await page.getByTestId('bulk-export').click()
  await page.locator('.n-dropdown-option').filter({ hasText: 'CSV' }).click()
  const file = await (await download).path()
  const parsed = Papa.parse<Record<string, string>>(readFileSync(file, 'utf8').replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: true })
  expect(parsed.data).toHaveLength(rows.length)
  expect(new Set(parsed.data.map((row) => row['id'] ?? row['Id'] ?? row['ID']))).toEqual(new Set(rows.map((row) => gridRow.id(row))))
})

test("importing the app's own export over pending changes keeps them and says so; a file value that replaces one is reported", async ({ app: page, host }) => {
  await signIn(page, host)
  const rows = await openGrid(page, host)
  const summary = page.getByTestId('bulk-summary')
  const report = page.getByTestId('import-report')

  // An export taken before anything is staged: every row holds the listing's current values.
  const download = page.waitForEvent('download')
  await page.getByTestId('bulk-export').click()
  await page.locator('.n-dropdown-option').filter({ hasText: 'XLSX' }).click()
  const exported = readFileSync(await (await download).path())

  const staged = ['100.50', '101.00', '102.25']
  await paste(page, 0, COLUMN.price, staged.join('\n'))
  await expect(summary).toHaveAttribute('data-changes', '3')

  await page
    .getByTestId('bulk-import-file')
    .setInputFiles({ name: 'sell-requests.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: exported })
  // The three rows whose pending change is kept change nothing either: every row is up to date.
  await expect(report.getByTestId('import-summary')).toContainText(`${rows.length} rows read, nothing staged: ${rows.length} rows already up to date.`)
  await expect(report.getByTestId('import-kept')).toHaveText('3 pending changes kept where the file has the listing’s current value.')
  await expect(report.getByTestId('import-replaced')).toHaveCount(0)
  await report.getByTestId('import-report-close').click()
  await expect(summary).toHaveAttribute('data-changes', '3')
  for (const [i, price] of staged.entries()) await expect(cell(page, i, COLUMN.price)).toHaveText(price)

  // A file that sets another value where a change is pending replaces it, and the report says so.
  const csv = `id,price\n${gridRow.id(rows[1]!)},55.55\n${gridRow.id(rows[5]!)},66.66\n`
  await page.getByTestId('bulk-import-file').setInputFiles({ name: 'prices.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) })
  await expect(report.getByTestId('import-summary')).toContainText('2 rows read: 2 rows staged 2 changes.')
  await expect(report.getByTestId('import-replaced')).toHaveText('1 pending change replaced by the file’s values.')
  await expect(report.getByTestId('import-kept')).toHaveCount(0)
  await report.getByTestId('import-report-close').click()
  await expect(summary).toHaveAttribute('data-changes', '4')
  await expect(cell(page, 0, COLUMN.price)).toHaveText('100.50')
  await expect(cell(page, 1, COLUMN.price)).toHaveText('55.55')
  await expect(cell(page, 2, COLUMN.price)).toHaveText('102.25')
  await expect(cell(page, 5, COLUMN.price)).toHaveText('66.66')
})

test('a batch interrupted by closing the app is offered at the next start, and resuming ends in the intended state', async ({ browser }) => {
  const userDataDir = mkdtempSync(join(tmpdir(), 'seller-desk-e2e-resume-'))
  const keychainService = `Seller Desk e2e resume ${process.pid}-${Date.now()}`
  try {
    // First run: stage +1 on every quantity and apply slowly; the app closes after the first few.
    let host = await startPreviewHost({
      userDataDir,
      keychainService,
      apiOptions: { retries: 1, backoffMs: 50, timeoutMs: 5_000 },
      coreWorkerFile: builtCoreWorkerFile()
    })
    let context = await browser.newContext({ locale: 'en-US' })
    let page = await context.newPage()
    await page.goto(host.url)
    await signIn(page, host)
    const rows = await openGrid(page, host)
    const raised = (row: GridListingRow) => server(gridRow.id(row)).quantity === gridRow.value(row, 'quantity') + 1
    const dialog = await openChangeMany(page, 'Add / subtract quantity')
    await dialog.getByTestId('bulk-operation-value').locator('input').fill('1')
    await dialog.getByTestId('bulk-target-shown').click()
    await dialog.getByTestId('bulk-operation-run').click()
    await expect(page.getByTestId('bulk-summary')).toHaveAttribute('data-changes', String(rows.length))
    // Slow enough that the batch (40 listings, 8 at a time) is far from done when the app closes, even on a busy machine.
    sandbox().setFaults({ latencyMs: 1_500 })
    await page.getByTestId('bulk-review').click()
    await applyFromPreview(page)
    await expect(page.getByTestId('batch-panel')).toHaveAttribute('data-running', 'true')
    await expect.poll(() => rows.filter(raised).length, { timeout: 10_000, intervals: [50] }).toBeGreaterThan(0)
    await context.close()
    await host.close()
    expect(rows.filter(raised).length).toBeLessThan(rows.length)

    // Next start: the same profile; the batch is offered, and resuming sends the rest exactly once.
    sandbox().setFaults({ latencyMs: 0 })
    host = await startPreviewHost({
      userDataDir,
      keychainService,
      apiOptions: { retries: 1, backoffMs: 50, timeoutMs: 5_000 },
      coreWorkerFile: builtCoreWorkerFile()
    })
    context = await browser.newContext({ locale: 'en-US' })
    page = await context.newPage()
    await page.goto(host.url)
    // Said as the app opens, before the page listened: the notice waits for it.
    await expect(page.getByText(/was interrupted: \d+ changes were not sent yet\. Open Bulk edit to resume\./)).toBeVisible()
    await page.getByTestId('nav-bulkEdit').click()
    const banner = page.getByTestId('resume-banner')
    await expect(banner).toContainText('not sent yet')
    await banner.getByTestId('resume-batch').click()
    await expect(page.getByTestId('batch-panel')).toHaveAttribute('data-running', 'false', { timeout: 20_000 })
    await expect(page.getByTestId('batch-summary')).toHaveText(`${rows.length} applied.`)
    for (const row of rows) expect(server(gridRow.id(row)).quantity).toBe(gridRow.value(row, 'quantity') + 1)
    await expect(banner).toBeHidden()
    await context.close()
    await host.close()
  } finally {
    rmSync(userDataDir, { recursive: true, force: true })
  }
})

test('a listing changed elsewhere reaches the open grid with the next sync', async ({ app: page, host }) => {
  await signIn(page, host)
  const rows = await openGrid(page, host)
  const first = rows[0]!
  sandbox().state.editSellRequest(gridRow.id(first), { priceCents: gridRow.value(first, 'priceCents') + 1234 }, Date.now())
  await page.keyboard.press('Control+r')
  await expect(cell(page, 0, COLUMN.priceNow)).toHaveText(gridPrice(gridRow.value(first, 'priceCents') + 1234))
  await expect(cell(page, 0, COLUMN.price)).toHaveText(gridPrice(gridRow.value(first, 'priceCents') + 1234))
})

test('a warned change keeps its words when a sync moves the listing’s price under it: judged and worded against the price it was staged on', async ({
  app: page,
  host
}) => {
  await signIn(page, host)
  const rows = await openGrid(page, host)
  const row = rows[1]!
  const was = gridRow.value(row, 'priceCents')
  const hundredTimes = was * 100
  await paste(page, 1, COLUMN.price, (hundredTimes / 100).toFixed(2))
  const warned = cell(page, 1, COLUMN.price)
  const words = `Price rises by 9,900% (from $${gridPrice(was)} to $${gridPrice(hundredTimes)}).`
  await expect(warned).toHaveAttribute('title', words)
  sandbox().state.editSellRequest(gridRow.id(row), { priceCents: was + 1234 }, Date.now())
  await page.keyboard.press('Control+r')
  await expect(cell(page, 1, COLUMN.priceNow)).toHaveText(gridPrice(was + 1234))
  await expect(warned).toHaveAttribute('data-mark', 'warning')
  await expect(warned).toHaveAttribute('title', words)
  await warned.click()
  await expect(page.getByTestId('bulk-focus-text')).toContainText(`Warning: ${words}`)
})

test('the grid takes keys and the clipboard only while it is the one in use', async ({ app: page, host }) => {
  await signIn(page, host)
  await openGrid(page, host)
  const summary = page.getByTestId('bulk-summary')
  const inGrid = () => page.evaluate(`!!document.activeElement?.closest('[data-testid="bulk-grid"]')`)
  /** Types into the focused cell as a seller does: the first key opens the cell's editor, the rest go into it. */
  const typeIntoCell = async (text: string) => {
    await page.keyboard.press(text[0]!)
    await expect(page.locator('revogr-edit input')).toBeFocused()
    await page.keyboard.type(text.slice(1))
    await page.keyboard.press('Enter')
  }
  const tabIntoGrid = async () => {
    for (let presses = 0; presses < 20 && !(await inGrid()); presses++) await page.keyboard.press('Tab')
    expect(await inGrid()).toBe(true)
    // The grid puts its focus frame on a cell once the keyboard arrives; a seller types after seeing it.
    await expect(page.locator('[data-testid="bulk-grid"] revogr-focus.focused-cell')).toHaveCount(1)
  }

  // Tabbing into the grid from its toolbar starts on the first row's new price: typing edits it.
  await page.getByTestId('bulk-change-many').focus()
  await tabIntoGrid()
  await typeIntoCell('12.5')
  await expect(cell(page, 0, COLUMN.price)).toHaveText('12.50')
  await expect(summary).toHaveAttribute('data-changes', '1')
  await page.keyboard.press('Control+z')
  await expect(summary).toHaveAttribute('data-changes', '0')

  await cell(page, 1, COLUMN.price).click()

  // Another section: typing and pasting reach its search box, not the hidden grid's focused cell.
  await page.keyboard.press('Control+3')
  const search = page.getByTestId('sell-requests-search')
  await search.click()
  await page.keyboard.type('12')
  await page.evaluate(`navigator.clipboard.writeText('34')`)
  await page.keyboard.press('Control+v')
  await expect(search).toHaveValue('1234')

  // A field in the grid's own view (the operation dialog) keeps its keys too.
  await page.keyboard.press('Control+4')
  await cell(page, 1, COLUMN.price).click()
  await page.getByTestId('bulk-change-many').click()
  const field = page.getByTestId('bulk-operation-value').locator('input')
  await field.click()
  await page.keyboard.type('5')
  await expect(field).toHaveValue(/5/)
  await page.keyboard.press('Escape')
  await expect(summary).toHaveAttribute('data-changes', '0')

  // Back in the grid, its keys and paste work as before.
  await paste(page, 1, COLUMN.price, '77.70')
  await expect(summary).toHaveAttribute('data-changes', '1')
  await expect(cell(page, 1, COLUMN.price)).toHaveText('77.70')

  // Escape hands the keyboard back to the page: typing then opens no cell editor, and Tab leaves the grid.
  await page.keyboard.press('Escape')
  await page.keyboard.type('9')
  await expect(page.locator('revogr-edit input')).toHaveCount(0)
  await page.keyboard.press('Tab')
  await expect(page.getByTestId('bulk-undo')).toBeFocused()
  await expect(summary).toHaveAttribute('data-changes', '1')

  // Tabbing back in (through the toolbar) goes on where the seller left: typing edits that cell again.
  await tabIntoGrid()
  await typeIntoCell('44.4')
  await expect(cell(page, 1, COLUMN.price)).toHaveText('44.40')
  await expect(summary).toHaveAttribute('data-changes', '1')
})

test('typing at machine speed right after a click: every key lands, in the cell it was typed into', async ({ app: page, host }) => {
  await signIn(page, host)
  const rows = await openGrid(page, host)
  const summary = page.getByTestId('bulk-summary')
  const stagedNow = async () => {
    const { rows } = await viaRouter<{ rows: { sellRequestId: string; field: string; after: number }[] }>(host, 'bulk.changes', {
      page: 1,
      take: 50,
      only: 'all'
    })
    return Object.fromEntries(rows.map((c) => [`${c.sellRequestId}:${c.field}`, c.after]))
  }

  // Click, then type at once: no key is lost before the cell's editor is ready.
  await cell(page, 0, COLUMN.price).click()
  await page.keyboard.type('900')
  await page.keyboard.press('Enter')
  await expect(summary).toHaveAttribute('data-changes', '1')
  await expect(cell(page, 0, COLUMN.price)).toHaveText('900.00')

  // Six cells in turn, click, type, Enter, without a pause: each value in its own cell, exactly.
  // Short values too: their Enter comes before the cell's editor exists.
  const typed: [row: number, column: 'price' | 'quantity', text: string][] = [
    [1, 'price', '930'],
    [2, 'quantity', '7'],
    [3, 'price', '40'],
    [4, 'quantity', '5'],
    [5, 'price', '12.75'],
    [6, 'quantity', '3']
  ]
  for (const [row, column, text] of typed) {
    await cell(page, row, COLUMN[column]).click()
    await page.keyboard.type(text)
    await page.keyboard.press('Enter')
  }
  await expect(summary).toHaveAttribute('data-changes', '7')
  const expected: Record<string, number> = { [`${gridRow.id(rows[0]!)}:priceCents`]: 90000 }
  for (const [row, column, text] of typed) {
    expected[`${gridRow.id(rows[row]!)}:${column === 'price' ? 'priceCents' : 'quantity'}`] = column === 'price' ? Math.round(Number(text) * 100) : Number(text)
  }
  await expect.poll(stagedNow).toEqual(expected)
  for (const [row, column, text] of typed) {
    await expect(cell(page, row, COLUMN[column])).toHaveText(column === 'price' ? gridPrice(Math.round(Number(text) * 100)) : text)
  }
})

test('staged changes stay with the account: closing asks nothing, and they are there after signing out and in, and after the app starts again', async ({
  browser
}) => {
  const userDataDir = mkdtempSync(join(tmpdir(), 'seller-desk-e2e-staged-'))
  const keychainService = `Seller Desk e2e staged ${process.pid}-${Date.now()}`
  const start = async () => {
    const host = await startPreviewHost({ userDataDir, keychainService, coreWorkerFile: builtCoreWorkerFile() })
    const context = await browser.newContext({ locale: 'en-US' })
    const page = await context.newPage()
    await page.goto(host.url)
    return { host, context, page }
  }
  try {
    let { host, context, page } = await start()
    await signIn(page, host)
    await openGrid(page, host)
    const summary = () => page.getByTestId('bulk-summary')
    await cell(page, 0, COLUMN.price).click()
    await page.keyboard.type('55.55')
    await page.keyboard.press('Enter')
    await expect(summary()).toHaveAttribute('data-changes', '1')

    // Closing the window asks nothing: nothing would be lost.
    expect(await page.evaluate(`!window.dispatchEvent(new Event('beforeunload', { cancelable: true }))`)).toBe(false)

    // Signing out asks only about the key (it is deleted) and says the staged changes stay; signing in
    // again finds the change still staged.
    await page.getByTestId('sign-out').click()
    await expect(page.getByRole('dialog')).toContainText('changes staged in Bulk edit, stay on this computer')
    await page.getByTestId('confirm-sign-out').click()
    await expect(page.getByTestId('api-key')).toBeVisible()
    await expect(page.locator('.n-dialog')).toHaveCount(0)
    await signIn(page, host)
    await openGrid(page, host)
    await expect(summary()).toHaveAttribute('data-changes', '1')
    await expect(cell(page, 0, COLUMN.price)).toHaveText('55.55')

    // The app ends and starts again on the same profile: still staged, still marked.
    await context.close()
    await host.close()
    ;({ host, context, page } = await start())
    await openGrid(page, host)
    await expect(summary()).toHaveAttribute('data-changes', '1')
    await expect(cell(page, 0, COLUMN.price)).toHaveText('55.55')
    await context.close()
    await host.close()
  } finally {
    rmSync(userDataDir, { recursive: true, force: true })
  }
})

test('a file that cannot be imported at all says why in a dialog that stays until closed, and stages nothing', async ({ app: page, host }) => {
  await signIn(page, host)
  const rows = await openGrid(page, host)
  const picker = page.getByTestId('bulk-import-file')
  const report = page.getByTestId('import-report')
  const failure = report.getByTestId('import-failure')

  await picker.setInputFiles({ name: 'empty.csv', mimeType: 'text/csv', buffer: Buffer.alloc(0) })
  await expect(report).toContainText('Could not import empty.csv')
  await expect(failure).toHaveText('The file is empty. Nothing was staged: fix the file and import it again.')
  await report.getByTestId('import-report-close').click()
  await expect(report).toBeHidden()

  // A CSV saved under a workbook's name.
  const csv = `sku,price\n${gridRow.text(rows[0]!, 'sku')},12.00\n`
  await picker.setInputFiles({ name: 'prices.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: Buffer.from(csv) })
  await expect(report).toContainText('Could not import prices.xlsx')
  await expect(failure).toContainText('This is not an Excel workbook (.xlsx), although its name says so.')
  await expect(page.getByTestId('bulk-summary')).toHaveAttribute('data-changes', '0')
  await page.keyboard.press('Escape')
  await expect(report).toBeHidden()
  await expect(cell(page, 0, COLUMN.price)).toHaveText(gridPrice(gridRow.value(rows[0]!, 'priceCents')))
})

test('a batch’s results opened from History and read slowly: "reading the results…" shows, with Close to leave without waiting', async ({
  app: page,
  host
}) => {
  await signIn(page, host)
  const rows = await openGrid(page, host)
  const account = accountKeyOf(await viaRouter<SessionInfo>(host, 'session.get', {}))
  await viaRouter(host, 'bulk.stage', { account, changes: [{ sellRequestId: gridRow.id(rows[0]!), quantity: 3 }] })
  await viaRouter(host, 'bulk.apply', { account, confirmed: true })
  const panel = page.getByTestId('batch-panel')
  await expect(panel).toHaveAttribute('data-results', 'true')
  await panel.getByTestId('batch-close').click()
  await expect(panel).toBeHidden()

  const openResults = async () => {
    await page.getByTestId('bulk-history').click()
    await page.getByTestId('history-batch').first().getByRole('button', { name: 'Results' }).click()
  }
  // Held: the words show, and Close is there to leave without waiting.
  let release = () => undefined as void
  const held = new Promise<void>((resolve) => (release = resolve))
  await page.route('**/rpc/bulk.batchRows', async (route) => {
    await held
    await route.continue().catch(() => undefined)
  })
  await openResults()
  await expect(panel.getByTestId('batch-progress-text')).toContainText('reading the results…')
  await expect(panel.getByTestId('batch-cancel')).toHaveCount(0)
  await panel.getByTestId('batch-close').click()
  await expect(panel).toBeHidden()
  release()
})
