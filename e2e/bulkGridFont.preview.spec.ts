/**
 * The bulk-edit grid draws its text in the app's font and sizes its columns from their titles as that
 * font draws them. In the narrowest window sellers use every column title is whole: at rest, and (the
 * name, the prices and quantities and the SKU) sorted with the filter button showing beside it; the SKU,
 * brand and grade stay in view without scrolling sideways. In a roomy window the brand and grade titles
 * are whole beside their buttons too. The columns fit themselves to the window as it is resized, keeping
 * the seller's sort and dragged widths. Only the sorted column keeps room for its buttons: the rest of
 * the room goes to the name, which in the narrowest window shows a watch's or a phone's model name whole.
 * Checked with the app's own font and with each font below forced on the page: a wider one (what
 * fontconfig draws where the usual one is missing) and the usual one, both installed on the machines
 * these tests run on (fc-list).
 */
import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { marketplaceForEachTest } from './marketplace'
import { animationsEnded, layoutSettled } from './pageMeasures'
import { openGrid, signInTo } from './signedIn'

const KEY = 'sk_live_gridfont_e2e_7Rw2'
const sandbox = marketplaceForEachTest({ apiKey: KEY, orders: 10, sellRequests: 60, seed: 31 })

test.use({ locale: 'en-US' })

/** The least the name column is given in the narrowest window, whatever the font. */
const NAME_LEAST_PX = 150
/** A name of the sandbox's listings the name column shows whole there. */
const WHOLE_NAME = 'Apple Watch Series 9'

const TITLES = ['Name', 'Price now', 'New price', 'Qty now', 'New qty', 'SKU', 'Brand', 'Grade', 'Color', 'Storage', 'Carrier', 'Status']

/** A header cell of the grid by its title (the pinned name's or a scrolling column's). */
const header = (page: Page, title: string) => page.locator('revogr-header .rgHeaderCell').filter({ hasText: new RegExp(`^\\s*${title}\\s*$`) })

/** The titles the grid's header shows now, each with whether its text is cut. */
const titlesShown = (page: Page) =>
  page.locator('revogr-header .rgHeaderCell').evaluateAll((cells) =>
    cells.map((cell) => {
      const content = cell.querySelector('.header-content') as HTMLElement
      return { title: (content.textContent ?? '').trim(), cut: content.scrollWidth > content.clientWidth, width: content.clientWidth }
    })
  )

/**
 * Every column's title (scrolling the grid sideways for those past its frame), then back to its start:
 * to its first scrolling column, as the name is pinned and scrolling to it leaves the rest where it is.
 */
async function everyTitle(page: Page): Promise<Map<string, { cut: boolean; width: number }>> {
  const seen = new Map<string, { cut: boolean; width: number }>()
  for (const prop of ['name', 'status', 'priceNow']) {
    await page
      .locator('revo-grid')
      .evaluate((grid, prop) => (grid as unknown as { scrollToColumnProp(prop: string): Promise<void> }).scrollToColumnProp(prop), prop)
    await layoutSettled(page.locator('[data-testid="bulk-grid"]'))
    for (const { title, ...fit } of await titlesShown(page)) seen.set(title, fit)
  }
  return seen
}

/** Whether the header lies within the frame of the grid's scrolling columns, as shown without scrolling sideways. */
const inFrame = (page: Page, title: string) =>
  header(page, title).evaluate((el) => {
    const frame = el.closest('revogr-viewport-scroll')!.getBoundingClientRect()
    const box = el.getBoundingClientRect()
    return box.left >= frame.left - 1 && box.right <= frame.right + 1
  })

/** Sorts by the column (a click on its title) and leaves the pointer on it, so its filter button shows: is the title then whole? */
async function wholeBesideButtons(page: Page, title: string): Promise<{ cut: boolean; sorted: boolean; filterShown: boolean }> {
  const cell = header(page, title)
  await expect(cell).toHaveClass(/sortable/)
  await cell.click()
  await expect(cell).toHaveClass(/\basc\b/)
  await animationsEnded(page)
  return cell.evaluate((el) => {
    const content = el.querySelector('.header-content') as HTMLElement
    const filter = el.querySelector('.rv-filter')
    return {
      cut: content.scrollWidth > content.clientWidth,
      sorted: !!el.querySelector('.sort-indicator i.asc'),
      filterShown: !!filter && filter.getBoundingClientRect().width > 0 && getComputedStyle(filter).visibility === 'visible'
    }
  })
}

