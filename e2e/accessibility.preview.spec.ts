/**
 * Accessibility in the browser preview: every view, and the dialogs and drawer a seller opens from them,
 * pass an axe-core scan (WCAG 2.0 / 2.1, A and AA, and axe's best practices: every dialog named) with no
 * serious or critical violation, in the light and the dark theme; focus is visible while tabbing; the
 * bulk edit grid is usable from the keyboard alone.
 */
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { animationsEnded } from './pageMeasures'
import { marketplaceForEachTest } from './marketplace'
import { GRID_COLUMN, gridCell, openChangeMany, signInTo } from './signedIn'

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']

/**
 * Violations in third-party markup that our code cannot change, each left out by rule and exact selector
 * (the rest of the element and every other rule are still checked). RevoGrid (4.28) draws its own DOM:
 */
const THIRD_PARTY: { rule: string; selector: string; why: string }[] = [
  // Its header cells (role=columnheader) sit straight under the treegrid root and under no row.
  { rule: 'aria-required-children', selector: 'revo-grid', why: 'RevoGrid puts column headers directly in its treegrid' },
  { rule: 'aria-required-parent', selector: 'revo-grid .rgHeaderCell[role="columnheader"]', why: 'RevoGrid gives its header cells no row' },
  // Its column filter button is an icon it renders with no name and no way to give it one.
  { rule: 'button-name', selector: 'revo-grid .rgHeaderCell .rv-filter', why: 'RevoGrid renders its filter button unnamed' },
  // It scrolls rows in inner divs; the keyboard moves through every cell with the grid's own focus
  // (the grid itself is focusable: see the keyboard test below), not by focusing these divs.
  { rule: 'scrollable-region-focusable', selector: 'revo-grid .vertical-inner.scroll-rgRow', why: 'RevoGrid scrolls inside the focusable grid' }
]

/**
 * Scans what is on screen now; every serious or critical violation is listed in the failure message.
 * Only violations are read, so axe is told to work out where each node is (its selector) for them alone:
 * on a view with a full table it otherwise spends most of a scan on the nodes that passed. (Options
 * first: AxeBuilder's options() replaces the tags withTags() set.) The scan runs as one axe.run in the
 * page (legacy mode): the app has no frames, so splitting it per frame and finishing it in a second,
 * blank page (AxeBuilder's default) only adds that page and the copying of every partial result to it,
 * more than half of a scan's time on Bulk edit.
 */
async function expectNoSeriousViolations(page: Page, view: string) {
  const { violations } = await new AxeBuilder({ page })
    .options({ resultTypes: ['violations'] })
    .withTags(TAGS)
    .setLegacyMode()
    .analyze()
  const report: string[] = []
  for (const violation of violations) {
    if (violation.impact !== 'serious' && violation.impact !== 'critical') continue
    const excused = THIRD_PARTY.filter(({ rule }) => rule === violation.id).map(({ selector }) => selector)
    const nodes = []
    for (const node of violation.nodes) {
      const target = node.target.at(-1) as string
      const thirdParty =
        excused.length > 0 &&
        (await page.evaluate(
          ([t, selectors]) => {
            const element = document.querySelector(t as string)
            return !!element && (selectors as string[]).some((selector) => element.matches(selector))
          },
          [target, excused] as const
        ))
      if (!thirdParty) nodes.push(node)
    }
    if (nodes.length === 0) continue
    // One line per rule: what it asks, how often it failed, where (the first few), and why (the first node's summary).
    const targets = nodes.map((node) => node.target.join(' '))
    const where = targets.slice(0, 3).join(' | ') + (targets.length > 3 ? ` | …${targets.length - 3} more` : '')
    const why = nodes[0]?.failureSummary?.replace(/\s+/g, ' ') ?? ''
    report.push(`[${violation.impact}] ${violation.id} ×${targets.length}: ${violation.help}. At ${where}. ${why}`)
  }
  expect.soft(report, `${view}: serious or critical axe violations`).toEqual([])
}

/** The theme fades over a few hundred milliseconds: colours are read once it has settled. */
async function useScheme(page: Page, colorScheme: 'light' | 'dark') {
  await page.emulateMedia({ colorScheme })
  await expect.poll(() => page.evaluate((scheme) => matchMedia(`(prefers-color-scheme: ${scheme})`).matches, colorScheme)).toBe(true)
  await animationsEnded(page)
}

/** Dialogs and drawers open with an animation: the scan waits for it to end. */
const settle = (page: Page) => animationsEnded(page)

