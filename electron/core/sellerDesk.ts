/**
 * Seller Desk's main side, assembled: session, settings, the signed-in account's workspace (snapshot +
 * sync), and the router. Runs unchanged in Electron's main process, in the browser-preview host and
 * under Vitest. The caller brings what differs per runtime: the chosen secret store, where user data
 * lives, and how events reach the renderer.
 */
import { accountKeyOf, type AppInfo, type ChangeSetState, type ChangeSetSummary, type EventName, type Events } from '../shared/contract'
import type { BulkEdit } from './bulkEdit/bulkEdit'
import { SellerDeskError } from '../shared/errors'
import { isAllowedExternalUrl } from '../shared/externalLinks'
import { createRouter, type Router } from './router'
import type { SecretStoreChoice } from './secrets/chooseSecretStore'
import { createSession, type Account, type DemoMarketplace, type Session } from './session/session'
import type { SellerApiOptions } from './sellerApi'
import { openAppSettings, type AppSettingsStore } from './settings/appSettings'
import type { SyncSettings } from './sync/syncEngine'
import type { IntegrityCheck } from './snapshot/snapshot'
import { openWorkspace, type Workspace } from './workspace'

/** How long a restored account's first sync waits, so the first screen comes from the snapshot. */
const STARTUP_SYNC_DELAY_MS = 2_000

/**
 * A change to the change set (an undo, a redo or a discard made over several turns included), answered
 * once it is made with the counts and the cell marks it changed (the grid needs both).
 */
async function changeSetState(workspace: Workspace, change: (bulk: BulkEdit) => ChangeSetSummary | Promise<ChangeSetSummary>): Promise<ChangeSetState> {
  const summary = await change(workspace.bulk)
  return { summary, ...workspace.bulk.marksSince() }
}

export type Emit = <E extends EventName>(event: E, payload: Events[E]) => void

export interface SellerDeskOptions {
  userDataDir: string
  secrets: SecretStoreChoice
  app: AppInfo
  emit: Emit
  /** Starts the built-in demo marketplace (the runtime brings it: the core never imports the sandbox). */
  startDemoMarketplace: () => Promise<DemoMarketplace>
  apiOptions?: Omit<SellerApiOptions, 'baseUrl' | 'apiKey'>
  syncEngine?: Partial<SyncSettings>
  /** Start syncing as soon as an account is signed in (default true; tests may drive sync themselves). */
  autoSync?: boolean
  /**
   * Opens an allowed https page in the seller's default browser (Electron: shell.openExternal). Without
   * it (the browser preview) `shell.openExternal` checks the address and answers `opened: false`.
   */
  openExternal?: (url: string) => Promise<void>
  /** Called with errors that are bugs (not seller-facing failures). Never given the key. */
  onUnexpectedError?: (where: string, error: unknown) => void
}

export interface SellerDesk {
  router: Router
  session: Session
  settings: AppSettingsStore
  /** The signed-in account's workspace, or null. */
  workspace(): Workspace | null
  dispose(): Promise<void>
}

