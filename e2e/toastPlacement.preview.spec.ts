/**
 * Where toasts appear (issue 14, point 9): at the window sizes sellers use (1024×700, 1366×768,
 * 1920×1080), a real toast on every view (an orders export with the order drawer open and closed, a
 * price saved in Sell requests, a Bulk edit export, a full sync in Settings, Ctrl+R while the
 * marketplace is away on the Dashboard, pressed three times) reads at a glance (its words on two lines
 * at most, nothing cut or clipped, all in the window) and covers nothing a seller is using: not the
 * drawer (its title, close button and the actions in its content), not the search, the filters, the
 * toolbars, the sections' menu or Bulk edit's summary and grid, and no text or control of the page at all.
 * So do the toasts a paste in Bulk edit's grid raises: cells it could not read, and cells that landed nowhere.
 */
import type { Locator, Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { marketplaceForEachTest } from './marketplace'
import { layoutSettled } from './pageMeasures'
import { dismissToast, GRID_COLUMN, pasteIntoGrid, signInTo, toastInPlace } from './signedIn'

const KEY = 'sk_live_toasts_e2e_9Qm3'
const SIZES = [
  { width: 1024, height: 700 },
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 }
] as const
const sandbox = marketplaceForEachTest({ apiKey: KEY, orders: 120, sellRequests: 60, seed: 37 })

test.use({ timezoneId: 'UTC', locale: 'en-US', permissions: ['clipboard-read', 'clipboard-write'] })
test.setTimeout(180_000)

/** The toast saying `text`, once it is in place (toastInPlace). */
async function toastSaying(page: Page, text: string | RegExp): Promise<Locator> {
  const toast = page.locator('.n-message').filter({ hasText: text }).last()
  await toastInPlace(toast)
  await expectReadable(page, toast, String(text))
  return toast
}

/** A toast reads at a glance: its words on two lines at most, none cut, the whole toast in the window and not clipped by its lane. */
async function expectReadable(page: Page, toast: Locator, what: string) {
  const size = page.viewportSize()!
  const read = await toast.evaluate((el) => {
    const content = el.querySelector('.n-message__content')!
    const box = el.getBoundingClientRect()
    // The part of the toast its lane (any clipping ancestor) shows.
    let shown = { top: box.top, bottom: box.bottom, left: box.left, right: box.right }
    for (let parent = el.parentElement; parent; parent = parent.parentElement) {
      if (getComputedStyle(parent).overflow === 'visible') continue
      const r = parent.getBoundingClientRect()
      shown = {
        top: Math.max(shown.top, r.top),
        bottom: Math.min(shown.bottom, r.bottom),
        left: Math.max(shown.left, r.left),
        right: Math.min(shown.right, r.right)
      }
    }
    return {
      lines: window.sdMeasure.textLines(content),
      cut: content.scrollWidth > content.clientWidth + 1,
      box: { top: box.top, bottom: box.bottom, left: box.left, right: box.right },
      clipped: shown.top > box.top + 1 || shown.bottom < box.bottom - 1 || shown.left > box.left + 1 || shown.right < box.right - 1
    }
  })
  expect(read.lines, `${size.width}×${size.height}: lines of the toast "${what}"`).toBeLessThanOrEqual(2)
  expect(read.cut, `${size.width}×${size.height}: the toast "${what}" cuts its words`).toBe(false)
  expect(read.clipped, `${size.width}×${size.height}: the toast "${what}" is clipped by its lane`).toBe(false)
  expect(read.box.left, `${size.width}×${size.height}: the toast "${what}" starts left of the window`).toBeGreaterThanOrEqual(0)
  expect(read.box.top, `${size.width}×${size.height}: the toast "${what}" starts above the window`).toBeGreaterThanOrEqual(0)
  expect(read.box.right, `${size.width}×${size.height}: the toast "${what}" ends right of the window`).toBeLessThanOrEqual(size.width)
  expect(read.box.bottom, `${size.width}×${size.height}: the toast "${what}" ends below the window`).toBeLessThanOrEqual(size.height)
}

/**
 * What `toast` covers, read in one page call with the toast's box, so that both are of one moment (the
 * header's words change as a sync ages, and the toasts' strip beside them with them):
 * - which of `targets` it overlaps, counting of each only the part the page shows (its box within each
 *   scrolling frame around it: a list's row scrolled out of its table has a box above the table, where
 *   nothing of it shows) and only what is visible (rendered, not visibility: hidden, a box of some size);
 * - every text and control the page shows under it: text, buttons, inputs, links, images, canvases and
 *   grid cells that the browser would hit at a point the toast covers (so what a scrolling frame clips
 *   away does not count).
 * With `withinLane`, the toast's box is the part of it its lane shows where the lane clips it (a toast
 * its lane shows nothing of covers nothing).
 */