for (const scheme of ['light', 'dark'] as const) {
  test(`every view passes an axe scan in the ${scheme} theme`, async ({ app: page }) => {
    test.setTimeout(300_000)
    await useScheme(page, scheme)

    await expect(page.getByTestId('start-demo')).toBeVisible()
    await expectNoSeriousViolations(page, 'Sign-in')

    await page.getByTestId('start-demo').click()
    await expect(page.getByTestId('demo-badge')).toBeVisible()
    await expect(page.getByTestId('nav-dashboard')).toHaveAttribute('aria-current', 'page')
    await settle(page)
    await expectNoSeriousViolations(page, 'Dashboard')
    await page.keyboard.press('Control+/')
    await expect(page.getByTestId('shortcuts-dialog')).toBeVisible()
    // Each dialog is named by its title (libraryAria.ts).
    await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible()
    await settle(page)
    await expectNoSeriousViolations(page, 'Shortcuts dialog')
    await page.keyboard.press('Escape')
    await expect(page.getByTestId('shortcuts-dialog')).toBeHidden()

    await page.getByTestId('nav-orders').click()
    await expect(page.getByTestId('order-row').first()).toBeVisible()
    await expectNoSeriousViolations(page, 'Orders')
    await page.getByTestId('order-row').first().click()
    await expect(page.getByTestId('order-drawer')).toBeVisible()
    await settle(page)
    await expectNoSeriousViolations(page, 'Orders, order drawer')
    await page.keyboard.press('Escape')
    await expect(page.getByTestId('order-drawer')).toBeHidden()

    await page.getByTestId('nav-sellRequests').click()
    await expect(page.getByTestId('sell-request-row').first()).toBeVisible()
    await expectNoSeriousViolations(page, 'Sell requests')
    await page.getByTestId('sell-request-row').first().getByTestId('edit-sell-request').click()
    await expect(page.getByTestId('edit-dialog')).toBeVisible()
    await expect(page.getByRole('dialog', { name: 'Edit sell request' })).toBeVisible()
    await settle(page)
    await expectNoSeriousViolations(page, 'Sell requests, edit dialog')
    // A warned change, asked about after one Enter: its warning and the question readable in this theme.
    await page.getByTestId('edit-quantity').fill('1')
    await page.getByTestId('edit-quantity').press('Enter')
    await expect(page.getByTestId('edit-confirm')).toBeVisible()
    await settle(page)
    await expectNoSeriousViolations(page, 'Sell requests, edit dialog asking again for a warned change')
    await page.keyboard.press('Escape')
    await expect(page.locator('.n-dialog')).toBeVisible()
    await expect(page.getByRole('dialog', { name: 'Discard what you typed?' })).toBeVisible()
    await settle(page)
    await expectNoSeriousViolations(page, 'Sell requests, the question before discarding what was typed')
    await page.locator('.n-dialog').getByRole('button', { name: 'Discard', exact: true }).click()
    await expect(page.getByTestId('edit-dialog')).toBeHidden()

    await page.getByTestId('nav-bulkEdit').click()
    const firstPrice = page.locator(
      'revogr-data[type="rgRow"]:not([col-type="rowHeaders"]):not([col-type="colPinStart"]) .rgCell[data-rgrow="0"][data-rgcol="1"]'
    )
    await expect(firstPrice).toBeVisible()
    await expectNoSeriousViolations(page, 'Bulk edit')
    await firstPrice.click()
    await page.keyboard.type('123')
    await page.keyboard.press('Enter')
    await expect(page.getByTestId('bulk-summary')).toHaveAttribute('data-changes', '1')
    await page.getByTestId('bulk-review').click()
    await expect(page.getByTestId('bulk-preview')).toBeVisible()
    await expect(page.getByRole('dialog', { name: 'Review changes before applying' })).toBeVisible()
    await settle(page)
    await expectNoSeriousViolations(page, 'Bulk edit, review dialog')
    await page.keyboard.press('Escape')
    await expect(page.getByTestId('bulk-preview')).toBeHidden()

    // The grid's filter panel, in the app's colours (RevoGrid's own theme has a green button).
    await page.locator('revogr-header .rv-filter').nth(1).dispatchEvent('click')
    const filterPanel = page.locator('.filter-panel-dialog')
    await expect(filterPanel).toBeVisible()
    await expectNoSeriousViolations(page, 'Bulk edit, filter panel')
    const close = filterPanel.locator('.revo-button.green')
    const colours = await close.evaluate((button) => {
      const probe = document.createElement('div')
      probe.style.background = 'var(--sd-primary-color)'
      document.body.append(probe)
      const primary = getComputedStyle(probe).backgroundColor
      probe.remove()
      return { button: getComputedStyle(button).backgroundColor, primary }
    })
    expect(colours.button, 'the filter panel button in the theme primary colour').toBe(colours.primary)
    await close.click()
    await expect(filterPanel).toBeHidden()

    await page.getByTestId('nav-settings').click()
    await settle(page)
    await expectNoSeriousViolations(page, 'Settings')
  })
}

for (const scheme of ['light', 'dark'] as const) {
  test(`bulk edit with a problem and a warning, and its review, pass an axe scan in the ${scheme} theme: the summary's coloured counts readable`, async ({
    app: page
  }) => {
    await useScheme(page, scheme)
    await page.getByTestId('start-demo').click()
    await expect(page.getByTestId('demo-badge')).toBeVisible()
    await page.getByTestId('nav-bulkEdit').click()
    await expect(gridCell(page, 0, GRID_COLUMN.price)).toBeVisible()
    // A negative price cannot be applied (a problem); a price a hundred times the demo's is a move past the rule (a warning).
    for (const [row, value] of [
      [0, '-5'],
      [1, '99999']
    ] as const) {
      await gridCell(page, row, GRID_COLUMN.price).click()
      await page.keyboard.type(value)
      await page.keyboard.press('Enter')
    }
    await expect(page.getByTestId('bulk-invalid-count')).toHaveText('1 with problems')
    await expect(page.getByTestId('bulk-summary')).toContainText('1 with warnings')
    await expectNoSeriousViolations(page, `Bulk edit with a problem and a warning (${scheme})`)

    await page.getByTestId('bulk-review').click()
    await expect(page.getByTestId('preview-invalid').first()).toBeVisible()
    // The check column's marks show in the theme's error and warning tones, not in the text's colour.
    const tone = (name: string) => page.evaluate((variable) => getComputedStyle(document.documentElement).getPropertyValue(variable), name)
    const colourOf = (selector: string) =>
      page
        .locator(selector)
        .first()
        .evaluate((element) => getComputedStyle(element).color)
    const asRgb = (css: string) =>
      page.evaluate((value) => {
        const probe = document.createElement('span')
        probe.style.color = value
        document.body.append(probe)
        const rgb = getComputedStyle(probe).color
        probe.remove()
        return rgb
      }, css)
    expect(await colourOf('[data-testid="preview-invalid"]')).toBe(await asRgb(await tone('--sd-error-color')))
    expect(await colourOf('[data-testid="bulk-preview-table"] .warning')).toBe(await asRgb(await tone('--sd-warning-color')))
    await settle(page)
    await expectNoSeriousViolations(page, `Bulk edit, review with a problem and a warning (${scheme})`)
  })
}

