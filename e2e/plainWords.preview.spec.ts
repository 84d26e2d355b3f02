/**
 * What a seller sees in words, not codes (issue 14): statuses and shipping methods in the orders list,
 * the expanded row, the drawer, the grid and the exports; each order's units by item status, adding up
 * to the dashboard's figures; the drawer by shipment with what the shipping statuses mean; exports that
 * a spreadsheet opens with dates as dates and money as numbers, and a message after the grid export.
 * Screenshots (light and dark, 1366×768 and 1024×700) go to SCREENSHOT_DIR when it is set.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import Papa from 'papaparse'
import { listingsHeader } from '../electron/core/bulkEdit/exportFile'
import type { Dashboard, GridListingRow } from '../electron/shared/contract'
import type { Order } from '../electron/shared/domain'
import type { PreviewHost } from '../electron/preview/host'
import { expect, test } from './fixtures'
import { marketplaceForEachTest } from './marketplace'
import { numberIn, viaRouter, readSnapshot } from './fromCore'
import { signInTo } from './signedIn'

const KEY = 'sk_live_plain_words_e2e_4Tz8'
const TIME_ZONE = 'America/New_York'
const SCREENSHOT_DIR = process.env['SCREENSHOT_DIR']
const sandbox = marketplaceForEachTest({ apiKey: KEY, orders: 120, sellRequests: 40, seed: 44 })

test.use({ timezoneId: TIME_ZONE, locale: 'en-US' })

/** Signs in to this spec's marketplace as a seller would; the first sync has finished. */
const signIn = (page: Page, host: PreviewHost) => signInTo(page, host, sandbox())

