/**
 * The core as the window calls it, with two marketplace accounts: calls that belong to one account
 * name it, and are refused once another account is open. A window saves the view it was showing
 * as the seller leaves an account; that save must never become the next account's remembered view.
 * Nor may a paste (or any change to the change set) in flight across a switch be staged on the next account,
 * nor a retry, resume or cancel of a batch act on the next account's batches, nor the batches' status,
 * history or results read for one account be shown as the next one's.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../sandbox'
import type { Page } from '../shared/domain'
import {
  accountKeyOf,
  type BatchStatus,
  type BulkStatus,
  type GridRowsPage,
  type SessionInfo,
  type StagedChangeView,
  type WorkspacePreferences
} from '../shared/contract'
import { gridRow } from '../shared/gridRow'
import { createSessionSecretStore } from './secrets/secretStore'
import { createSellerDesk, type SellerDesk } from './sellerDesk'

const KEY_A = 'sk_live_unit_sellerDesk_A_1'
const KEY_B = 'sk_live_unit_sellerDesk_B_2'
let a: Sandbox
let b: Sandbox
let dir: string
let desk: SellerDesk

beforeAll(async () => {
  a = await startSandbox({ apiKey: KEY_A, orders: 3, sellRequests: 3, seed: 1 })
  b = await startSandbox({ apiKey: KEY_B, orders: 3, sellRequests: 3, seed: 2 })
  dir = mkdtempSync(join(tmpdir(), 'seller-desk-desk-'))
  desk = await createSellerDesk({
    userDataDir: dir,
    secrets: { store: createSessionSecretStore(), notice: null },
    app: { name: 'Seller Desk', version: '0.0.0-test', platform: 'linux', runtime: 'preview', dateLocale: 'en-US' },
    emit: () => undefined,
    startDemoMarketplace: () => Promise.reject(new Error('no demo in this test')),
    autoSync: false
  })
  await desk.session.restore()
})

afterAll(async () => {
  await desk.dispose()
  await a.close()
  await b.close()
  rmSync(dir, { recursive: true, force: true })
})

async function call<T>(name: string, input: unknown): Promise<T> {
  const outcome = await desk.router.dispatch(name, input)
  if (!outcome.ok) throw Object.assign(new Error(outcome.error.message), outcome.error)
  return outcome.value as T
}

it('preferences are read and saved only for the account the call names: a save for the account just left is refused and changes nothing', async () => {
  const infoA = await call<SessionInfo>('session.signIn', { baseUrl: a.baseUrl, apiKey: KEY_A })
  const accountA = accountKeyOf(infoA)
  await call('preferences.set', { account: accountA, preferences: { view: 'settings' } })

  const infoB = await call<SessionInfo>('session.signIn', { baseUrl: b.baseUrl, apiKey: KEY_B })
  const accountB = accountKeyOf(infoB)
  expect(accountB).not.toBe(accountA)
  await call('preferences.set', { account: accountB, preferences: { view: 'orders' } })

  // Back to A: a save B's window makes on its way out (the landing view) is refused, A's view is kept.
  await call('accounts.switch', { baseUrl: a.baseUrl })
  await expect(call('preferences.set', { account: accountB, preferences: { view: 'dashboard' } })).rejects.toMatchObject({ kind: 'not-signed-in' })
  await expect(call('preferences.get', { account: accountB })).rejects.toMatchObject({ kind: 'not-signed-in' })
  expect(await call<WorkspacePreferences>('preferences.get', { account: accountA })).toEqual({ view: 'settings' })

  // B's own view was not touched either.
  await call('accounts.switch', { baseUrl: b.baseUrl })
  expect(await call<WorkspacePreferences>('preferences.get', { account: accountB })).toEqual({ view: 'orders' })

  // A call without its account is bad input.
  await expect(call('preferences.get', {})).rejects.toMatchObject({ kind: 'invalid-input' })
})

it('a change to the change set made for the account just left is refused and changes nothing: neither the open account’s change set nor the one left', async () => {
  const accountA = accountKeyOf(await call<SessionInfo>('session.signIn', { baseUrl: a.baseUrl, apiKey: KEY_A }))
  await call('sync.run', { kind: 'full' })
  const [listingA] = (await call<GridRowsPage>('bulk.gridRows', {})).rows
  await call('bulk.stage', { account: accountA, changes: [{ sellRequestId: gridRow.id(listingA!), quantity: 7 }] })

  const accountB = accountKeyOf(await call<SessionInfo>('session.signIn', { baseUrl: b.baseUrl, apiKey: KEY_B }))
  await call('sync.run', { kind: 'full' })
  const [listingB] = (await call<GridRowsPage>('bulk.gridRows', {})).rows
  await call('bulk.stage', { account: accountB, changes: [{ sellRequestId: gridRow.id(listingB!), quantity: 9 }] })
  const changesNow = () => call<Page<StagedChangeView>>('bulk.changes', {})
  const stagedOnB = await changesNow()
  const statusOfB = await call<BulkStatus>('bulk.status', { account: accountB })
  expect(stagedOnB.rows.map(({ sellRequestId, after }) => [sellRequestId, after])).toEqual([[gridRow.id(listingB!), 9]])

  // Every call that changes the change set, made for A (a paste, an undo, an import… in flight as the seller switched to B).
  const refused = (name: string, input: Record<string, unknown>) =>
    expect(call(name, { account: accountA, ...input }), name).rejects.toMatchObject({
      kind: 'not-signed-in',
      message: 'That account is no longer the one open in Seller Desk, so its pending changes were left as they are.'
    })
  await refused('bulk.stage', { changes: [{ sellRequestId: gridRow.id(listingB!), quantity: 1 }] })
  await refused('bulk.stage', { changes: [{ sellRequestId: gridRow.id(listingA!), quantity: 1 }] })
  await refused('bulk.operation', { selection: { all: true }, operation: { kind: 'setQuantity', quantity: 2 } })
  await refused('bulk.undo', {})
  await refused('bulk.redo', {})
  await refused('bulk.discard', {})
  await refused('bulk.setRules', { priceChangePercent: 1, priceFloorCents: null, quantityCutPercent: 1 })
  await refused('bulk.importFile', { fileName: 'a.csv', bytes: new TextEncoder().encode(`id,quantity\n${gridRow.id(listingB!)},3\n`) })
  await refused('bulk.apply', { confirmed: true })
  await refused('bulk.undoBatch', { batchId: '00000000-0000-4000-8000-000000000000' })

  // B's change set is as it was: the same change, the same counts and rules, nothing applied.
  expect(await changesNow()).toEqual(stagedOnB)
  expect(await call<BulkStatus>('bulk.status', { account: accountB })).toEqual(statusOfB)

  // Nor did any of it reach A: A's own change is all A holds.
  await call('accounts.switch', { baseUrl: a.baseUrl })
  expect((await changesNow()).rows.map(({ sellRequestId, after }) => [sellRequestId, after])).toEqual([[gridRow.id(listingA!), 7]])

  // A change-set call without its account is bad input.
  await expect(call('bulk.undo', {})).rejects.toMatchObject({ kind: 'invalid-input' })
})

it('a retry, resume or cancel of a batch made for the account just left is refused and changes nothing; for the open account it acts on that account’s batch', async () => {
  const accountA = accountKeyOf(await call<SessionInfo>('session.signIn', { baseUrl: a.baseUrl, apiKey: KEY_A }))
  await call('bulk.discard', { account: accountA })
  const [listing] = (await call<GridRowsPage>('bulk.gridRows', {})).rows
  await call('bulk.stage', { account: accountA, changes: [{ sellRequestId: gridRow.id(listing!), quantity: 5 }] })
  // Deleted on the marketplace before it is sent: the change fails, and is there to retry.
  a.state.deleteSellRequest(gridRow.id(listing!))
  const applied = await call<BatchStatus>('bulk.apply', { account: accountA, confirmed: true })
  const ended = async () => {
    for (let i = 0; i < 200 && (await call<BulkStatus>('bulk.status', { account: accountA })).running; i++)
      await new Promise((resolve) => setTimeout(resolve, 20))
  }
  await ended()
  const historyOf = (account: string) => call<BatchStatus[]>('bulk.history', { account })
  const [failedOnA] = await historyOf(accountA)
  expect(failedOnA).toMatchObject({ id: applied.id, failed: 1, pending: 0, running: false })

  const accountB = accountKeyOf(await call<SessionInfo>('session.signIn', { baseUrl: b.baseUrl, apiKey: KEY_B }))
  const historyOfB = await historyOf(accountB)
  const statusOfB = await call<BulkStatus>('bulk.status', { account: accountB })
  const refused = (name: string) =>
    expect(call(name, { account: accountA, batchId: applied.id }), name).rejects.toMatchObject({
      kind: 'not-signed-in',
      message: 'That account is no longer the one open in Seller Desk, so its batches of changes were left as they are.'
    })
  await refused('bulk.retryFailed')
  await refused('bulk.resume')
  await refused('bulk.cancel')
  // Named with the open account, A's batch is none of B's.
  for (const name of ['bulk.retryFailed', 'bulk.resume', 'bulk.cancel']) {
    await expect(call(name, { account: accountB, batchId: applied.id }), name).rejects.toMatchObject({
      kind: 'not-found',
      message: 'That batch of changes is not on this computer for this account.'
    })
  }
  // A batch call without its account is bad input.
  await expect(call('bulk.retryFailed', { batchId: applied.id })).rejects.toMatchObject({ kind: 'invalid-input' })
  expect(await historyOf(accountB)).toEqual(historyOfB)
  expect(await call<BulkStatus>('bulk.status', { account: accountB })).toEqual(statusOfB)

  // A's batch is as it ended; named with A, open, the retry sends its failed change again.
  await call('accounts.switch', { baseUrl: a.baseUrl })
  expect((await historyOf(accountA))[0]).toEqual(failedOnA)
  const retried = await call<BatchStatus>('bulk.retryFailed', { account: accountA, batchId: applied.id })
  expect(retried).toMatchObject({ id: applied.id, running: true, failed: 0, pending: 1 })
  await ended()
  expect((await historyOf(accountA))[0]).toMatchObject({ id: applied.id, failed: 1, pending: 0, running: false })
  await expect(call('bulk.resume', { account: accountA, batchId: applied.id })).rejects.toMatchObject({
    kind: 'invalid-input',
    message: 'Every change of this batch has been sent already.'
  })
  expect(await call<BatchStatus>('bulk.cancel', { account: accountA, batchId: applied.id })).toMatchObject({ id: applied.id, running: false, failed: 1 })
})

it('the batches’ status, history, results and unapplied changes are read only for the account the call names: for the account just left they are refused, and the open account’s are not told of its batches', async () => {
  const accountA = accountKeyOf(await call<SessionInfo>('session.signIn', { baseUrl: a.baseUrl, apiKey: KEY_A }))
  await call('bulk.discard', { account: accountA })
  const [listing] = (await call<GridRowsPage>('bulk.gridRows', {})).rows
  await call('bulk.stage', { account: accountA, changes: [{ sellRequestId: gridRow.id(listing!), quantity: 4 }] })
  const batch = await call<BatchStatus>('bulk.apply', { account: accountA, confirmed: true })
  for (let i = 0; i < 200 && (await call<BulkStatus>('bulk.status', { account: accountA })).running; i++)
    await new Promise((resolve) => setTimeout(resolve, 20))
  const rowsOfA = await call<Page<unknown>>('bulk.batchRows', { account: accountA, batchId: batch.id })
  expect(rowsOfA.total).toBe(1)
  const historyOfA = await call<BatchStatus[]>('bulk.history', { account: accountA })
  expect(historyOfA[0]).toMatchObject({ id: batch.id, pending: 0 })

  // B open: what a window asked for A as the seller switched is refused, and B's own are as they were.
  const accountB = accountKeyOf(await call<SessionInfo>('session.signIn', { baseUrl: b.baseUrl, apiKey: KEY_B }))
  const statusOfB = await call<BulkStatus>('bulk.status', { account: accountB })
  const historyOfB = await call<BatchStatus[]>('bulk.history', { account: accountB })
  const refused = (name: string, input: Record<string, unknown>) =>
    expect(call(name, { account: accountA, ...input }), name).rejects.toMatchObject({
      kind: 'not-signed-in',
      message: 'That account is no longer the one open in Seller Desk, so its batches of changes were left as they are.'
    })
  await refused('bulk.status', {})
  await refused('bulk.history', { limit: 5 })
  await refused('bulk.batchRows', { batchId: batch.id })
  await refused('bulk.unappliedChanges', { batchId: batch.id })
  // Named with the open account, A's batch is none of B's: not found, not an empty page.
  await expect(call('bulk.batchRows', { account: accountB, batchId: batch.id })).rejects.toMatchObject({
    kind: 'not-found',
    message: 'That batch of changes is not on this computer for this account.'
  })
  await expect(call('bulk.unappliedChanges', { account: accountB, batchId: batch.id })).rejects.toMatchObject({ kind: 'not-found' })
  expect(historyOfB.map(({ id }) => id)).not.toContain(batch.id)
  // Without their account they are bad input.
  for (const [name, input] of [
    ['bulk.status', {}],
    ['bulk.history', { limit: 5 }],
    ['bulk.batchRows', { batchId: batch.id }],
    ['bulk.unappliedChanges', { batchId: batch.id }]
  ] as const)
    await expect(call(name, input), name).rejects.toMatchObject({ kind: 'invalid-input' })
  expect(await call<BulkStatus>('bulk.status', { account: accountB })).toEqual(statusOfB)
  expect(await call<BatchStatus[]>('bulk.history', { account: accountB })).toEqual(historyOfB)

  // Back on A, its batch reads as before.
  await call('accounts.switch', { baseUrl: a.baseUrl })
  expect(await call<BatchStatus[]>('bulk.history', { account: accountA })).toEqual(historyOfA)
  expect(await call<Page<unknown>>('bulk.batchRows', { account: accountA, batchId: batch.id })).toEqual(rowsOfA)
  expect(await call('bulk.unappliedChanges', { account: accountA, batchId: batch.id })).toEqual({ total: 0, changes: [] })
})
