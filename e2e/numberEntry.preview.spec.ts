/**
 * Prices and quantities as a seller types them, in every place that takes one: the edit dialog, the
 * grid, "Change many". One reader (electron/shared/listingFields.ts) gives the same answer and the same
 * message everywhere: "1,299.00" is a price, "+10" adds ten units where a change is meant, "-5" is
 * "Price cannot be negative." in the dialog and on the grid's cell alike. Also: the edit dialog's two
 * fields stay side by side with both showing a message, and Change many opens with its value field
 * focused, a placeholder that fits and its help said once. (Screenshots of every view for looking by
 * eye: scripts/view-screenshots.ts.)
 */
import type { Locator, Page } from '@playwright/test'
import { accountKeyOf, type BulkStatus, type SessionInfo } from '../electron/shared/contract'
import { gridRow } from '../electron/shared/gridRow'
import type { Page as ListPage, SellRequest } from '../electron/shared/domain'
import type { PreviewHost } from '../electron/preview/host'
import { expect, test } from './fixtures'
import { marketplaceForEachTest } from './marketplace'
import { viaRouter } from './fromCore'
import { signInTo, gridCell, openGrid, openChangeMany } from './signedIn'

const KEY = 'sk_live_numbers_e2e_4Kp9'
const sandbox = marketplaceForEachTest({ apiKey: KEY, orders: 10, sellRequests: 20, seed: 31 })

test.use({ locale: 'en-US', permissions: ['clipboard-read', 'clipboard-write'] })

const NEGATIVE_PRICE = 'Price cannot be negative.'

/** Signs in to this spec's marketplace as a seller would; the first sync has finished. */
const signIn = (page: Page, host: PreviewHost) => signInTo(page, host, sandbox())

async function firstListing(host: PreviewHost): Promise<SellRequest> {
  const outcome = await host.router.dispatch('sellRequests.list', { take: 1 })
  if (!outcome.ok) throw new Error(outcome.error.message)
  return (outcome.value as ListPage<SellRequest>).rows[0]!
}

/** Grid columns of the scrolling (not pinned) part, in order. */
const COLUMN = { price: 1, quantity: 3 } as const
const cell = gridCell

async function openEditDialog(page: Page, listing: SellRequest): Promise<Locator> {
  await page.getByTestId('nav-sellRequests').click()
  await page.getByTestId('sell-request-row').filter({ hasText: listing.sku }).getByTestId('edit-sell-request').click()
  const dialog = page.getByTestId('edit-dialog')
  await expect(dialog).toBeVisible()
  return dialog
}

const top = async (locator: Locator) => (await locator.boundingBox())!.y
/** Polled: a message slides in, so two tops are compared once it has settled. */
const expectLevel = (a: Locator, b: Locator) => expect.poll(async () => (await top(a)) - (await top(b)), { timeout: 3_000 }).toBe(0)

