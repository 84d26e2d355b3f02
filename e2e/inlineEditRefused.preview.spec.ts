/**
 * An edit in the Sell requests table that the marketplace refuses keeps what the seller typed, with the
 * reason under it, as the Edit dialog does: for a passing reason (500, 429, 503, no answer in time) Enter
 * sends it again, Escape gives up and shows the listing's value; for one that will not pass (the value
 * refused, 4xx) the text stays to be corrected. The faults come from the demo marketplace's injection;
 * the 4xx from a marketplace with a rule of its own (a proxy in front of it refusing edits with 422).
 */
import { createServer, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Page } from '@playwright/test'
import type { SellRequest } from '../electron/shared/domain'
import type { FaultKind } from '../electron/sandbox/faults'
import { expect, test } from './fixtures'
import { marketplaceForEachTest } from './marketplace'
import { openSellRequests, signInTo } from './signedIn'

const KEY = 'sk_live_inline_refused_e2e_7Qp2'
const sandbox = marketplaceForEachTest({ apiKey: KEY, orders: 20, sellRequests: 30, seed: 17 })

// A hanging answer is given up after 2 s (the app's own is longer): the "no answer in time" case.
test.use({ locale: 'en-US', hostOptions: { apiOptions: { retries: 1, backoffMs: 50, timeoutMs: 2_000 } } })

/** The row of the listing, found by its SKU (rows move when the list is read again). */
const rowOf = (page: Page, listing: SellRequest) => page.getByTestId('sell-request-row').filter({ hasText: listing.sku })

test('a passing refusal (500, 429, 503, no answer in time) keeps the typed value with the reason: Enter sends it again, Escape gives up', async ({
  app: page,
  host
}) => {
  const market = sandbox()
  market.setFaults({ retryAfterSeconds: 0 })
  await signInTo(page, host, { baseUrl: market.baseUrl, apiKey: KEY })
  const target = (await openSellRequests(page, host))[0]!
  const input = page.getByTestId('inline-quantity-input')
  const error = page.getByTestId('inline-quantity-error')
  const cases: [FaultKind, RegExp][] = [
    ['server-error', /had a problem \(HTTP 500\)/],
    ['rate-limit', /limiting requests \(HTTP 429\)/],
    ['unavailable', /temporarily unavailable \(HTTP 503\)/],
    // No answer: the edit may have been made, so it is read back first (readBack.ts), and here that read hangs too.
    [
      'hang',
      /answer never came \(the connection was lost, it did not answer in time, or a gateway in front of it got no answer\), so it may or may not have been made\. Seller Desk could not read the listing back/
    ]
  ]
  let quantity = target.quantity
  for (const [i, [kind, reason]] of cases.entries()) {
    const typed = String(quantity + 1 + i)
    market.injectNext(kind, 4)
    await rowOf(page, target).getByTestId('inline-quantity').click()
    await input.fill(typed)
    await input.press('Enter')
    // Refused: the field is open again with what was typed, the reason under it, the keyboard in it.
    await expect(error, kind).toContainText(reason, { timeout: 15_000 })
    await expect(input).toHaveValue(typed)
    await expect(input).toBeFocused()
    await expect(page.getByText('Press Enter to try again, or Esc to keep the old value.')).toBeVisible()
    expect(market.state.sellRequest(target.id)!.quantity).toBe(quantity)
    market.injectNext(kind, 0)
    // The connection may have been taken as lost (no answer): the marketplace answers again before the retry.
    await expect(page.getByTestId('offline-banner')).toHaveCount(0, { timeout: 15_000 })
    if (i % 2 === 0) {
      // Enter: sent again, saved.
      await input.press('Enter')
      await expect(input).toHaveCount(0)
      await expect(rowOf(page, target).getByTestId('inline-quantity')).toHaveText(typed)
      await expect.poll(() => market.state.sellRequest(target.id)!.quantity).toBe(Number(typed))
      quantity = Number(typed)
    } else {
      // Escape: nothing sent, the listing's value shows again. (Edits counted alone: the sync that
      // follows the connection's return may still be reading pages.)
      const requests = market.requestCount('PATCH')
      await input.press('Escape')
      await expect(input).toHaveCount(0)
      await expect(rowOf(page, target).getByTestId('inline-quantity')).toHaveText(String(quantity))
      await expect(rowOf(page, target).getByTestId('inline-quantity')).toBeFocused()
      expect(market.requestCount('PATCH')).toBe(requests)
      expect(market.state.sellRequest(target.id)!.quantity).toBe(quantity)
    }
  }
})