/**
 * What the focused element shows the keyboard: an outline or a box-shadow on itself, on its ::before or
 * ::after, or, for naive-ui's fields and radio buttons (the focus is on an inner <input>), on their state border.
 */
const focusIndicator = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement
    if (!element || element === document.body) return { name: 'body', shown: false }
    const ring = (target: Element, pseudo?: string) => {
      const style = getComputedStyle(target, pseudo)
      const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0
      return outline || (style.boxShadow !== 'none' && style.boxShadow !== '')
    }
    // (A radio button's focus is on a transparent <input>: whatever it draws itself is not seen.)
    const seen = parseFloat(getComputedStyle(element).opacity) > 0
    const field = element.closest('.n-input, .n-base-selection, .n-radio-button')
    const stateBorder = field?.querySelector(
      ':scope > .n-input__state-border, :scope > .n-base-selection__state-border, :scope > .n-radio-button__state-border'
    )
    const menuItem = element.matches('.n-menu-item') ? element.querySelector('.n-menu-item-content') : null
    const shown =
      (seen && (ring(element) || ring(element, '::before') || ring(element, '::after'))) ||
      (!!stateBorder && ring(stateBorder)) ||
      (!!menuItem && ring(menuItem, '::before'))
    const name = `${element.tagName.toLowerCase()}${element.getAttribute('data-testid') ? `[data-testid=${element.getAttribute('data-testid')}]` : ''}.${[...element.classList].slice(0, 2).join('.')} “${(element.getAttribute('aria-label') ?? element.textContent ?? '').trim().slice(0, 30)}”`
    return { name, shown }
  })

test('focus is visible on every control the keyboard reaches in the header, the menu and a list page', async ({ app: page }) => {
  await page.getByTestId('start-demo').click()
  await expect(page.getByTestId('demo-badge')).toBeVisible()
  await page.keyboard.press('Control+2')
  await expect(page.getByTestId('order-row').first()).toBeVisible()
  // From the top of the page: the header, the sections' menu, then the orders' filters, rows and pager.
  // Ctrl+2 put the focus in the Orders pane, and a blur leaves the browser's Tab starting point there:
  // a click on the header's corner (nothing to focus there) moves it to the top.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
  await page.mouse.click(2, 2)
  const unseen: string[] = []
  const reached: string[] = []
  for (let presses = 0; presses < 30; presses++) {
    await page.keyboard.press('Tab')
    const { name, shown } = await focusIndicator(page)
    reached.push(name)
    if (!shown) unseen.push(name)
  }
  // The walk reached the header, the menu and the list.
  expect(reached.some((name) => name.includes('sign-out'))).toBe(true)
  expect(reached.some((name) => name.includes('nav-orders'))).toBe(true)
  expect(reached.some((name) => name.includes('orders-search') || name.startsWith('input'))).toBe(true)
  expect(unseen, `focused without a visible indicator (of ${reached.join(' → ')})`).toEqual([])
})

test.describe('without a system keychain', () => {
  test.use({ hostOptions: { keychain: false }, colorScheme: 'dark' })
  const sandbox = marketplaceForEachTest({ apiKey: 'sk_live_close_focus_e2e_7Qm2', orders: 5, sellRequests: 5, seed: 31 })

  test("a notice's close button, reached from the keyboard in the dark theme, shows a focus ring", async ({ app: page, host }) => {
    await signInTo(page, host, sandbox())
    const close = page.getByTestId('key-storage-notice').locator('.n-base-close')
    await expect(close).toBeVisible()
    await page.mouse.click(2, 2)
    let reached = false
    for (let presses = 0; presses < 40 && !reached; presses++) {
      await page.keyboard.press('Tab')
      reached = await close.evaluate((element) => element === document.activeElement)
    }
    expect(reached, 'the close button is in the Tab order').toBe(true)
    expect((await focusIndicator(page)).shown, 'a focus ring on the close button').toBe(true)
  })
})

