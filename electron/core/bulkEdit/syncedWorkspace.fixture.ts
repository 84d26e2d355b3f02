/**
 * For tests: a workspace on a marketplace account (the tests' demo sandbox), in a fresh user-data
 * folder, synced once (the bulk-edit tests' common start).
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AppSettings } from '../../shared/contract'
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