async function coverage(page: Page, toast: Locator, targets: Record<string, Locator>, withinLane: boolean): Promise<{ overlapped: string[]; under: string[] }> {
  const toastElement = await toast.elementHandle()
  const groups = await Promise.all(Object.entries(targets).map(async ([what, locator]) => ({ what, elements: await locator.elementHandles() })))
  try {
    return await page.evaluate(
      ([toastElement, groups, withinLane]) => {
        const r = (toastElement as Element).getBoundingClientRect()
        let [top, bottom] = [r.top, r.bottom]
        const lane = (toastElement as Element).closest('.n-message-container')
        if (withinLane && lane && getComputedStyle(lane).overflowY !== 'visible') {
          const l = lane.getBoundingClientRect()
          ;[top, bottom] = [Math.max(top, l.top), Math.min(bottom, l.bottom)]
        }
        if (bottom <= top) return { overlapped: [], under: [] }
        const toast = { x: r.left, y: top, width: r.width, height: bottom - top }

        const overlapped = groups
          .filter(({ elements }) =>
            (elements as Element[]).some((el) => {
              if (!el.checkVisibility() || getComputedStyle(el).visibility !== 'visible') return false
              const e = el.getBoundingClientRect()
              let [left, top, right, bottom] = [e.left, e.top, e.right, e.bottom]
              for (let parent = el.parentElement; parent; parent = parent.parentElement) {
                if (getComputedStyle(parent).overflow === 'visible') continue
                const p = parent.getBoundingClientRect()
                ;[left, top, right, bottom] = [Math.max(left, p.left), Math.max(top, p.top), Math.min(right, p.right), Math.min(bottom, p.bottom)]
              }
              return right > left && bottom > top && left < toast.x + toast.width && toast.x < right && top < toast.y + toast.height && toast.y < bottom
            })
          )
          .map(({ what }) => what)

        const inside = (r: DOMRect) =>
          r.width > 0 && r.height > 0 && r.left < toast.x + toast.width && toast.x < r.right && r.top < toast.y + toast.height && toast.y < r.bottom
        const found: string[] = []
        const check = (element: Element, r: DOMRect, what: string) => {
          if (element.closest('.n-message-container')) return
          // A point of the part the toast covers, inside the viewport.
          const x = Math.min(Math.max(r.left, toast.x), r.right, toast.x + toast.width) + 0.5
          const y = Math.min(Math.max(r.top, toast.y), r.bottom, toast.y + toast.height) + 0.5
          const xs = [x, (Math.max(r.left, toast.x) + Math.min(r.right, toast.x + toast.width)) / 2]
          const ys = [y, (Math.max(r.top, toast.y) + Math.min(r.bottom, toast.y + toast.height)) / 2]
          for (const px of xs)
            for (const py of ys) {
              if (document.elementsFromPoint(px, py).some((hit) => hit === element || element.contains(hit))) {
                found.push(`${what} at ${Math.round(r.left)},${Math.round(r.top)}`)
                return
              }
            }
        }
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const text = node.textContent?.trim()
          if (!text || !node.parentElement) continue
          const range = document.createRange()
          range.selectNodeContents(node)
          for (const r of range.getClientRects()) if (inside(r)) check(node.parentElement, r, `"${text.slice(0, 40)}"`)
        }
        for (const element of document.querySelectorAll(
          'button, input, textarea, select, a[href], [role="button"], [role="checkbox"], [role="switch"], img, canvas, .rgCell'
        )) {
          const r = element.getBoundingClientRect()
          if (inside(r))
            check(element, r, `${element.tagName.toLowerCase()}${element.getAttribute('data-testid') ? `[${element.getAttribute('data-testid')}]` : ''}`)
        }
        return { overlapped, under: [...new Set(found)] }
      },
      [toastElement, groups, withinLane] as const
    )
  } finally {
    await Promise.all([toastElement, ...groups.flatMap(({ elements }) => elements)].map((handle) => handle?.dispose()))
  }
}