test('Sell requests from Ctrl+F on: every control the toolbar puts in the Tab order has a name, each filter and the sort by what it is for, with what it holds as its value', async ({
  app: page
}) => {
  await page.getByTestId('start-demo').click()
  await expect(page.getByTestId('demo-badge')).toBeVisible()
  await page.getByTestId('nav-sellRequests').click()
  await expect(page.getByTestId('sell-request-row').first()).toBeVisible()
  // One status chosen: its filter holds it.
  await page.getByTestId('sell-requests-status-filter').click()
  const firstStatus = page.locator('.n-base-select-option').first()
  const status = (await firstStatus.innerText()).trim()
  await firstStatus.click()
  await page.keyboard.press('Escape')

  const toolbar = page.locator('.toolbar').filter({ has: page.getByTestId('sell-requests-search') })
  const focused = page.locator(':focus')
  await page.keyboard.press('Control+f')
  await expect(page.getByTestId('sell-requests-search')).toBeFocused()
  /** Each stop as assistive technology reads it (role "name": value). */
  const stops: string[] = []
  while (stops.length < 30 && (await toolbar.evaluate((bar) => bar.contains(document.activeElement)))) {
    const stop = await focused.ariaSnapshot()
    stops.push(stop)
    await expect.soft(focused, `stop ${stops.length} of the toolbar, read as: ${stop}`).toHaveAccessibleName(/\S/)
    await page.keyboard.press('Tab')
  }
  expect(stops.length, 'the walk left the toolbar').toBeLessThan(30)
  // The filters and the sort, by what they are for (not by what naive-ui's markup holds, such as its arrow's
  // "loading" icon), with what they hold.
  const combobox = (name: string, value?: string) => `- combobox "${name}"${value ? `: ${value}` : ''}`
  for (const expected of [combobox('Status', status), combobox('Brand'), combobox('Category'), combobox('Sort by', 'Last updated')])
    expect(stops, stops.join(' → ')).toContain(expected)
  // Opened, the sort says so, and which list it opened.
  const sortBy = page.getByRole('combobox', { name: 'Sort by' })
  await sortBy.focus()
  await page.keyboard.press('Enter')
  await expect(sortBy).toHaveAttribute('aria-expanded', 'true')
  const menu = page.locator(`[id="${await sortBy.getAttribute('aria-controls')}"]`)
  await expect(menu).toBeVisible()
  await expect(menu).toContainText('Last updated')
  await page.keyboard.press('Escape')
  await expect(sortBy).toHaveAttribute('aria-expanded', 'false')
  await expect(sortBy).not.toHaveAttribute('aria-controls')
})

test("Orders' export buttons say what they save in the app's tooltip (no native title), on hover and on the keyboard's focus, as their description; Escape puts it away", async ({
  app: page
}) => {
  await page.getByTestId('start-demo').click()
  await expect(page.getByTestId('demo-badge')).toBeVisible()
  await page.getByTestId('nav-orders').click()
  await expect(page.getByTestId('order-row').first()).toBeVisible()
  for (const [button, hint, words] of [
    ['orders-export', 'orders-export-hint', 'as a CSV file, one row per item'],
    ['orders-export-xlsx', 'orders-export-xlsx-hint', 'as an Excel workbook (.xlsx): order and tracking numbers stay exactly as written']
  ] as const) {
    const control = page.getByTestId(button)
    const tooltip = page.getByTestId(hint)
    await expect(control).not.toHaveAttribute('title')
    await expect(control).toHaveAccessibleDescription(new RegExp(words.replace(/[().]/g, '\\$&')))
    await control.hover()
    await expect(tooltip).toBeVisible()
    await expect(tooltip).toContainText(words)
    await page.mouse.move(0, 400)
    await expect(tooltip).toBeHidden()
    // From the keyboard: Tab onto the button from the one before it.
    await page.getByTestId('orders-refresh').focus()
    await page.keyboard.press('Tab')
    if (button === 'orders-export-xlsx') await page.keyboard.press('Tab')
    await expect(control).toBeFocused()
    await expect(tooltip).toBeVisible()
    await page.keyboard.press('Escape')
    await expect(tooltip).toBeHidden()
    await expect(control).toBeFocused()
    await control.blur()
  }
})

test('Orders from the keyboard: ↓ and ↑ go from order to order, over the items of one expanded, and stop at the ends; the rows are one Tab stop, the order the keyboard was on; Enter opens it', async ({
  app: page
}) => {
  await page.getByTestId('start-demo').click()
  await expect(page.getByTestId('demo-badge')).toBeVisible()
  await page.getByTestId('nav-orders').click()
  const rows = page.getByTestId('order-row')
  await expect(rows.nth(3)).toBeVisible()
  // The second order's items shown between it and the third.
  await rows.nth(1).locator('.n-data-table-expand-trigger').click()
  await rows.first().focus()
  await page.keyboard.press('ArrowUp')
  await expect(rows.first()).toBeFocused()
  for (const i of [1, 2, 3]) {
    await page.keyboard.press('ArrowDown')
    await expect(rows.nth(i)).toBeFocused()
  }
  await page.keyboard.press('ArrowUp')
  await expect(rows.nth(2)).toBeFocused()
  // The rows are one Tab stop, and it is the order the keyboard was on: Tab leaves the list, Shift+Tab
  // comes back to that order.
  await page.keyboard.press('Tab')
  expect(await page.evaluate(() => document.activeElement?.closest('[data-testid="orders-table"] tbody') ?? null), 'Tab left the rows').toBeNull()
  expect(await rows.evaluateAll((els) => els.filter((el) => el.getAttribute('tabindex') === '0').length)).toBe(1)
  await page.keyboard.press('Shift+Tab')
  await expect(rows.nth(2)).toBeFocused()
  const orderNo = (await rows.nth(2).locator('td').nth(1).textContent())!.trim()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('dialog')).toContainText(orderNo)
})

/** The demo's Orders, a first page of 25 shown, and what the drawer-stepping tests read of the list and the drawer. */
async function demoOrdersForStepping(page: Page) {
  await page.getByTestId('start-demo').click()
  await expect(page.getByTestId('demo-badge')).toBeVisible()
  await page.getByTestId('nav-orders').click()
  const rows = page.getByTestId('order-row')
  const pager = page.getByTestId('orders-table').locator('.n-pagination')
  await expect(rows.nth(24)).toBeVisible()
  expect(await rows.count(), 'a page of 25 orders').toBe(25)
  return {
    rows,
    drawerNo: page.getByTestId('drawer-order-no'),
    pageItem: (n: number) => pager.getByRole('button', { name: `Page ${n}`, exact: true }),
    orderNo: async (n: number) => (await rows.nth(n).getByTestId('order-no').textContent())!.trim(),
    /** The order numbers of the list's rows marked as the order the drawer shows (one, or none). */
    markedRow: async () =>
      (await page.locator('[data-testid="order-row"][aria-current="true"] [data-testid="order-no"]').allTextContents()).map((text) => text.trim()).join(', ')
  }
}