test('the same reading of a typed price or quantity in the edit dialog, the grid and Change many', async ({ app: page, host }) => {
  await signIn(page, host)
  const listing = await firstListing(host)

  // The edit dialog: a price as a spreadsheet shows it is accepted; a negative one says so.
  const dialog = await openEditDialog(page, listing)
  await page.getByTestId('edit-price').fill('1,299.00')
  await expect(page.getByTestId('edit-price-error')).toHaveCount(0)
  await expect(page.getByTestId('edit-save')).toBeEnabled()
  await page.getByTestId('edit-price').fill('$1,299.00')
  await expect(page.getByTestId('edit-save')).toBeEnabled()
  await page.getByTestId('edit-price').fill('-5')
  await expect(page.getByTestId('edit-price-error')).toHaveText(NEGATIVE_PRICE)
  await expect(page.getByTestId('edit-save')).toBeDisabled()
  await page.getByTestId('edit-price').fill('1,299.00')
  await page.getByTestId('edit-save').click()
  // So far from this listing's price that the warning rules ask for a second Save (as a cell's second Enter).
  await expect(page.getByTestId('edit-confirm')).toBeVisible()
  await page.getByTestId('edit-save').click()
  await expect(dialog).toBeHidden()
  await expect.poll(() => sandbox().state.sellRequest(listing.id)?.priceCents).toBe(129_900)

  // The price in the table, changed in place: the same message.
  const row = page.getByTestId('sell-request-row').filter({ hasText: listing.sku })
  await row.getByTestId('inline-price').click()
  await page.getByTestId('inline-price-input').fill('-5')
  await expect(page.getByTestId('inline-price-error')).toHaveText(NEGATIVE_PRICE)
  await page.getByTestId('inline-price-input').press('Escape')
  // The keyboard stays on the cell after Escape and after Enter, to go on from there (Tab, Enter again).
  await expect(row.getByTestId('inline-price')).toBeFocused()
  await page.keyboard.press('Enter')
  await page.getByTestId('inline-price-input').fill('1,299.00')
  await page.getByTestId('inline-price-input').press('Enter')
  await expect(row.getByTestId('inline-price')).toBeFocused()

  // The price filter: the same reading ("$1,000" is a price) and the same message for a negative end.
  await page.getByTestId('sell-requests-price-filter').click()
  await page.getByTestId('sell-requests-price-filter-min').fill('-5')
  await expect(page.getByRole('alert').filter({ hasText: NEGATIVE_PRICE })).toHaveText(`From: ${NEGATIVE_PRICE}`)
  await expect(page.getByTestId('sell-requests-price-filter-apply')).toBeDisabled()
  await page.getByTestId('sell-requests-price-filter-min').fill('$1,000')
  await page.getByTestId('sell-requests-price-filter-apply').click()
  await expect(page.getByTestId('sell-requests-price-filter')).toHaveText('Price: ≥ $1,000.00')
  await expect(page.getByTestId('sell-request-row').filter({ hasText: listing.sku })).toBeVisible()

  // The grid: "-5" pasted as a price is staged, marked with the very same message.
  const rows = await openGrid(page, host)
  await cell(page, 0, COLUMN.price).click()
  await page.evaluate(`navigator.clipboard.writeText("-5")`)
  await page.keyboard.press('Control+v')
  await expect(cell(page, 0, COLUMN.price)).toHaveAttribute('data-mark', 'invalid')
  await expect(cell(page, 0, COLUMN.price)).toHaveAttribute('title', NEGATIVE_PRICE)

  // Change many: "+10" adds ten units to the selected rows.
  await cell(page, 1, COLUMN.quantity).click()
  await cell(page, 2, COLUMN.quantity).click({ modifiers: ['Shift'] })
  const many = await openChangeMany(page, 'Add / subtract quantity')
  await many.getByTestId('bulk-operation-value').locator('input').fill('+10')
  await expect(many.getByTestId('bulk-operation-error')).toHaveCount(0)
  await expect(many.getByTestId('bulk-target-selected')).toContainText('2 listings')
  await many.getByTestId('bulk-operation-run').click()
  await expect(many).toBeHidden()
  await expect(cell(page, 1, COLUMN.quantity)).toHaveText(String(gridRow.value(rows[1]!, 'quantity') + 10))
  await expect(cell(page, 2, COLUMN.quantity)).toHaveText(String(gridRow.value(rows[2]!, 'quantity') + 10))

  // …and a price set to "-5" there says what the dialog and the grid say.
  const setPrice = await openChangeMany(page, 'Set price')
  await setPrice.getByTestId('bulk-operation-value').locator('input').fill('-5')
  await expect(setPrice.getByTestId('bulk-operation-error')).toHaveText(NEGATIVE_PRICE)
  await expect(setPrice.getByTestId('bulk-operation-run')).toBeDisabled()
  await page.keyboard.press('Escape')
  await expect(setPrice).toBeHidden()

  // The warning rules' price floor: the same reading and the same message.
  await page.getByTestId('bulk-rules').click()
  // A value that cannot be read is said under the rules, its field marked, and nothing is saved.
  const account = accountKeyOf(await viaRouter<SessionInfo>(host, 'session.get', {}))
  const rulesBefore = (await viaRouter<BulkStatus>(host, 'bulk.status', { account })).rules
  await page.getByTestId('rule-floor').locator('input').fill('-5')
  await page.getByTestId('rule-save').click()
  await expect(page.getByTestId('rule-problem')).toHaveText(`Floor: ${NEGATIVE_PRICE}`)
  await expect(page.getByTestId('rule-floor').locator('input')).toHaveAttribute('aria-invalid', 'true')
  await expect(page.getByTestId('rule-percent').locator('input')).not.toHaveAttribute('aria-invalid', 'true')
  // The dollar sign shows beside a floor, not beside an empty field's "none".
  await expect(page.getByTestId('rule-floor').locator('.n-input__prefix')).toHaveText('$')
  await page.getByTestId('rule-floor').locator('input').fill('')
  await expect(page.getByTestId('rule-floor').locator('.n-input__prefix')).toHaveCount(0)
  await expect(page.getByTestId('rule-floor').locator('input')).toHaveAttribute('placeholder', 'none')
  await page.getByTestId('rule-percent').locator('input').fill('abc')
  await page.getByTestId('rule-save').click()
  await expect(page.getByTestId('rule-problem')).toHaveText(/^Price move: Not a number/)
  await expect(page.getByTestId('rule-percent').locator('input')).toHaveAttribute('aria-invalid', 'true')
  await expect(page.getByTestId('rule-floor').locator('input')).not.toHaveAttribute('aria-invalid', 'true')
  await expect(page.locator('.n-message')).toHaveCount(0)
  expect((await viaRouter<BulkStatus>(host, 'bulk.status', { account })).rules).toEqual(rulesBefore)
  // Numbers read but outside a rule's bounds (a move of −5%, a cut of 150%): said at their field as well, before anything is sent.
  await page.getByTestId('rule-percent').locator('input').fill('-5')
  await page.getByTestId('rule-save').click()
  await expect(page.getByTestId('rule-problem')).toHaveText('Price move: At least 1%.')
  await expect(page.getByTestId('rule-percent').locator('input')).toHaveAttribute('aria-invalid', 'true')
  await page.getByTestId('rule-percent').locator('input').fill('50')
  await page.getByTestId('rule-quantity-cut').locator('input').fill('150')
  await page.getByTestId('rule-save').click()
  await expect(page.getByTestId('rule-problem')).toHaveText('Quantity cut: Under 100%: a cut to 0 is never warned about.')
  await expect(page.getByTestId('rule-quantity-cut').locator('input')).toHaveAttribute('aria-invalid', 'true')
  await expect(page.locator('.n-message')).toHaveCount(0)
  expect((await viaRouter<BulkStatus>(host, 'bulk.status', { account })).rules).toEqual(rulesBefore)
  // The quantity rule read the other way, as one listing's edit reads it: said for the percentage typed,
  // and for the rule in force while what is typed is no percentage the rule takes.
  const riseNote = page.getByTestId('rule-quantity-rise')
  await expect(riseNote).toHaveText(/rises as far: at 90%, to more than 10 times what it was\.$/)
  await page.getByTestId('rule-quantity-cut').locator('input').fill('50')
  await expect(riseNote).toHaveText(/at 50%, to more than 2 times what it was\.$/)
  // Typing again takes the mark away; saved, it says so.
  await page.getByTestId('rule-quantity-cut').locator('input').fill('90')
  await expect(page.getByTestId('rule-problem')).toBeHidden()
  await page.getByTestId('rule-floor').locator('input').fill('$1,000')
  await page.getByTestId('rule-save').click()
  await expect.poll(async () => (await viaRouter<BulkStatus>(host, 'bulk.status', { account })).rules.priceFloorCents).toBe(100_000)
  await expect(page.locator('.n-message')).toContainText('Warning rules saved')
})