/** The toast is clear of each of `targets` that the page shows, and covers no text or control (see coverage). */
async function expectCoversNothing(page: Page, toast: Locator, where: string, targets: Record<string, Locator>, { withinLane = false } = {}) {
  const { overlapped, under } = await coverage(page, toast, targets, withinLane)
  for (const what of Object.keys(targets)) expect(overlapped.includes(what), `${where}: the toast covers the ${what}`).toBe(false)
  expect(under, `${where}: what the toast covers`).toEqual([])
}

test('toasts at 1024, 1366 and 1920 cover nothing a seller is using, on every view, with the order drawer open or closed', async ({ app: page, host }) => {
  await signInTo(page, host, sandbox())

  // Orders, with an order open: its drawer (title, close, tracking actions), the search, the filters and the toolbar.
  await page.getByTestId('nav-orders').click()
  const ordersToolbar = {
    search: page.getByTestId('orders-search'),
    'date presets': page.locator('[data-testid^="orders-preset-"]'),
    'date range': page.getByTestId('orders-date-range'),
    'status filter': page.getByTestId('orders-status-filter'),
    'item status filter': page.getByTestId('orders-item-status-filter'),
    export: page.getByTestId('orders-export'),
    pager: page.getByTestId('orders-table').locator('.n-pagination')
  }
  for (const size of SIZES) {
    await page.setViewportSize(size)
    const name = `${size.width}×${size.height}`
    // An order that has shipped: its drawer holds tracking actions (copy, open the carrier's page).
    await page
      .getByTestId('order-row')
      .filter({ hasText: /shipped|delivered/i })
      .first()
      .click()
    const drawer = page.getByTestId('order-drawer')
    await expect(drawer).toBeVisible()
    // Measured where the drawer comes to rest: once its entrance (a slide in) has ended.
    const drawerPanel = page.locator('.n-drawer').filter({ has: drawer })
    await expect(drawerPanel).toBeVisible()
    await expect(drawerPanel).not.toHaveClass(/-transition-enter/)
    // The drawer leaves the list usable: an export from the toolbar says its result in a toast.
    await page.getByTestId('orders-export').dispatchEvent('click') // (at 1024 the drawer lies over the button)
    const toast = await toastSaying(page, 'Exported')
    await expectCoversNothing(page, toast, `${name}, drawer open`, {
      drawer: drawerPanel,
      'drawer title': drawer.locator('.n-drawer-header'),
      'drawer close button': drawer.locator('.n-drawer-header__close'),
      "drawer's actions": drawer.locator('button, a[href]'),
      ...ordersToolbar
    })
    await dismissToast(toast)
    await page.keyboard.press('Escape')
    await expect(drawer).toBeHidden()

    await page.getByTestId('orders-export').click()
    const closed = await toastSaying(page, 'Exported')
    await expectCoversNothing(page, closed, `${name}, orders`, { ...ordersToolbar, list: page.getByTestId('order-row') })
    await dismissToast(closed)
  }

  // Sell requests: a price saved in the table.
  await page.getByTestId('nav-sellRequests').click()
  for (const [i, size] of SIZES.entries()) {
    await page.setViewportSize(size)
    const name = `${size.width}×${size.height}, sell requests`
    const row = page.getByTestId('sell-request-row').nth(i)
    // A cent more than the listing's price: a change no warning rule stops.
    const price = Number(((await row.getByTestId('inline-price').textContent()) ?? '').replace(/[^\d.]/g, ''))
    await row.getByTestId('inline-price').click()
    await page.getByTestId('inline-price-input').fill((price + 0.01).toFixed(2))
    await page.getByTestId('inline-price-input').press('Enter')
    const toast = await toastSaying(page, 'Saved the price')
    await expectCoversNothing(page, toast, name, {
      search: page.getByTestId('sell-requests-search'),
      'price and quantity filters': page.locator('[data-testid^="sell-requests-price-filter"], [data-testid^="sell-requests-quantity-filter"]'),
      'status filter': page.getByTestId('sell-requests-status-filter'),
      'brand filter': page.getByTestId('sell-requests-brand-filter'),
      'category filter': page.getByTestId('sell-requests-category-filter'),
      rows: page.getByTestId('sell-request-row'),
      pager: page.getByTestId('sell-requests-table').locator('.n-pagination')
    })
    await dismissToast(toast)
  }

  // Bulk edit: its toolbar, summary and grid, after an export.
  await page.getByTestId('nav-bulkEdit').click()
  await expect(page.getByTestId('bulk-grid').locator('.rgCell').first()).toBeVisible()
  for (const size of SIZES) {
    await page.setViewportSize(size)
    const name = `${size.width}×${size.height}, bulk edit`
    await layoutSettled(page.locator('section.bulk'))
    const download = page.waitForEvent('download')
    await page.getByTestId('bulk-export').click()
    await page.locator('.n-dropdown-option').filter({ hasText: 'CSV' }).click()
    await download
    const toast = await toastSaying(page, 'Exported')
    await expectCoversNothing(page, toast, name, {
      toolbar: page.getByTestId('bulk-export').locator('xpath=..').locator('button'),
      'review & apply': page.getByTestId('bulk-review'),
      history: page.getByTestId('bulk-history'),
      summary: page.getByTestId('bulk-summary'),
      grid: page.getByTestId('bulk-grid')
    })
    await dismissToast(toast)
  }

  // Settings: a full sync's result.
  await page.getByTestId('nav-settings').click()
  for (const size of SIZES) {
    await page.setViewportSize(size)
    const name = `${size.width}×${size.height}, settings`
    await page.getByTestId('settings-full-resync').click()
    const toast = await toastSaying(page, 'Everything is synced again')
    await expectCoversNothing(page, toast, name, { 'sync settings': page.getByTestId('settings-sync') })
    await dismissToast(toast)
  }

  // Dashboard: Ctrl+R while the marketplace is away says why in a toast; pressed three times, the toasts
  // shown (with the offline banner, which pushes the menu down) still cover nothing, the menu included.
  await page.getByTestId('nav-dashboard').click()
  await sandbox().close()
  await page.getByTestId('sync-now').click()
  await expect(page.getByTestId('offline-banner')).toBeVisible()
  for (const size of SIZES) {
    await page.setViewportSize(size)
    const name = `${size.width}×${size.height}, dashboard`
    for (let i = 0; i < 3; i++) await page.keyboard.press('Control+r') // (Sync now itself is disabled offline, and says why in its title)
    await toastSaying(page, 'offline')
    // What shows of each toast: its box, within the lane it is shown in where the lane clips it.
    const toasts = page.locator('.n-message')
    expect(await toasts.count(), `${name}: toasts shown`).toBeGreaterThan(0)
    for (const toast of await toasts.all()) {
      await expectCoversNothing(
        page,
        toast,
        name,
        {
          menu: page.locator('[data-testid^="nav-"]'),
          figures: page.getByTestId('figure-value'),
          chart: page.getByTestId('dashboard-chart'),
          'sync now': page.getByTestId('sync-now'),
          'offline banner': page.getByTestId('offline-banner')
        },
        { withinLane: true }
      )
    }
    await expect(toasts).toHaveCount(0, { timeout: 15_000 }) // they go by themselves
  }
})

