/**
 * Seller Desk's main side, assembled: session, Seller API, router. Runs unchanged in Electron's main
 * process, in the browser-preview host and under Vitest. The caller brings what differs per runtime:
 * the chosen secret store, where user data lives, and how events reach the renderer.
 */
import { startSandbox } from '../sandbox'
import type { AppInfo, EventName, Events } from './contract'
import type { Page } from './domain'
import { createRouter, type Router } from './router'
import type { SecretStoreChoice } from './secrets/chooseSecretStore'
import { createSession, type DemoMarketplace, type Session } from './session/session'
import type { SellerApiOptions } from './sellerApi'

export type Emit = <E extends EventName>(event: E, payload: Events[E]) => void

export interface SellerDeskOptions {
  userDataDir: string
  secrets: SecretStoreChoice
  app: AppInfo
  emit: Emit
  /** The built-in demo marketplace; default: the sandbox on 127.0.0.1 with its default seed. */
  startDemoMarketplace?: () => Promise<DemoMarketplace>
  apiOptions?: Omit<SellerApiOptions, 'baseUrl' | 'apiKey'>
  /** Called with errors that are bugs (not seller-facing failures). Never given the key. */
  onUnexpectedError?: (where: string, error: unknown) => void
}

export interface SellerDesk {
  router: Router
  session: Session
  dispose(): Promise<void>
}

export async function startDemoSandbox(): Promise<DemoMarketplace> {
  const sandbox = await startSandbox({ host: '127.0.0.1', port: 0, now: new Date() }) // today's demo orders are today's
  return { baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, close: () => sandbox.close() }
}

const page = <T>(rows: T[], total: number, query: { page: number; take: number }): Page<T> => ({
  rows,
  total,
  page: query.page,
  take: query.take
})

export function createSellerDesk(options: SellerDeskOptions): SellerDesk {
  const session = createSession({
    userDataDir: options.userDataDir,
    secrets: options.secrets,
    startDemoMarketplace: options.startDemoMarketplace ?? startDemoSandbox,
    onChange: (info) => options.emit('session.changed', info),
    ...(options.apiOptions ? { apiOptions: options.apiOptions } : {})
  })

  const router = createRouter(
    {
      'app.info': async () => options.app,
      'session.get': async () => session.info(),
      'session.signIn': ({ baseUrl, apiKey }) => session.signIn(baseUrl, apiKey),
      'session.startDemo': () => session.startDemo(),
      'session.signOut': () => session.signOut(),
      'orders.list': async (query) => {
        const { total, orders } = await session.api().listOrders(query)
        return page(orders, total, query)
      },
      'sellRequests.list': async (query) => {
        const { total, sellRequests } = await session.api().listSellRequests(query)
        return page(sellRequests, total, query)
      },
      'sellRequests.edit': ({ id, priceCents, quantity }) =>
        session.api().editSellRequest(id, {
          ...(priceCents !== undefined ? { priceCents } : {}),
          ...(quantity !== undefined ? { quantity } : {})
        }),
      'sellRequests.delete': ({ id }) => session.api().deleteSellRequest(id)
    },
    options.onUnexpectedError
  )

  return { router, session, dispose: () => session.dispose() }
}