test('a quantity with a decimal comma is said to be whole (not to be written with a point, refused then), in the table, the dialog and the grid; text pasted in a cell and left names its listing', async ({
  app: page,
  host
}) => {
  await signIn(page, host)
  const listing = await firstListing(host)
  const whole = 'Quantity must be a whole number.'
  await page.getByTestId('nav-sellRequests').click()
  const row = page.getByTestId('sell-request-row').filter({ hasText: listing.sku })

  // A cell of the table: the message is the one the same number written with a point gets.
  await row.getByTestId('inline-quantity').click()
  const input = page.getByTestId('inline-quantity-input')
  for (const typed of ['12,5', '12.5']) {
    await input.fill(typed)
    await expect(page.getByTestId('inline-quantity-error'), typed).toHaveText(whole)
  }
  // A whole number written with a decimal comma is told how to write it: that is taken.
  await input.fill('12,0')
  await expect(page.getByTestId('inline-quantity-error')).toHaveText('Not a number: “12,0”. Write decimals with a point: 12.0.')
  await input.fill('12.0')
  await expect(page.getByTestId('inline-quantity-error')).toHaveCount(0)
  await input.press('Escape')

  // Text pasted in a cell, then left for elsewhere: dropped, and the toast names the listing it was for.
  await row.getByTestId('inline-price').click()
  await page.evaluate(`navigator.clipboard.writeText('abc')`)
  await page.keyboard.press('Control+v')
  await expect(page.getByTestId('inline-price-input')).toHaveValue('abc')
  await page.getByTestId('sell-requests-total').click()
  await expect(page.locator('.n-message').filter({ hasText: `Price of “${listing.name}” (${listing.sku}) not changed: Not a number: “abc”.` })).toBeVisible()
  expect(sandbox().state.sellRequest(listing.id)!.priceCents).toBe(listing.priceCents)

  // The edit dialog.
  const dialog = await openEditDialog(page, listing)
  await page.getByTestId('edit-quantity').fill('12,5')
  await expect(page.getByTestId('edit-quantity-error')).toHaveText(whole)
  await dialog.getByTestId('edit-cancel').click()
  await expect(dialog).toBeHidden()

  // The grid: the cell is left unchanged and marked, its title saying why.
  await openGrid(page, host)
  await cell(page, 0, COLUMN.quantity).click()
  await page.evaluate(`navigator.clipboard.writeText('12,5')`)
  await page.keyboard.press('Control+v')
  await expect(cell(page, 0, COLUMN.quantity)).toHaveAttribute('title', `Left unchanged: ${whole}`)
  await expect(page.getByTestId('bulk-summary')).toHaveAttribute('data-changes', '0')
})