/** A marketplace with a rule of its own: every edit (PATCH) refused with 422 and its message; the rest as the sandbox answers. */
async function refusingEdits(target: string, message: string): Promise<{ server: Server; baseUrl: string; refused: () => number }> {
  const to = new URL(target)
  let refused = 0
  const server = createServer((req, res) => {
    if (req.method === 'PATCH') {
      refused++
      req.resume()
      res.writeHead(422, { 'content-type': 'application/json' }).end(JSON.stringify({ message }))
      return
    }
    const forward = request({ host: to.hostname, port: to.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(res)
    })
    forward.on('error', () => res.destroy())
    req.pipe(forward)
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  return { server, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, refused: () => refused }
}

test('a value the marketplace refuses (422) stays in the field with its message, to be corrected; leaving it drops it, saying why', async ({
  app: page,
  host
}) => {
  const rule = 'Price is below the minimum for this model.'
  const proxy = await refusingEdits(sandbox().baseUrl, rule)
  try {
    await signInTo(page, host, { baseUrl: proxy.baseUrl, apiKey: KEY })
    const target = (await openSellRequests(page, host))[0]!
    const input = page.getByTestId('inline-price-input')
    await rowOf(page, target).getByTestId('inline-price').click()
    const typed = ((target.priceCents - 1) / 100).toFixed(2)
    await input.fill(typed)
    await input.press('Enter')
    await expect(page.getByTestId('inline-price-error')).toContainText('The marketplace refused the request (HTTP 422)')
    await expect(page.getByTestId('inline-price-error')).toContainText(rule)
    await expect(input).toHaveValue(typed)
    // (A refused edit of one field is tried again with both: that is the client's, not the cell's.)
    const firstTry = proxy.refused()
    expect(firstTry).toBeGreaterThan(0)
    // The listing's price is the old one again in the row behind the field.
    expect(sandbox().state.sellRequest(target.id)!.priceCents).toBe(target.priceCents)

    // Corrected: the reason goes with the text it was about; the corrected value is sent (and refused again here).
    const corrected = ((target.priceCents + 1) / 100).toFixed(2)
    await input.fill(corrected)
    await expect(page.getByTestId('inline-price-error')).toHaveCount(0)
    await input.press('Enter')
    await expect(input).toHaveValue(corrected)
    await expect(page.getByTestId('inline-price-error')).toContainText(rule)
    const secondTry = proxy.refused()
    expect(secondTry).toBeGreaterThan(firstTry)

    // Leaving the refused value (a click elsewhere) drops it and says why, sending nothing more.
    await rowOf(page, target).getByTestId('inline-quantity').click()
    await expect(page.getByText(`Price of “${target.name}” (${target.sku}) not changed: The marketplace refused the request (HTTP 422)`)).toBeVisible()
    await expect(input).toHaveCount(0)
    await page.getByTestId('inline-quantity-input').press('Escape')
    expect(proxy.refused()).toBe(secondTry)
    const shown = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(target.priceCents / 100)
    await expect(rowOf(page, target).getByTestId('inline-price')).toHaveText(shown)
  } finally {
    proxy.server.closeAllConnections()
    await new Promise((done) => proxy.server.close(done))
  }
})
