/**
 * Online or offline, as the marketplace's answers say. A network error or timeout on any call means
 * offline; any answer from the server (even an error status) means online. While offline a cheap probe
 * runs with growing intervals until the server answers again.
 */
import { SellerDeskError } from '../../shared/errors'
import type { CallOptions, SellerApi } from '../sellerApi'

export interface ConnectivityState {
  online: boolean
  /**
   * Since when the marketplace has not answered (ISO), null while online: when a call first failed,
   * or, offline from the start, when it last answered before (a restart does not move it).
   */
  offlineSince: string | null
}

export interface Connectivity {
  state(): ConnectivityState
  /** Record the outcome of a call to the marketplace. */
  report(error: unknown): void
  stop(): void
}

const OFFLINE_KINDS = new Set(['network', 'timeout'])

export const isOfflineError = (error: unknown) => error instanceof SellerDeskError && OFFLINE_KINDS.has(error.kind)

export function createConnectivity(options: {
  probe: () => Promise<unknown>
  onChange: (state: ConnectivityState) => void
  firstProbeMs?: number
  maxProbeMs?: number
  now?: () => number
  /** When the marketplace last answered before this session began (ISO), if known. */
  answeredBefore?: () => string | null
}): Connectivity {
  const firstProbeMs = options.firstProbeMs ?? 3_000
  // A seller waiting to apply notices a marketplace that is back within this long: a probe is one small
  // request, so a few a minute cost the marketplace nothing (a longer wait left Apply off for most of one).
  const maxProbeMs = options.maxProbeMs ?? 15_000
  const now = options.now ?? Date.now
  let state: ConnectivityState = { online: true, offlineSince: null }
  let timer: ReturnType<typeof setTimeout> | null = null
  let delay = firstProbeMs
  let stopped = false
  let answered = false

  function set(online: boolean) {
    if (online) answered = true
    if (online === state.online) return
    const since = answered ? null : (options.answeredBefore?.() ?? null)
    state = { online, offlineSince: online ? null : (since ?? new Date(now()).toISOString()) }
    if (online) {
      if (timer) clearTimeout(timer)
      timer = null
      delay = firstProbeMs
    } else {
      schedule()
    }
    options.onChange(state)
  }

  function schedule() {
    if (stopped || timer) return
    timer = setTimeout(() => {
      timer = null
      options.probe().then(
        () => set(true),
        (error: unknown) => {
          if (!isOfflineError(error)) return set(true) // the server answered
          delay = Math.min(delay * 2, maxProbeMs)
          schedule()
        }
      )
    }, delay)
    timer.unref?.()
  }

  return {
    state: () => state,
    report(error) {
      if (error === null || error === undefined) set(true)
      else if (isOfflineError(error)) set(false)
      else if (error instanceof SellerDeskError) set(true)
    },
    stop() {
      stopped = true
      if (timer) clearTimeout(timer)
    }
  }
}

/** The same API, with every call's outcome reported to `connectivity`. */
export function observedApi(api: SellerApi, connectivity: Connectivity): SellerApi {
  const watch = async <T>(call: Promise<T>): Promise<T> => {
    try {
      const result = await call
      connectivity.report(null)
      return result
    } catch (error) {
      connectivity.report(error)
      throw error
    }
  }
  return {
    baseUrl: api.baseUrl,
    useOrderTimeZone: (zone) => api.useOrderTimeZone(zone),
    listOrders: (query, options?: CallOptions) => watch(api.listOrders(query, options)),
    listSellRequests: (query, options?: CallOptions) => watch(api.listSellRequests(query, options)),
    editSellRequest: (id, change, options, current) => watch(api.editSellRequest(id, change, options, current)),
    deleteSellRequest: (id, options?: CallOptions) => watch(api.deleteSellRequest(id, options))
  }
}