test('edit dialog: price and quantity stay side by side when both show a message', async ({ app: page, host }) => {
  await signIn(page, host)
  for (const size of [
    { width: 1366, height: 768 },
    { width: 1024, height: 700 }
  ]) {
    await page.setViewportSize(size)
    await openEditDialog(page, await firstListing(host))
    await page.getByTestId('edit-price').fill('12.345')
    await page.getByTestId('edit-quantity').fill('-3')
    await expect(page.getByTestId('edit-price-error')).toHaveText('Price has more than two decimals.')
    await expect(page.getByTestId('edit-quantity-error')).toHaveText('Quantity cannot be negative.')
    await expectLevel(page.getByTestId('edit-quantity'), page.getByTestId('edit-price'))
    await expectLevel(page.getByTestId('edit-quantity-error'), page.getByTestId('edit-price-error'))
    // A longer message on one side only: the fields stay level, and so does what follows.
    await page.getByTestId('edit-price').fill('something that is not a price at all')
    await expect(page.getByTestId('edit-price-error')).toContainText('Not a number')
    await expectLevel(page.getByTestId('edit-quantity'), page.getByTestId('edit-price'))
    await expectLevel(page.getByTestId('edit-quantity-error'), page.getByTestId('edit-price-error'))
    await page.keyboard.press('Escape')
    await page.locator('.n-dialog').getByRole('button', { name: 'Discard', exact: true }).click()
    await expect(page.getByTestId('edit-dialog')).toBeHidden()
  }
})

test('Change many: the value field is focused on open, its placeholder fits and its help is said once', async ({ app: page, host }) => {
  await signIn(page, host)
  await openGrid(page, host)
  await cell(page, 0, COLUMN.price).click()
  for (const size of [
    { width: 1366, height: 768 },
    { width: 1024, height: 700 }
  ]) {
    await page.setViewportSize(size)
    await page.getByTestId('bulk-change-many').click()
    const dialog = page.getByTestId('bulk-operation-dialog')
    const input = dialog.getByTestId('bulk-operation-value').locator('input')
    await expect(input).toBeFocused()
    for (const kind of ['Adjust price by %', 'Adjust price by amount', 'Set price', 'Add / subtract quantity', 'Set quantity']) {
      await dialog.getByTestId('bulk-operation-kind').click()
      await page.locator('.n-base-select-option').filter({ hasText: kind }).click()
      const placeholder = dialog.getByTestId('bulk-operation-value').locator('.n-input__placeholder')
      const fits = await placeholder.evaluate((el) => el.scrollWidth <= el.clientWidth)
      expect(fits, `${kind}: placeholder “${await placeholder.textContent()}” fits`).toBe(true)
      const hint = (await dialog.getByTestId('bulk-operation-hint').textContent())!.trim()
      expect(hint.length).toBeGreaterThan(0)
      // Said once: not also the placeholder.
      expect(await placeholder.textContent()).not.toContain(hint)
    }
    await page.keyboard.press('Escape')
    await expect(dialog).toBeHidden()
  }
})