async function screenshots(page: Page, name: string, show: () => Promise<void>) {
  if (!SCREENSHOT_DIR) return
  for (const [width, height] of [
    [1366, 768],
    [1024, 700]
  ] as const) {
    for (const scheme of ['light', 'dark'] as const) {
      await page.setViewportSize({ width, height })
      await page.emulateMedia({ colorScheme: scheme })
      await show()
      // The theme fades over a few hundred milliseconds: the picture is taken once it has settled.
      await page.waitForTimeout(800)
      await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-${width}x${height}-${scheme}.png`) })
    }
  }
  await page.emulateMedia({ colorScheme: 'light' })
}

const unitsByStatus = (order: Order) => {
  const units = new Map<string, number>()
  for (const item of order.items) units.set(item.status, (units.get(item.status) ?? 0) + item.quantity)
  return units
}

/** Item statuses whose words are not the code's own. */
const WORDS: Record<string, string> = { 'seller-shipped': 'shipped' }

/** Raw codes the marketplace sends that a seller must never see as such. */
const CODES = /payment-confirmed|awaiting-shipment|ready-to-ship|seller-shipped|PLATFORM_SHIPPING/

test('orders: each order’s units by item status in words, and a filtered list says the dashboard’s units', async ({ app: page, host }) => {
  await signIn(page, host)
  const dashboard = await viaRouter<Dashboard>(host, 'dashboard.get', { timeZone: TIME_ZONE })
  const { orders } = readSnapshot(host, (snapshot) => snapshot.dump())

  for (const figure of [
    { id: 'awaiting', ...dashboard.awaitingShipment, words: 'awaiting shipment' },
    { id: 'ready', ...dashboard.readyToShip, words: 'ready to ship' }
  ]) {
    await page.getByTestId('nav-dashboard').click()
    await page.getByTestId(`figure-${figure.id}`).getByRole('link').click()
    await expect.poll(() => numberIn(page, 'orders-total')).toBe(figure.orders)
    const line = page.getByTestId('orders-item-units')
    await expect(line).toContainText(`In these ${figure.orders} orders: ${figure.units.toLocaleString('en-US')} units ${figure.words}`)
    await expect(line.getByTestId('orders-item-status-help')).toBeVisible()
    // The same units, added up from what the rows say (all pages: the list at its largest page size).
    const listed = orders.filter((order) => order.items.some((item) => item.status === figure.status))
    expect(listed.reduce((sum, order) => sum + (unitsByStatus(order).get(figure.status) ?? 0), 0)).toBe(figure.units)
  }

  // Each row says its units per item status, in words, and they add up to the order's units.
  const rows = page.getByTestId('order-row')
  await expect(rows.first()).toBeVisible()
  for (let i = 0; i < Math.min(5, await rows.count()); i++) {
    const no = (await rows.nth(i).getByTestId('order-no').textContent())!
    const order = orders.find((o) => o.orderNo === no)!
    const cell = rows.nth(i).getByTestId('item-statuses')
    const expected = [...unitsByStatus(order)].map(([status, units]) => `${units} ${WORDS[status] ?? status.replace(/-/g, ' ')}`)
    for (const part of expected) await expect(cell).toContainText(part)
    await expect(cell).not.toContainText(CODES)
    const shown = ((await cell.textContent()) ?? '').split('·').reduce((sum, part) => sum + Number(part.trim().split(' ')[0]!.replace(/,/g, '')), 0)
    expect(shown).toBe(order.quantity)
  }
  await expect(page.getByTestId('orders-table')).not.toContainText(CODES)
  // Nor in what a pointer resting on a status shows.
  const titles = await page
    .getByTestId('orders-table')
    .locator('[title]')
    .evaluateAll((els) => els.map((el) => el.getAttribute('title') ?? ''))
  expect(titles.filter((title) => CODES.test(title))).toEqual([])

  // The expanded row: where items may move next, in words.
  const moving = orders.find((o) => o.items.some((item) => item.possibleStatuses.includes('seller-shipped')))!
  await page.getByTestId('orders-clear-filters-toolbar').click()
  await page.getByTestId('orders-search').fill(moving.orderNo)
  await expect.poll(() => numberIn(page, 'orders-total')).toBe(1)
  await rows.first().locator('.n-data-table-expand-trigger').click()
  const expanded = page.getByTestId('order-items')
  await expect(expanded).toContainText('Can move to: Shipped')
  await expect(expanded).not.toContainText(CODES)

  // Unfiltered, the list says nothing of units.
  await page.getByTestId('orders-search').fill('')
  await expect(page.getByTestId('orders-item-units')).toHaveCount(0)

  await page.getByTestId('nav-dashboard').click()
  await page.getByTestId('figure-awaiting').getByRole('link').click()
  await screenshots(page, 'orders-list', async () => {
    await expect(page.getByTestId('orders-item-units')).toBeVisible()
  })
})

test('order drawer: shipping method, shipment and tracking once per shipment, what the shipping statuses mean, no codes', async ({ app: page, host }) => {
  await signIn(page, host)
  const { orders } = readSnapshot(host, (snapshot) => snapshot.dump())
  // An order with several items in one shipment (the demo marketplace ships an order's items together).
  const shipping = (o: Order) => o.items.some((i) => i.status === 'awaiting-shipment' || i.status === 'ready-to-ship')
  const order =
    orders.find((o) => o.items.length >= 3 && shipping(o) && new Set(o.items.map((i) => i.status)).size > 1) ??
    orders.find((o) => o.items.length >= 2 && shipping(o))!
  const shipments = new Set(order.items.map((item) => item.shipment))

  await page.getByTestId('nav-orders').click()
  await page.getByTestId('orders-search').fill(order.orderNo)
  await expect.poll(() => numberIn(page, 'orders-total')).toBe(1)
  await page.getByTestId('order-row').first().click()
  const drawer = page.getByTestId('order-drawer')
  await expect(drawer.getByTestId('drawer-order-no')).toHaveText(order.orderNo)
  await expect(drawer.getByTestId('drawer-item')).toHaveCount(order.items.length)
  await expect(drawer.getByTestId('drawer-shipment')).toHaveCount(shipments.size)
  await expect(drawer.getByTestId('drawer-shipment-id')).toHaveCount(shipments.size)
  await expect(drawer.getByTestId('tracking-number')).toHaveCount(shipments.size)
  await expect(drawer.getByTestId('drawer-shipping-method').first()).toHaveText('Platform shipping')
  const shipment = drawer.getByTestId('drawer-shipment').filter({ hasText: order.items[0]!.shipment! })
  await expect(shipment.getByTestId('drawer-item')).toHaveCount(order.items.filter((i) => i.shipment === order.items[0]!.shipment).length)
  await expect(shipment.getByTestId('tracking-number')).toHaveText(order.items[0]!.tracking!.trackingNumber)

  const help = drawer.getByTestId('drawer-status-help')
  const steps = { 'awaiting-shipment': 'Awaiting shipment', 'ready-to-ship': 'Ready to ship' } as Record<string, string>
  for (const status of new Set(order.items.map((i) => i.status))) if (steps[status]) await expect(help).toContainText(steps[status])
  await expect(drawer).not.toContainText(CODES)

  await screenshots(page, 'order-drawer', async () => {
    await expect(drawer).toBeVisible()
  })
})

test('exports: the orders CSV in words with dates a spreadsheet reads; the grid export says it is done and opens as a workbook with date cells', async ({
  app: page,
  host
}) => {
  await signIn(page, host)
  await page.getByTestId('nav-orders').click()
  await expect(page.getByTestId('order-row').first()).toBeVisible()
  const download = page.waitForEvent('download')
  await page.getByTestId('orders-export').click()
  const orderCsv = readFileSync(await (await download).path(), 'utf8')
  const [header, ...rows] = Papa.parse<string[]>(orderCsv.replace(/^\uFEFF/, ''), { skipEmptyLines: true }).data
  const col = (name: string) => header!.indexOf(name)
  expect(header![1]).toBe(`Order date (${TIME_ZONE})`)
  expect(orderCsv).not.toMatch(CODES)
  expect(rows.map((row) => row[col('Order status')])).toContain('Payment confirmed')
  expect(rows.map((row) => row[col('Item status')])).toContain('Awaiting shipment')
  for (const name of ['Order status', 'Item status']) expect(rows.filter((row) => !/^[A-Z][a-z ]+$/.test(row[col(name)]!))).toEqual([])
  expect(new Set(rows.map((row) => row[col('Shipping method')]))).toEqual(new Set(['Platform shipping']))
  for (const row of rows) {
    expect(row[1]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
    expect(row[col('Order total')]).toMatch(/^-?\d+\.\d{2}$/)
  }

  // The grid: statuses in words; the export names its columns in words and says it is done.
  const grid = await viaRouter<{ rows: GridListingRow[] }>(host, 'bulk.gridRows', {})
  expect(grid.rows.every((row) => /^[A-Z]/.test(row[8]))).toBe(true)
  await page.getByTestId('nav-bulkEdit').click()
  await expect(page.locator('.rgCell').first()).toBeVisible()
  // The Status column is the grid's last: scrolled into view, it says the listing's status in words.
  await page
    .locator('revogr-viewport-scroll.rgCol')
    .first()
    .evaluate((el) => el.scrollTo({ left: el.scrollWidth }))
  const statusCells = page.locator('revogr-data[type="rgRow"]:not([col-type="colPinStart"]) .rgCell').filter({ hasText: /^(Open|Paused)$/ })
  await expect(statusCells.first()).toBeVisible()
  await expect(page.locator('revogr-data[type="rgRow"] .rgCell').filter({ hasText: /^(open|paused)$/ })).toHaveCount(0)
  const workbook = page.waitForEvent('download')
  await page.getByTestId('bulk-export').click()
  await page.locator('.n-dropdown-option').filter({ hasText: 'XLSX' }).click()
  const file = await workbook
  await expect(page.getByText(`Exported ${grid.rows.length} listings to ${file.suggestedFilename()}.`)).toBeVisible()
  // openpyxl goes by the extension, which the download's own path lacks.
  const saved = join(mkdtempSync(join(tmpdir(), 'sd-words-')), file.suggestedFilename())
  await file.saveAs(saved)
  const read = readWorkbook(saved)
  if (read) {
    expect(read.header).toEqual(listingsHeader())
    expect(read.freeze).toBe('A2')
    expect(read.kinds).toEqual({ price: 'number', priceFormat: '0.00', updated: 'date', status: 'Open' })
  }
})

/** The first data row's cell types as openpyxl reads them; null where python3-openpyxl is not installed. */
function readWorkbook(path: string): { header: string[]; freeze: string; kinds: Record<string, string> } | null {
  const script = `
import json, sys, datetime, warnings, openpyxl
warnings.simplefilter('ignore')
ws = openpyxl.load_workbook(sys.argv[1]).worksheets[0]
header = [c.value for c in ws[1]]
row = next(r for r in ws.iter_rows(min_row=2) if r[header.index('Status')].value == 'Open')
cell = lambda name: row[header.index(name)]
print(json.dumps({'header': header, 'freeze': ws.freeze_panes, 'kinds': {
  'price': 'number' if isinstance(cell('Price').value, (int, float)) else 'text',
  'priceFormat': cell('Price').number_format,
  'updated': 'date' if isinstance(cell('Last updated (UTC)').value, datetime.datetime) else 'text',
  'status': cell('Status').value }}))
`
  try {
    return JSON.parse(execFileSync('/usr/bin/python3', ['-c', script, path], { encoding: 'utf8' }))
  } catch (error) {
    if (String(error).includes('No module named')) return null
    throw error
  }
}
