/**
 * Changes that did not apply stay in sight in Bulk edit after the batch's panel is closed: the toolbar's
 * line counts them, "Show them" narrows the grid to their listings with each reason, and the line goes
 * once a retry applies them, once it is dismissed (also after a reload), or once a newer batch applies.
 * While a retry runs and ends, the batch's counts and filters always tell of the rows its table shows.
 * What did not apply is read from the marketplace's own state, not from the app.
 */
import type { Page } from '@playwright/test'
import type { GridListingRow } from '../electron/shared/contract'
import { gridRow } from '../electron/shared/gridRow'
import type { PreviewHost } from '../electron/preview/host'
import { expect, test } from './fixtures'
import { marketplaceForEachTest } from './marketplace'
import { applyFromPreview, GRID_COLUMN, gridCell, openGrid, pasteIntoGrid as paste, signInTo } from './signedIn'

const KEY = 'sk_live_unapplied_e2e_5Kp8'
const LISTINGS = 40
const sandbox = marketplaceForEachTest({ apiKey: KEY, orders: 10, sellRequests: LISTINGS, seed: 61 })

test.use({ locale: 'en-US', permissions: ['clipboard-read', 'clipboard-write'] })

const server = (row: GridListingRow) => sandbox().state.sellRequest(gridRow.id(row))!
/** The grid's scrolling columns while it shows the reasons: "Did not apply" comes after New qty. */
const SKU_WITH_REASONS = GRID_COLUMN.sku + 1

/** Signs in, opens the grid and pastes a price a dollar up on each of the first `count` rows; returns those rows. */
async function stagePriceRise(page: Page, host: PreviewHost, count: number): Promise<GridListingRow[]> {
  await signInTo(page, host, sandbox())
  const rows = (await openGrid(page, host)).slice(0, count)
  await paste(page, 0, GRID_COLUMN.price, rows.map((row) => ((gridRow.value(row, 'priceCents') + 100) / 100).toFixed(2)).join('\n'))
  await expect(page.getByTestId('bulk-summary')).toHaveAttribute('data-changes', String(count))
  return rows
}

/** Reviews and applies what is staged; waits for the batch to end. */
async function applyStaged(page: Page): Promise<void> {
  await page.getByTestId('bulk-review').click()
  await applyFromPreview(page)
  await expect(page.getByTestId('batch-panel')).toHaveAttribute('data-running', 'false', { timeout: 20_000 })
}

/** The SKUs of the rows the grid shows while narrowed to `count` listings, in its order. */
async function skusShown(page: Page, count: number): Promise<string[]> {
  const skus: string[] = []
  for (let row = 0; row < count; row++) skus.push((await gridCell(page, row, SKU_WITH_REASONS).innerText()).trim())
  return skus
}

test('refused changes stay in sight: the toolbar counts them, Show them narrows the grid to exactly their listings with each reason, Retry failed once the fault is gone puts the line away', async ({
  app: page,
  host
}) => {
  const rows = await stagePriceRise(page, host, 12)
  // The marketplace answers half its requests with a 500: some of the twelve prices are refused.
  sandbox().setFaults({ errorRate: 0.5, faultSeed: 9 })
  await applyStaged(page)
  sandbox().setFaults({ errorRate: 0 })
  const refused = rows.filter((row) => server(row).priceCents !== gridRow.value(row, 'priceCents') + 100)
  expect(refused.length).toBeGreaterThan(0)
  expect(refused.length).toBeLessThan(rows.length)

  // The batch's panel closed, the line stays.
  await page.getByTestId('batch-close').click()
  const line = page.getByTestId('unapplied-line')
  const changes = refused.length === 1 ? '1 change' : `${refused.length} changes`
  await expect(line.getByTestId('unapplied-text')).toHaveText(`${changes} did not apply in “12 prices on 12 listings”.`)
  await expect(page.getByTestId('bulk-row-count')).toHaveText(`${LISTINGS} listings`)

  // From the keyboard: exactly the refused listings, each with the marketplace's reason.
  await line.getByTestId('unapplied-show').focus()
  await page.keyboard.press('Enter')
  await expect(line.getByTestId('unapplied-show')).toHaveText('Show every listing')
  const listings = refused.length === 1 ? '1 listing' : `${refused.length} listings`
  await expect(line.getByTestId('unapplied-text')).toContainText(`the grid shows ${listings} they are for, with why in “Did not apply”`)
  await expect(page.getByTestId('bulk-row-count')).toHaveText(`${refused.length} of ${LISTINGS} listings shown`)
  await expect(page.locator('revogr-data[type="rgRow"][col-type="colPinStart"] .rgCell')).toHaveCount(refused.length)
  expect((await skusShown(page, refused.length)).sort()).toEqual(refused.map((row) => gridRow.text(row, 'sku')).sort())
  const reasons = page.getByTestId('unapplied-reason')
  await expect(reasons).toHaveCount(refused.length)
  for (let i = 0; i < refused.length; i++) {
    await expect(reasons.nth(i)).toHaveText(/^Price \$[\d,]+\.\d\d: .*marketplace/i)
    expect(await reasons.nth(i).getAttribute('title')).toBe(await reasons.nth(i).innerText())
  }

  // Retried with the fault gone: every price is in, the line goes and the grid shows every listing.
  await expect(line.getByTestId('unapplied-retry')).toHaveText('Retry failed')
  await line.getByTestId('unapplied-retry').click()
  await expect(page.getByTestId('batch-panel')).toHaveAttribute('data-running', 'false', { timeout: 20_000 })
  await expect(page.getByTestId('batch-summary')).toHaveText('12 applied.')
  await expect(line).toHaveCount(0)
  await expect(page.getByTestId('bulk-row-count')).toHaveText(`${LISTINGS} listings`)
  for (const row of rows) expect(server(row).priceCents).toBe(gridRow.value(row, 'priceCents') + 100)
})

