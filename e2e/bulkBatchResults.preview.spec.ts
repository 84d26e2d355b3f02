/**
 * A batch's results panel, read in a narrow and a roomy window (the sizes sellers use), for a batch with
 * every kind of result (applied, failed with the marketplace's long reason, canceled): the batch's name
 * and counts on one line, the buttons together on one row, every listing's name and SKU whole, each
 * reason whole on a few lines, and nothing in a row lying over another cell. The failed changes are
 * offered as a file only when something failed: not for a batch whose only changes that did not apply
 * were canceled.
 */
import type { Page } from '@playwright/test'
import type { PreviewHost } from '../electron/preview/host'
import { gridRow } from '../electron/shared/gridRow'
import { expect, test } from './fixtures'
import { marketplaceForEachTest } from './marketplace'
import { layoutSettled } from './pageMeasures'
import { applyFromPreview, GRID_COLUMN, openGrid, pasteIntoGrid, signInTo } from './signedIn'

const KEY = 'sk_live_batchresults_e2e_3Hd6'
const LISTINGS = 40
const sandbox = marketplaceForEachTest({ apiKey: KEY, orders: 10, sellRequests: LISTINGS, seed: 31 })

test.use({ locale: 'en-US', permissions: ['clipboard-read', 'clipboard-write'] })
test.setTimeout(120_000)

/**
 * Stages a price a dollar up on every listing and applies it against a slow marketplace, canceled once
 * some are in (`errorRate`: the share of requests the marketplace answers with a server error).
 */
async function applyAndCancel(page: Page, host: PreviewHost, errorRate: number): Promise<void> {
  const rows = await openGrid(page, host)
  await pasteIntoGrid(page, 0, GRID_COLUMN.price, rows.map((row) => ((gridRow.value(row, 'priceCents') + 100) / 100).toFixed(2)).join('\n'))
  await expect(page.getByTestId('bulk-summary')).toHaveAttribute('data-changes', String(LISTINGS))
  sandbox().setFaults({ errorRate, faultSeed: 9, latencyMs: 400 })
  await page.getByTestId('bulk-review').click()
  await applyFromPreview(page)
  const panel = page.getByTestId('batch-panel')
  await expect(panel.getByTestId('batch-progress-text')).toContainText(/[1-9]\d* applied/, { timeout: 15_000 })
  await panel.getByTestId('batch-cancel').click()
  await expect(panel).toHaveAttribute('data-running', 'false', { timeout: 20_000 })
  sandbox().setFaults({ errorRate: 0, latencyMs: 0 })
  await expect(panel).toHaveAttribute('data-results', 'true')
}

/** How the panel's head and each result row lie (see the test's checks). */
const panelLayout = (page: Page) =>
  page.getByTestId('batch-panel').evaluate((panel) => {
    const head = panel.querySelector('[data-testid="batch-summary"]')!
    const buttonTops = [...panel.querySelectorAll('.head button')].map((button) => Math.round(button.getBoundingClientRect().top))
    const rows = [...panel.querySelectorAll('[data-testid="batch-results"] tbody tr')].map((row) => {
      const cells = [...row.querySelectorAll('td')]
      // Anything in a cell drawn past the cell's own box lies over its neighbour.
      const spills = cells.flatMap((cell) => {
        const box = cell.getBoundingClientRect()
        return [...cell.querySelectorAll('*')]
          .filter((el) => {
            const r = el.getBoundingClientRect()
            return r.width > 0 && (r.left < box.left - 1 || r.right > box.right + 1)
          })
          .map((el) => `${cell.getAttribute('data-col-key')}: ${(el.textContent ?? '').trim().slice(0, 30)}`)
      })
      const listing = row.querySelector('td[data-col-key="name"]')!
      // The reason's own element, or its column's cell where it has one.
      const reason = row.querySelector('[data-testid="batch-row-reason"], td[data-col-key="message"]')
      return {
        listing: (listing.textContent ?? '').trim(),
        listingCut: !!window.sdMeasure.cutBy(listing),
        resultCut: !!window.sdMeasure.cutBy(row.querySelector('td[data-col-key="status"]')!),
        reasonLines: reason ? window.sdMeasure.textLines(reason) : 0,
        spills
      }
    })
    return {
      headLines: window.sdMeasure.textLines(head),
      headCut: !!window.sdMeasure.cutBy(head.parentElement!),
      buttonRows: new Set(buttonTops).size,
      rows
    }
  })

test('a batch with applied, failed and canceled changes: its results read whole at 1024 and 1366 px, nothing overlapping', async ({ app: page, host }) => {
  await signInTo(page, host, sandbox())
  await page.setViewportSize({ width: 1024, height: 700 })
  await applyAndCancel(page, host, 0.4)
  const panel = page.getByTestId('batch-panel')
  await expect(panel.getByTestId('batch-summary')).toHaveText(/^\d+ applied, \d+ failed, \d+ canceled\.\s*$/)
  await panel.getByTestId('batch-filter-all').click()
  await expect(panel.getByTestId('batch-results').locator('tbody tr')).toHaveCount(LISTINGS)

  for (const [size, reasonLines] of [
    [{ width: 1024, height: 700 }, 3],
    [{ width: 1366, height: 768 }, 2]
  ] as const) {
    await page.setViewportSize(size)
    await layoutSettled(page.locator('section.bulk'))
    const name = `${size.width}×${size.height}`
    const layout = await panelLayout(page)
    expect(layout.headLines, `${name}: lines of the batch's counts`).toBe(1)
    expect(layout.headCut, `${name}: the batch's name and counts are cut`).toBe(false)
    expect(layout.buttonRows, `${name}: rows the panel's buttons take`).toBe(1)
    expect(layout.rows.some((row) => row.reasonLines > 0)).toBe(true)
    for (const row of layout.rows) {
      expect(row.listingCut, `${name}: the listing “${row.listing}” is cut`).toBe(false)
      expect(row.resultCut, `${name}: the result of “${row.listing}” is cut`).toBe(false)
      expect(row.reasonLines, `${name}: lines of the reason of “${row.listing}”`).toBeLessThanOrEqual(reasonLines)
      expect(row.spills, `${name}: what lies over a neighbouring cell in the row of “${row.listing}”`).toEqual([])
    }
  }

  // Something failed: the failed changes are offered as a file.
  const download = page.waitForEvent('download')
  await panel.getByTestId('batch-export-failed').click()
  expect((await download).suggestedFilename()).toMatch(/^failed-changes-.*\.csv$/)
})

test('a batch canceled part way, nothing failed: its results offer no file of failed changes, only to send the canceled ones', async ({ app: page, host }) => {
  await signInTo(page, host, sandbox())
  await applyAndCancel(page, host, 0)
  const panel = page.getByTestId('batch-panel')
  await expect(panel.getByTestId('batch-summary')).toHaveText(/^\d+ applied, \d+ canceled\.\s*$/)
  await expect(panel.getByTestId('batch-retry')).toHaveText('Send canceled')
  await expect(panel.getByTestId('batch-export-failed')).toHaveCount(0)
  await expect(panel.getByRole('button', { name: /export|xlsx/i })).toHaveCount(0)
})