test('the order drawer steps to the next and previous order (Alt+↓ / Alt+↑, or its header buttons) across pages, not while typing, disabled at the ends; Escape leaves the focus on the row of the order last shown', async ({
  app: page
}) => {
  const { rows, drawerNo, pageItem, orderNo, markedRow } = await demoOrdersForStepping(page)
  const drawer = page.getByTestId('order-drawer')
  const previous = page.getByTestId('drawer-previous')
  const next = page.getByTestId('drawer-next')
  const firstPage = await Promise.all([0, 1, 24].map(orderNo))

  // The first order of the list: nothing before it.
  await rows.first().focus()
  await page.keyboard.press('Enter')
  await expect(drawerNo).toHaveText(firstPage[0]!)
  await expect(previous).toBeDisabled()
  await expect(next).toBeEnabled()
  await expect(previous).toHaveAttribute('title', /Previous order in the list \(Alt\+↑\)/)
  await expect(next).toHaveAttribute('title', /Next order in the list \(Alt\+↓\)/)

  // Alt+↓ shows the next order, and the list marks its row; Alt+↑ goes back.
  await page.keyboard.press('Alt+ArrowDown')
  await expect(drawerNo).toHaveText(firstPage[1]!)
  await expect.poll(markedRow).toBe(firstPage[1])
  await expect(previous).toBeEnabled()
  await page.keyboard.press('Alt+ArrowUp')
  await expect(drawerNo).toHaveText(firstPage[0]!)
  await expect.poll(markedRow).toBe(firstPage[0])

  // Typing in a field, the keys are the field's.
  await page.getByTestId('orders-search').focus()
  await page.keyboard.press('Alt+ArrowDown')
  await page.keyboard.press('Alt+ArrowUp')
  await expect(drawerNo).toHaveText(firstPage[0]!)
  await expect(page.getByTestId('orders-search')).toBeFocused()

  // The header's button does the same; the focus stays on it.
  await next.click()
  await expect(drawerNo).toHaveText(firstPage[1]!)
  await expect(next).toBeFocused()

  // From the page's last order, the next is the first of the next page, and back.
  await rows.nth(24).click()
  await expect(drawerNo).toHaveText(firstPage[2]!)
  await page.keyboard.press('Alt+ArrowDown')
  await expect(pageItem(2)).toHaveAttribute('aria-current', 'page')
  await expect.poll(() => orderNo(0), { message: 'page 2 drawn' }).not.toBe(firstPage[0])
  const secondPageFirst = await orderNo(0)
  await expect(drawerNo).toHaveText(secondPageFirst)
  await expect.poll(markedRow).toBe(secondPageFirst)
  await page.keyboard.press('Alt+ArrowUp')
  await expect(pageItem(1)).toHaveAttribute('aria-current', 'page')
  await expect(drawerNo).toHaveText(firstPage[2]!)
  await page.keyboard.press('Alt+ArrowDown')
  await expect(drawerNo).toHaveText(secondPageFirst)

  // Escape: the focus on the row of the order last shown (page 2's first), not on the row that opened the drawer.
  await page.keyboard.press('Escape')
  await expect(drawer).toBeHidden()
  await expect(rows.first()).toBeFocused()
  expect(await orderNo(0)).toBe(secondPageFirst)

  // The list's last page: its last order has no next, by key or button.
  const total = Number((await page.getByTestId('orders-total').textContent())!.replace(/\D/g, ''))
  const last = Math.ceil(total / 25)
  await pageItem(last).focus()
  await page.keyboard.press('Enter')
  await expect(pageItem(last)).toHaveAttribute('aria-current', 'page')
  await expect(rows).toHaveCount(total - (last - 1) * 25)
  const lastRow = (await rows.count()) - 1
  const [beforeLastNo, lastNo] = await Promise.all([orderNo(lastRow - 1), orderNo(lastRow)])
  await rows.nth(lastRow - 1).click()
  await expect(drawerNo).toHaveText(beforeLastNo)
  await next.click()
  await expect(drawerNo).toHaveText(lastNo)
  await expect(next).toBeDisabled()
  await expect(previous).toBeEnabled()
  // The button it pressed now disabled, the keyboard is still in the drawer: Alt+↓ does nothing, Escape closes.
  await expect.poll(() => drawer.evaluate((element) => element.contains(document.activeElement))).toBe(true)
  await page.keyboard.press('Alt+ArrowDown')
  await expect(drawerNo).toHaveText(lastNo)
  await page.keyboard.press('Escape')
  await expect(drawer).toBeHidden()
  await expect(rows.nth(lastRow)).toBeFocused()

  // The list changed under the drawer (a search the order shown does not match): no step is offered,
  // and Escape from the drawer leaves the focus on the list's first row, not on the page.
  const [openedNo, otherNo] = await Promise.all([orderNo(0), orderNo(1)])
  await rows.first().click()
  await expect(drawerNo).toHaveText(openedNo)
  await page.getByTestId('orders-search').fill(otherNo)
  await expect(rows.first().getByTestId('order-no')).toHaveText(otherNo)
  await expect(drawerNo).toHaveText(openedNo)
  await expect(next).toBeDisabled()
  await drawerNo.click()
  await page.keyboard.press('Escape')
  await expect(drawer).toBeHidden()
  await expect(rows.first()).toBeFocused()
  await page.getByTestId('orders-search').fill('')

  // The keys are in the list of shortcuts.
  await page.keyboard.press('Control+/')
  const shortcuts = page.getByTestId('shortcuts-dialog')
  await expect(shortcuts).toContainText('Order details: the next order in the list')
  await expect(shortcuts).toContainText('Order details: the previous order in the list')
})