for (const font of [null, 'DejaVu Sans', 'Liberation Sans'] as const) {
  const named = font ?? 'the app’s font'
  test(`in ${named}: every column title is whole at 1024 and 1366 px, beside its sort arrow and filter button too, and SKU, brand and grade are in view`, async ({
    app: page,
    host
  }) => {
    await page.setViewportSize({ width: 1024, height: 700 })
    await signInTo(page, host, sandbox())
    if (font) await page.addStyleTag({ content: `* { font-family: "${font}" !important; }` })
    await openGrid(page, host)
    await layoutSettled(page.locator('section.bulk'))

    // The grid draws in the font the rest of the app draws in.
    const fonts = await page.evaluate(() => ({
      app: getComputedStyle(document.querySelector('[data-testid="bulk-summary"]')!).fontFamily,
      header: getComputedStyle(document.querySelector('revogr-header .rgHeaderCell')!).fontFamily,
      cell: getComputedStyle(document.querySelector('revogr-data .rgCell')!).fontFamily
    }))
    expect(fonts.header, 'the grid header’s font').toBe(fonts.app)
    expect(fonts.cell, 'the grid cells’ font').toBe(fonts.app)

    for (const title of ['SKU', 'Brand', 'Grade']) expect(await inFrame(page, title), `1024: ${title} in view without scrolling sideways`).toBe(true)
    const name = await page
      .locator('revogr-data[col-type="colPinStart"] .rgCell')
      .filter({ hasText: WHOLE_NAME })
      .first()
      .evaluate((cell) => ({
        width: cell.getBoundingClientRect().width,
        cut: cell.scrollWidth > cell.clientWidth
      }))
    expect(name.width, '1024: the name column’s width').toBeGreaterThanOrEqual(NAME_LEAST_PX)
    expect(name.cut, `1024: “${WHOLE_NAME}” is cut (${name.width} px)`).toBe(false)
    const narrow = await everyTitle(page)
    expect([...narrow.keys()].sort()).toEqual([...TITLES].sort())
    for (const [title, fit] of narrow) expect(fit.cut, `1024: “${title}” is cut (${fit.width} px)`).toBe(false)
    for (const title of ['Name', 'Price now', 'New price', 'Qty now', 'New qty', 'SKU']) {
      const shown = await wholeBesideButtons(page, title)
      expect(shown, `1024: “${title}” sorted, its filter button showing`).toEqual({ cut: false, sorted: true, filterShown: true })
    }

    await page.setViewportSize({ width: 1366, height: 768 })
    await layoutSettled(page.locator('section.bulk'))
    for (const title of ['SKU', 'Brand', 'Grade']) expect(await inFrame(page, title), `1366: ${title} in view without scrolling sideways`).toBe(true)
    for (const [title, fit] of await everyTitle(page)) expect(fit.cut, `1366: “${title}” is cut (${fit.width} px)`).toBe(false)
    for (const title of ['Brand', 'Grade', 'New price']) {
      const shown = await wholeBesideButtons(page, title)
      expect(shown, `1366: “${title}” sorted, its filter button showing`).toEqual({ cut: false, sorted: true, filterShown: true })
    }
  })
}

test('the columns fit themselves to the window, and keep the sort and the width the seller dragged', async ({ app: page, host }) => {
  await page.setViewportSize({ width: 1366, height: 768 })
  await signInTo(page, host, sandbox())
  await openGrid(page, host)
  await layoutSettled(page.locator('section.bulk'))
  const qty = header(page, 'Qty now')
  await expect(qty).toHaveClass(/sortable/)
  await qty.click()
  await expect(qty).toHaveClass(/\basc\b/)
  // The sorted column takes room for its buttons from SKU's once the grid lays itself out again: the
  // drag comes after that, as a seller's would.
  await layoutSettled(page.locator('section.bulk'))
  // The SKU's column dragged wider by its edge.
  const sku = header(page, 'SKU')
  const before = (await sku.boundingBox())!
  await page.mouse.move(before.x + before.width - 2, before.y + before.height / 2)
  await page.mouse.down()
  await page.mouse.move(before.x + before.width + 60, before.y + before.height / 2, { steps: 5 })
  await page.mouse.up()
  const dragged = Math.round((await sku.boundingBox())!.width)
  expect(dragged).toBeGreaterThan(before.width + 40)

  for (const size of [
    { width: 1024, height: 700 },
    { width: 1100, height: 700 },
    { width: 1366, height: 768 }
  ]) {
    await page.setViewportSize(size)
    await layoutSettled(page.locator('section.bulk'))
    await expect(page.locator('revogr-header .rgHeaderCell.asc, revogr-header .rgHeaderCell.desc'), `${size.width}: the sorted column`).toHaveText('Qty now')
    expect(Math.round((await sku.boundingBox())!.width), `${size.width}: the SKU's dragged width`).toBe(dragged)
  }
  // The rows are still in the order of the sort: the next click on it sorts the other way.
  await qty.click()
  await expect(qty).toHaveClass(/\bdesc\b/)
})