test('a paste’s toasts in Bulk edit at 1024, 1366 and 1920 (cells left unchanged, cells not used) read at a glance and cover nothing a seller uses next', async ({
  app: page,
  host
}) => {
  await signInTo(page, host, sandbox())
  await page.getByTestId('nav-bulkEdit').click()
  await expect(page.getByTestId('bulk-grid').locator('.rgCell').first()).toBeVisible()
  for (const [i, size] of SIZES.entries()) {
    await page.setViewportSize(size)
    const name = `${size.width}×${size.height}, bulk edit`
    await layoutSettled(page.locator('section.bulk'))
    const bulkView = {
      toolbar: page.getByTestId('bulk-export').locator('xpath=..').locator('button'),
      'undo, redo and discard': page.locator('[data-testid="bulk-undo"], [data-testid="bulk-redo"], [data-testid="bulk-discard"]'),
      'review & apply': page.getByTestId('bulk-review'),
      summary: page.getByTestId('bulk-summary'),
      grid: page.getByTestId('bulk-grid')
    }
    // Prices from a spreadsheet, some of them no number at all (one as long as a sentence).
    const row = 10 * i
    await pasteIntoGrid(page, row, GRID_COLUMN.price, ['12.50', 'abc', 'call the supplier about this one first', '1.2.3', '14'].join('\n'))
    const unchanged = await toastSaying(page, 'left unchanged')
    await expectCoversNothing(page, unchanged, `${name}, cells left unchanged`, bulkView)
    await dismissToast(unchanged)

    // Two columns pasted into New qty: the second falls on the SKU, which cannot be edited.
    await pasteIntoGrid(page, row + 6, GRID_COLUMN.quantity, '5\tX-1\n6\tX-2')
    const notUsed = await toastSaying(page, 'not used')
    await expectCoversNothing(page, notUsed, `${name}, cells not used`, bulkView)
    await dismissToast(notUsed)
  }
})