test('the order drawer: Alt+↓ pressed again while the next page is read goes on to that page’s second order, and Alt+↑ back the same way; no press is lost at a page turn, and a held key’s repeats are not kept', async ({
  app: page
}) => {
  const { rows, drawerNo, pageItem, orderNo, markedRow } = await demoOrdersForStepping(page)
  const firstPage = await Promise.all([23, 24, 0].map(orderNo))

  // Each page read takes a noticeable time, as on a busy computer: the next press comes while it runs.
  await page.route('**/rpc/orders.list', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 600))
    await route.continue()
  })

  await rows.nth(23).click()
  await expect(drawerNo).toHaveText(firstPage[0]!)
  // Onto the page's last order, then two presses: the first turns the page, the second goes one further.
  await page.keyboard.press('Alt+ArrowDown')
  await expect(drawerNo).toHaveText(firstPage[1]!)
  await page.keyboard.press('Alt+ArrowDown')
  await page.keyboard.press('Alt+ArrowDown')
  await expect(pageItem(2)).toHaveAttribute('aria-current', 'page')
  await expect.poll(() => orderNo(0), { message: 'page 2 drawn' }).not.toBe(firstPage[2])
  const secondPage = await Promise.all([0, 1].map(orderNo))
  await expect(drawerNo).toHaveText(secondPage[1]!)
  await expect.poll(markedRow).toBe(secondPage[1])

  // Back: three presses at once, across the turn to page 1's last order and one before it.
  await page.keyboard.press('Alt+ArrowUp')
  await page.keyboard.press('Alt+ArrowUp')
  await page.keyboard.press('Alt+ArrowUp')
  await expect(pageItem(1)).toHaveAttribute('aria-current', 'page')
  await expect(drawerNo).toHaveText(firstPage[0]!)
  await expect.poll(markedRow).toBe(firstPage[0])

  // A held key: its repeats while the page turns are not kept, so the drawer stops where the key was let go.
  await page.keyboard.press('Alt+ArrowDown')
  await expect(drawerNo).toHaveText(firstPage[1]!)
  await page.keyboard.down('Alt')
  await page.keyboard.down('ArrowDown')
  for (let repeat = 0; repeat < 5; repeat++) await page.keyboard.down('ArrowDown')
  await page.keyboard.up('ArrowDown')
  await page.keyboard.up('Alt')
  await expect(pageItem(2)).toHaveAttribute('aria-current', 'page')
  await expect(drawerNo).toHaveText(secondPage[0]!)
  await page.waitForTimeout(1_500) // as long as two more page reads: nothing kept moves it on
  await expect(drawerNo).toHaveText(secondPage[0]!)
})

test('a screen reader says each toast: toasts come in a polite live region that is on the page, empty, before the first one', async ({ app: page }) => {
  await page.getByTestId('start-demo').click()
  await expect(page.getByTestId('demo-badge')).toBeVisible()
  const lane = page.getByTestId('toast-lane')
  await expect(lane).toBeEmpty()
  expect(await lane.evaluate((element) => element.closest('[aria-live="polite"], [role="log"], [role="status"]') !== null)).toBe(true)
  await page.keyboard.press('Control+3')
  const quantity = page.getByTestId('sell-request-row').first().getByTestId('inline-quantity')
  const held = Number((await quantity.innerText()).replace(/\D/g, ''))
  await quantity.focus()
  await page.keyboard.press('Enter')
  await page.keyboard.type(String(held + 1))
  await page.keyboard.press('Enter')
  await expect(page.getByRole('log').filter({ hasText: 'Saved the quantity' })).toBeVisible()
})

test('a section opened by its shortcut takes the keyboard: the next Tab goes on inside it, not from the top of the page', async ({ app: page }) => {
  await page.getByTestId('start-demo').click()
  await expect(page.getByTestId('demo-badge')).toBeVisible()
  await page.keyboard.press('Control+2')
  await expect(page.getByTestId('order-row').first()).toBeVisible()
  await page.getByTestId('order-row').first().focus()
  const focusedPane = () =>
    page.evaluate(() => {
      const element = document.activeElement
      return element === document.body || !element
        ? 'page'
        : (element.closest('[data-section-pane]')?.getAttribute('data-section-pane') ?? `outside: ${element.outerHTML.slice(0, 200)}`)
    })
  for (const [key, section] of [
    ['Control+3', 'sellRequests'],
    ['Control+5', 'settings'],
    ['Control+4', 'bulkEdit'],
    ['Control+1', 'dashboard'],
    ['Control+2', 'orders']
  ] as const) {
    await page.keyboard.press(key)
    await expect.poll(focusedPane, { message: key }).toBe(section)
    const pane = page.locator(`[data-section-pane="${section}"]`)
    await expect(pane).toBeFocused()
    await expect(pane).toHaveAttribute('role', 'region')
    // Once the view is drawn (one opened the first time loads), the keyboard is still there.
    await expect(pane.locator('button:not([disabled]), input, a[href], [tabindex="0"]').first()).toBeVisible()
    await expect(pane).toBeFocused()
    await page.keyboard.press('Tab')
    expect(await focusedPane(), `Tab after ${key}`).toBe(section)
  }
})

