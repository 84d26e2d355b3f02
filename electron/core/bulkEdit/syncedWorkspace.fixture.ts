/**
 * For tests: a workspace on a marketplace account (the tests' demo sandbox), in a fresh user-data
 * folder, synced once (the bulk-edit and order tests' common start), and every order its list shows.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AppSettings } from '../../shared/contract'
import type { Order } from '../../shared/domain'
import { createSellerApi } from '../sellerApi'
import { openWorkspace, type Workspace } from '../workspace'

export async function syncedWorkspace(marketplace: { baseUrl: string }, apiKey: string, name: string): Promise<Workspace> {
  const workspace = openWorkspace({
    userDataDir: mkdtempSync(join(tmpdir(), `seller-desk-${name}-`)),
    account: { demo: false, baseUrl: marketplace.baseUrl, sellerId: `seller-${name}` },
    api: createSellerApi({ baseUrl: marketplace.baseUrl, apiKey }),
    settings: () => ({ syncIntervalMinutes: 5, historyDays: 30, notifyNewOrders: false }) as AppSettings,
    emit: () => {}
  })
  await workspace.sync.sync()
  return workspace
}

/** Every order a list query matches, page after page, as the Orders list shows them. */
export async function everyListedOrder(workspace: Workspace, query: Omit<Parameters<Workspace['listOrders']>[0], 'page' | 'take'>): Promise<Order[]> {
  const found: Order[] = []
  for (let page = 1; ; page++) {
    const { rows } = await workspace.listOrders({ ...query, page, take: 100 })
    found.push(...rows)
    if (rows.length < 100) return found
  }
}