test('a batch canceled part way, nothing failed: no “Retry failed” is offered; the canceled changes are, as “Send canceled”, and sending them applies them', async ({
  app: page,
  host
}) => {
  const rows = await stagePriceRise(page, host, LISTINGS)
  // Slow enough that the batch is far from done when the seller cancels it.
  sandbox().setFaults({ latencyMs: 400 })
  await page.getByTestId('bulk-review').click()
  await applyFromPreview(page)
  const panel = page.getByTestId('batch-panel')
  await expect(panel).toHaveAttribute('data-running', 'true')
  await expect(panel.getByTestId('batch-progress-text')).toContainText(/[1-9]\d* applied/, { timeout: 15_000 })
  await panel.getByTestId('batch-cancel').click()
  await expect(panel).toHaveAttribute('data-running', 'false', { timeout: 20_000 })
  sandbox().setFaults({ latencyMs: 0 })
  await expect(panel.getByTestId('batch-summary')).toHaveText(/^\d+ applied, \d+ canceled\.\s*$/)

  // Nothing failed: neither the panel nor the toolbar's line offers to retry failed changes.
  await expect(page.getByText('Retry failed')).toHaveCount(0)
  const retry = panel.getByTestId('batch-retry')
  await expect(retry).toHaveText('Send canceled')
  const canceled = rows.filter((row) => server(row).priceCents !== gridRow.value(row, 'priceCents') + 100).length
  await expect(retry).toHaveAttribute('title', `Send the ${canceled} changes canceled before sending`)
  const line = page.getByTestId('unapplied-line')
  await expect(line.getByTestId('unapplied-retry')).toHaveText('Send canceled')

  // Sent after all: every price is in.
  await retry.click()
  await expect(page.getByTestId('batch-summary')).toHaveText(`${LISTINGS} applied.`, { timeout: 20_000 })
  await expect(line).toHaveCount(0)
  for (const row of rows) expect(server(row).priceCents).toBe(gridRow.value(row, 'priceCents') + 100)
})