test("a list's pager from the keyboard: Tab reaches each page, Previous and Next, named and with a focus ring; Enter and Space turn the page, after which it still works", async ({
  app: page
}) => {
  await page.getByTestId('start-demo').click()
  await expect(page.getByTestId('demo-badge')).toBeVisible()
  await page.keyboard.press('Control+2')
  await expect(page.getByTestId('order-row').first()).toBeVisible()
  const pager = page.getByTestId('orders-table').locator('.n-pagination')
  const item = (name: string) => pager.getByRole('button', { name, exact: true })
  const focusedName = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.tagName ?? '')
  const firstOrder = () => page.getByTestId('order-row').first().textContent()
  /** Presses `key` until the element named `name` has the focus, a few times at most. */
  const pressUntil = async (key: string, name: string) => {
    for (let presses = 0; presses < 12 && (await focusedName()) !== name; presses++) await page.keyboard.press(key)
  }
  await expect(item('Page 1')).toHaveAttribute('aria-current', 'page')
  await expect(item('Page 3')).toBeVisible()

  // Tab from the search box, through the rows, to the pager: the first stop is page 1 (Previous is
  // disabled on the first page, so it is no stop), and it shows where the focus is.
  await page.getByTestId('orders-search').focus()
  const passed: string[] = []
  for (let presses = 0; presses < 200 && !(await pager.evaluate((element) => element.contains(document.activeElement))); presses++) {
    await page.keyboard.press('Tab')
    passed.push(await focusedName())
  }
  await expect(item('Page 1'), `Tab passed ${passed.join(' → ')}`).toBeFocused()
  // The rows are one stop on the way: ↑ and ↓ move between them.
  expect(
    passed.filter((name) => name === 'TR'),
    `Tab passed ${passed.join(' → ')}`
  ).toHaveLength(1)
  await expect(item('Previous page')).toHaveAttribute('aria-disabled', 'true')
  expect((await focusIndicator(page)).shown, 'a focus ring on the page item').toBe(true)

  // Enter on page 2 turns to it; the focus stays on it.
  const onFirstPage = await firstOrder()
  await page.keyboard.press('Tab')
  await expect(item('Page 2')).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(item('Page 2')).toHaveAttribute('aria-current', 'page')
  await expect.poll(firstOrder).not.toBe(onFirstPage)
  await expect(item('Page 2')).toBeFocused()

  // Tab on to Next: Space turns to page 3. Items drawn afresh for the new page are stops too.
  await pressUntil('Tab', 'Next page')
  await expect(item('Next page')).toBeFocused()
  expect((await focusIndicator(page)).shown, 'a focus ring on Next').toBe(true)
  await page.keyboard.press('Space')
  await expect(item('Page 3')).toHaveAttribute('aria-current', 'page')
  await expect(item('Next page')).toBeFocused()
  for (const element of await pager.locator('.n-pagination-item').all()) {
    await expect(element).toHaveAttribute('role', 'button')
    await expect(element).toHaveAttribute('tabindex', /^(0|-1)$/)
    await expect(element).toHaveAttribute('aria-label', /^(Page \d+|Previous page|Next page|Earlier pages, to page \d+|Later pages, to page \d+)$/)
  }

  // Previous, now a stop, turns back with Enter.
  await pressUntil('Shift+Tab', 'Previous page')
  await expect(item('Previous page')).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(item('Page 2')).toHaveAttribute('aria-current', 'page')

  // Sell requests' list has the same pager.
  await page.keyboard.press('Control+3')
  const sellPager = page.getByTestId('sell-requests-table').locator('.n-pagination')
  await sellPager.getByRole('button', { name: 'Page 2', exact: true }).focus()
  await page.keyboard.press('Enter')
  await expect(sellPager.getByRole('button', { name: 'Page 2', exact: true })).toHaveAttribute('aria-current', 'page')
  await expect(sellPager.getByRole('button', { name: 'Next page', exact: true })).toHaveAttribute('tabindex', '0')

  // A wide window gives that list a new table (brand and category get columns): its pager takes the keyboard too.
  const sellTable = page.getByTestId('sell-requests-table')
  await sellTable.evaluate((element) => element.setAttribute('data-narrow-table', ''))
  await page.setViewportSize({ width: 1800, height: 860 })
  await expect(page.locator('[data-testid="sell-requests-table"][data-narrow-table]')).toHaveCount(0)
  await sellPager.getByRole('button', { name: 'Page 3', exact: true }).focus()
  await page.keyboard.press('Enter')
  await expect(sellPager.getByRole('button', { name: 'Page 3', exact: true })).toHaveAttribute('aria-current', 'page')

  // Bulk edit's Review pages its changes in a table of its own: more than a page of them (a quantity
  // change on every listing), then Tab from the Review's filter reaches that pager too, with a ring.
  await page.keyboard.press('Control+4')
  await openChangeMany(page, 'Add / subtract quantity').then(async (dialog) => {
    await dialog.getByTestId('bulk-operation-value').locator('input').fill('1')
    await dialog.getByTestId('bulk-target-shown').click()
    await dialog.getByTestId('bulk-operation-run').click()
  })
  const summary = page.getByTestId('bulk-summary')
  await expect(summary).not.toHaveAttribute('data-changes', '0')
  expect(Number(await summary.getAttribute('data-changes')), 'more changes than a page of the Review').toBeGreaterThan(50)
  await page.getByTestId('bulk-review').click()
  const review = page.getByTestId('bulk-preview-table')
  const reviewPager = review.locator('.n-pagination')
  const reviewItem = (name: string) => reviewPager.getByRole('button', { name, exact: true })
  await expect(reviewPager.locator('.n-pagination-item--active')).toHaveText('1')
  await page.getByTestId('preview-filter-all').locator('input').focus()
  const tabbed: string[] = []
  for (let presses = 0; presses < 60 && !(await reviewPager.evaluate((element) => element.contains(document.activeElement))); presses++) {
    await page.keyboard.press('Tab')
    tabbed.push(await focusedName())
  }
  await expect(reviewItem('Page 1'), `Tab passed ${tabbed.join(' → ')}`).toBeFocused()
  expect((await focusIndicator(page)).shown, 'a focus ring on the Review’s page item').toBe(true)
  const firstChange = () => review.locator('tbody tr').first().textContent()
  const onPageOne = await firstChange()
  await page.keyboard.press('Tab')
  await expect(reviewItem('Page 2')).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(reviewItem('Page 2')).toHaveAttribute('aria-current', 'page')
  await expect.poll(firstChange).not.toBe(onPageOne)
  await pressUntil('Tab', 'Next page')
  await expect(reviewItem('Next page')).toBeFocused()
  await pressUntil('Shift+Tab', 'Previous page')
  await page.keyboard.press('Space')
  await expect(reviewItem('Page 1')).toHaveAttribute('aria-current', 'page')
})