export async function createSellerDesk(options: SellerDeskOptions): Promise<SellerDesk> {
  const settings = await openAppSettings(options.userDataDir)
  let workspace: Workspace | null = null

  /**
   * Workspaces open and close one after the other: a closing one finishes recording the bulk-edit
   * answers in flight before the next opens the same account's file. Calls wait for the switch.
   */
  let switching: Promise<void> = Promise.resolve()
  const sameAccount = (a: Account, b: Account) => a.baseUrl === b.baseUrl && a.demo === b.demo && a.sellerId === b.sellerId

  /** A step of opening or closing workspaces, one after the other (see `switching`); a failure is said. */
  function inTurn(step: () => Promise<void>): Promise<void> {
    switching = switching.then(step).catch(() => {
      options.emit('notice', {
        level: 'error',
        message: 'Seller Desk could not open this account’s saved data. Sign out and in again; if it keeps failing, restart the app.'
      })
    })
    return switching
  }

  function openFor(account: Account, integrity: IntegrityCheck): Workspace {
    const opened = openWorkspace({
      userDataDir: options.userDataDir,
      account,
      api: session.api(),
      settings: () => settings.get(),
      emit: options.emit,
      integrity,
      ...(options.syncEngine ? { syncEngine: options.syncEngine } : {})
    })
    // A snapshot that already holds data is shown first and refreshed a moment later; an empty one syncs at once.
    const hasData = opened.sync.status().lastSyncedAt !== null
    if (options.autoSync !== false) opened.sync.start(hasData ? STARTUP_SYNC_DELAY_MS : 0)
    return opened
  }

  /**
   * Opens the account's snapshot at once, its file checked in full meanwhile (IntegrityCheck 'later'):
   * one found damaged then (or that cannot even be opened so) is opened again checked first, which sets
   * it aside with a notice and starts afresh, as a file found damaged as it opens always is.
   */
  function openChecked(account: Account): Workspace {
    let opened: Workspace
    try {
      opened = openFor(account, 'later')
    } catch {
      return openFor(account, 'now')
    }
    void opened.snapshot.integrity.then((problem) => {
      if (problem === null) return
      void inTurn(async () => {
        if (workspace !== opened) return // closed or switched meanwhile
        workspace = null
        await opened.close().catch(() => {})
        workspace = openFor(opened.account, 'now')
      })
    })
    return opened
  }

  function switchWorkspace(): Promise<void> {
    return inTurn(async () => {
      const account = session.account()
      if (workspace && account && sameAccount(workspace.account, account)) return
      const closing = workspace
      workspace = null
      await closing?.close()
      const now = session.account()
      if (!account || !now || !sameAccount(now, account)) return // signed out, or another switch is queued
      workspace = openChecked(account)
    })
  }

  const session = createSession({
    userDataDir: options.userDataDir,
    secrets: options.secrets,
    startDemoMarketplace: options.startDemoMarketplace,
    onChange: (info) => {
      void switchWorkspace()
      options.emit('session.changed', info)
    },
    onNotice: (message) => options.emit('notice', { level: 'warning', message }),
    ...(options.apiOptions ? { apiOptions: options.apiOptions } : {})
  })

  settings.onChange((next) => {
    workspace?.sync.settingsChanged()
    options.emit('settings.changed', next)
  })

  const open = async (): Promise<Workspace> => {
    await switching
    if (!workspace) throw new SellerDeskError('not-signed-in', 'You are signed out. Sign in to a marketplace or explore the demo.')
    return workspace
  }

  /**
   * The workspace of the account a call names (see `accountKeyOf`), for the calls that belong to one
   * account (its preferences, its change set): refused, before anything is read or changed, when another
   * account is open (or none), so a call the window made for the account it was leaving never reaches
   * the next one. `left` says what of that account stays as it is.
   */
  const openNamed = async (account: string, left: string): Promise<Workspace> => {
    const named = await open()
    if (accountKeyOf(named.account) !== account) {
      throw new SellerDeskError('not-signed-in', `That account is no longer the one open in Seller Desk, so ${left}.`)
    }
    return named
  }
  const openForSettings = (account: string) => openNamed(account, 'its settings were left as they are')
  const openForChanges = (account: string) => openNamed(account, 'its pending changes were left as they are')
  const openForBatch = (account: string) => openNamed(account, 'its batches of changes were left as they are')

  const router = createRouter(
    {
      'app.info': async () => options.app,
      'session.get': async () => {
        await session.restored()
        return session.info()
      },
      'session.signIn': ({ baseUrl, apiKey }) => session.signIn(baseUrl, apiKey),
      'session.startDemo': () => session.startDemo(),
      'session.signOut': () => session.signOut(),
      'accounts.list': async () => {
        await session.restored()
        return { accounts: session.accounts() }
      },
      'accounts.switch': ({ baseUrl }) => session.switchTo(baseUrl),
      'accounts.remove': ({ baseUrl }) => session.remove(baseUrl),
      'orders.list': async (query) => (await open()).listOrders(query),
      'sellRequests.list': async (query) => (await open()).listSellRequests(query),
      'sellRequests.edit': async ({ id, priceCents, quantity }) =>
        (await open()).editSellRequest(id, { ...(priceCents !== undefined ? { priceCents } : {}), ...(quantity !== undefined ? { quantity } : {}) }),
      'sellRequests.delete': async ({ id }) => (await open()).deleteSellRequest(id),
      'sellRequests.existing': async ({ ids }) => {
        const gone = new Set((await open()).snapshot.unknownIds('sellRequests', ids))
        return { ids: ids.filter((id) => !gone.has(id)) }
      },
      'filters.statuses': async () => (await open()).snapshot.statuses(),
      'sync.status': async () => (await open()).sync.status(),
      'sync.run': async ({ kind }) => (await open()).sync.sync(kind),
      'sync.cancel': async () => (await open()).sync.cancel(),
      'sync.windowFocused': async () => (await open()).sync.windowFocused(),
      'settings.get': async () => settings.get(),
      'settings.update': (patch) => settings.update(patch),
      'dashboard.get': async ({ timeZone }) => (await open()).dashboard(timeZone),
      'orders.exportCsv': async (query) => (await open()).exportOrdersCsv(query),
      'orders.exportXlsx': async (query) => (await open()).exportOrdersXlsx(query),
      'orders.timeZone': async ({ account }) => (await openForSettings(account)).orderTimeZone(),
      'orders.setTimeZone': async ({ account, zone }) => (await openForSettings(account)).setOrderTimeZone(zone),
      'sellRequests.facets': async () => (await open()).sellRequestFacets(),
      'shell.openExternal': async ({ url }) => {
        if (!isAllowedExternalUrl(url)) {
          throw new SellerDeskError(
            'invalid-input',
            'Seller Desk opens only secure (https) tracking pages of known carriers, and this address is not one of them.'
          )
        }
        if (!options.openExternal) return { opened: false }
        await options.openExternal(new URL(url).href) // exactly the address that was checked, normalised
        return { opened: true }
      },
      'preferences.get': async ({ account }) => (await openForSettings(account)).preferences(),
      'preferences.set': async ({ account, preferences }) => (await openForSettings(account)).savePreferences(preferences),
      // Answered with the sent cells' marks by their place (a paste's thousands, without ids).
      'bulk.stage': async ({ account, changes }) => {
        const { bulk } = await openForChanges(account)
        return { summary: bulk.stage(changes), ...bulk.marksOfSent(changes) }
      },
      'bulk.operation': async ({ account, selection, operation }) =>
        changeSetState(await openForChanges(account), (bulk) => bulk.operation(selection, operation)),
      'bulk.changes': async (query) => (await open()).bulk.changes(query),
      'bulk.preview': async () => (await open()).bulk.preview(),
      'bulk.undo': async ({ account }) => changeSetState(await openForChanges(account), (bulk) => bulk.undo()),
      'bulk.redo': async ({ account }) => changeSetState(await openForChanges(account), (bulk) => bulk.redo()),
      'bulk.discard': async ({ account }) => changeSetState(await openForChanges(account), (bulk) => bulk.discard()),
      'bulk.setRules': async ({ account, ...rules }) => changeSetState(await openForChanges(account), (bulk) => bulk.setRules(rules)),
      'bulk.apply': async ({ account, confirmed }) => (await openForChanges(account)).bulk.apply(confirmed),
      'bulk.cancel': async ({ account, batchId }) => (await openForBatch(account)).bulk.cancel(batchId),
      'bulk.retryFailed': async ({ account, batchId }) => (await openForBatch(account)).bulk.retryFailed(batchId),
      'bulk.resume': async ({ account, batchId }) => (await openForBatch(account)).bulk.resume(batchId),
      'bulk.status': async ({ account }) => (await openForBatch(account)).bulk.status(),
      'bulk.history': async ({ account, limit }) => (await openForBatch(account)).bulk.history(limit),
      'bulk.batchRows': async ({ account, ...query }) => (await openForBatch(account)).bulk.batchRows(query),
      'bulk.unappliedChanges': async ({ account, batchId, offset }) => (await openForBatch(account)).bulk.unappliedChanges(batchId, offset),
      'bulk.dismissUnapplied': async ({ account, batchId }) =>
        (await openNamed(account, 'its note of changes that did not apply was left as it is')).bulk.dismissUnapplied(batchId),
      'bulk.undoBatch': async ({ account, batchId }) => changeSetState(await openForChanges(account), (bulk) => bulk.undoBatch(batchId)),
      'bulk.importFile': async ({ account, fileName, bytes }) => (await openForChanges(account)).bulk.importFile(fileName, bytes),
      'bulk.exportFile': async ({ format, rows }) => (await open()).bulk.exportFile(format, rows),
      'bulk.gridRows': async (page) => (await open()).bulk.gridRows(page),
      'bulk.gridVersion': async () => ({ version: (await open()).bulk.gridVersion() }),
      'bulk.stagedCells': async (page) => (await open()).bulk.stagedCells(page)
    },
    options.onUnexpectedError
  )

  return {
    router,
    session,
    settings,
    workspace: () => workspace,
    async dispose() {
      await switching
      const closing = workspace
      workspace = null
      await closing?.close()
      await session.dispose()
    }
  }
}