test('a change made elsewhere meanwhile is shown with what moved, offers no retry, and once dismissed stays away after a reload', async ({
  app: page,
  host
}) => {
  const rows = await stagePriceRise(page, host, 3)
  const moved = rows[1]!
  sandbox().state.editSellRequest(gridRow.id(moved), { priceCents: gridRow.value(moved, 'priceCents') + 7 }, Date.now())
  await applyStaged(page)
  await page.getByTestId('batch-close').click()

  const line = page.getByTestId('unapplied-line')
  await expect(line.getByTestId('unapplied-text')).toHaveText('1 change did not apply: changed elsewhere in “3 prices on 3 listings”.')
  // A conflict is staged again, not retried.
  await expect(line.getByTestId('unapplied-retry')).toHaveCount(0)
  await line.getByTestId('unapplied-show').click()
  await expect(page.getByTestId('unapplied-reason')).toHaveCount(1)
  expect(await skusShown(page, 1)).toEqual([gridRow.text(moved, 'sku')])
  await expect(page.getByTestId('unapplied-reason')).toContainText('Changed on the marketplace since you staged this')

  await line.getByTestId('unapplied-dismiss').click()
  await expect(line).toHaveCount(0)
  await expect(page.getByTestId('bulk-row-count')).toHaveText(`${LISTINGS} listings`)
  await page.reload()
  await page.getByTestId('nav-bulkEdit').click()
  await expect(gridCell(page, 0, GRID_COLUMN.price)).toBeVisible()
  await expect(page.getByTestId('bulk-row-count')).toHaveText(`${LISTINGS} listings`)
  await expect(line).toHaveCount(0)
})

test('a newer batch that applies puts away the line of the one before', async ({ app: page, host }) => {
  const rows = await stagePriceRise(page, host, 2)
  sandbox().state.editSellRequest(gridRow.id(rows[0]!), { quantity: gridRow.value(rows[0]!, 'quantity') + 1 }, Date.now())
  await applyStaged(page)
  const line = page.getByTestId('unapplied-line')
  await expect(line.getByTestId('unapplied-text')).toHaveAttribute('data-count', '1')

  await paste(page, 5, GRID_COLUMN.quantity, '9')
  await expect(page.getByTestId('bulk-summary')).toHaveAttribute('data-changes', '1')
  await applyStaged(page)
  await expect(page.getByTestId('batch-summary')).toHaveText('1 applied.')
  await expect(line).toHaveCount(0)
})

test('while Retry failed runs and ends, the batch’s counts and filters never tell of rows its table does not show', async ({ app: page, host }) => {
  await stagePriceRise(page, host, 12)
  sandbox().setFaults({ errorRate: 0.5, faultSeed: 9 })
  await applyStaged(page)
  const panel = page.getByTestId('batch-panel')
  await expect(panel.getByTestId('batch-filter-failed')).toHaveClass(/checked/)
  await expect(panel.getByTestId('batch-results').locator('tbody tr')).not.toHaveCount(0)

  // Every state of the panel the window draws, from the click on: the filter chosen, its count, and the
  // rows under it; or that it shows the batch running.
  await page.evaluate(() => {
    const seen: { filter: string; rows: number }[] = []
    const look = () => {
      const checked = document.querySelector('[data-testid="batch-panel"] .n-radio-button--checked')
      const table = document.querySelector('[data-testid="batch-results"]')
      const state = { filter: checked ? (checked.textContent ?? '').trim() : 'running', rows: table?.querySelectorAll('tbody tr').length ?? 0 }
      const last = seen.at(-1)
      if (!last || last.filter !== state.filter || last.rows !== state.rows) seen.push(state)
    }
    new MutationObserver(look).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true })
    ;(window as unknown as { panelStates: typeof seen }).panelStates = seen
  })
  const panelStates = () => page.evaluate(() => (window as unknown as { panelStates: { filter: string; rows: number }[] }).panelStates)
  // Still refusing some: the retry ends with changes failed again, shown under the Failed filter.
  sandbox().setFaults({ errorRate: 0.5, faultSeed: 4, latencyMs: 50 })
  await panel.getByTestId('batch-retry').click()
  await expect
    .poll(
      async () => {
        const states = await panelStates()
        const ran = states.findIndex((state) => state.filter === 'running')
        return ran >= 0 && states.slice(ran).some((state) => state.filter !== 'running' && state.rows > 0)
      },
      { timeout: 20_000 }
    )
    .toBe(true)
  await expect(page.getByTestId('unapplied-line')).toBeVisible()

  const states = (await panelStates()).filter((state) => state.filter !== 'running')
  const count = (filter: string) => Number(/\(([\d,]+)\)/.exec(filter)![1]!.replace(/,/g, ''))
  // The last state is the retry's outcome; none on the way showed a count over rows that were not there.
  expect(states.at(-1)!.filter).toMatch(/^Failed \(\d+\)$/)
  expect(count(states.at(-1)!.filter)).toBeGreaterThan(0)
  for (const state of states) expect(state.rows, state.filter).toBe(count(state.filter))
})