test('bulk edit from the keyboard alone: into the grid, to a price, a new value, then review it', async ({ app: page }) => {
  const inGrid = () => page.evaluate(`!!document.activeElement?.closest('[data-testid="bulk-grid"]')`)
  const focusedCell = page.locator('[data-testid="bulk-grid"] revogr-focus.focused-cell')
  const priceCell = (row: number) =>
    page.locator(`revogr-data[type="rgRow"]:not([col-type="rowHeaders"]):not([col-type="colPinStart"]) .rgCell[data-rgrow="${row}"][data-rgcol="1"]`)
  const summary = page.getByTestId('bulk-summary')

  // Sign in to the demo and open Bulk edit, all by keyboard.
  await page.getByTestId('start-demo').focus()
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('demo-badge')).toBeVisible()
  await page.keyboard.press('Control+4')
  await expect(priceCell(0)).toBeVisible()
  await expect(summary).toHaveAttribute('data-changes', '0')

  // Tab from the top of the page until the grid has the focus: it starts on the first row's new price.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
  for (let presses = 0; presses < 40 && !(await inGrid()); presses++) await page.keyboard.press('Tab')
  expect(await inGrid()).toBe(true)
  await expect(focusedCell).toHaveCount(1)

  // Arrow keys to the third row's price (a seller presses on once the frame has moved); type a value, Enter.
  const frameTop = async () => (await focusedCell.boundingBox())?.y ?? 0
  for (const row of [1, 2]) {
    const before = await frameTop()
    await page.keyboard.press('ArrowDown')
    await expect.poll(frameTop, { message: `the focus frame moves down to row ${row}` }).toBeGreaterThan(before)
  }
  await page.keyboard.press('4')
  await expect(page.locator('revogr-edit input')).toBeFocused()
  await page.keyboard.type('2.5')
  await page.keyboard.press('Enter')
  await expect(priceCell(2)).toHaveText('42.50')
  await expect(summary).toHaveAttribute('data-changes', '1')

  // Escape hands the keyboard back to the page; Tab on through the toolbar to Review & apply.
  await page.keyboard.press('Escape')
  const review = page.getByTestId('bulk-review')
  const passed: string[] = []
  for (let presses = 0; presses < 30 && !(await review.evaluate((button) => button === document.activeElement)); presses++) {
    await page.keyboard.press('Tab')
    passed.push(await page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName ?? ''))
  }
  await expect(review, `Tab passed ${passed.join(' → ')}`).toBeFocused()
  await page.keyboard.press('Enter')
  const preview = page.getByTestId('bulk-preview')
  await expect(preview).toBeVisible()
  await expect(preview.getByTestId('preview-changes')).toContainText('1')
})

test('the price filter from the keyboard: Enter opens it on From, Tab to To, Enter applies, Escape closes; the focus comes back to its button', async ({
  app: page
}) => {
  await page.getByTestId('start-demo').focus()
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('demo-badge')).toBeVisible()
  await page.getByTestId('nav-sellRequests').click()
  await expect(page.getByTestId('sell-request-row').first()).toBeVisible()
  const button = page.getByTestId('sell-requests-price-filter')
  await button.focus()
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('sell-requests-price-filter-min')).toBeFocused()
  await page.keyboard.type('100')
  await page.keyboard.press('Tab')
  await expect(page.getByTestId('sell-requests-price-filter-max')).toBeFocused()
  await page.keyboard.type('500')
  await page.keyboard.press('Enter')
  await expect(button).toHaveText('Price: $100.00 – $500.00')
  await expect(button).toBeFocused()
  await expect(page.getByTestId('sell-requests-price-filter-min')).toBeHidden()
  // Escape leaves it as it was.
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('sell-requests-price-filter-min')).toBeFocused()
  await page.keyboard.type('9')
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('sell-requests-price-filter-min')).toBeHidden()
  await expect(button).toBeFocused()
  await expect(button).toHaveText('Price: $100.00 – $500.00')
})
