/**
 * The browser-preview bridge: implements the preload's SellerDeskBridge over loopback HTTP to the
 * preview host (electron/preview/host.ts). The host hands the page a per-run token in the URL fragment;
 * it is kept in sessionStorage so a reload keeps working, and sent with every call.
 */
import { callBodyContentType, encodeCallBody } from '@shared/callBody'
import type { CallInput, CallName, CallResult, EventName, Events, Outcome, SellerDeskBridge } from '@shared/contract'

const TOKEN_KEY = 'seller-desk-preview-token'
/** Characters, not bytes: a quarter of the browser's keepalive budget leaves room for any UTF-8. */
const KEEPALIVE_MAX_CHARS = 16_000

function previewToken(): string {
  const fromFragment = new URLSearchParams(location.hash.slice(1)).get('token')
  if (fromFragment) {
    sessionStorage.setItem(TOKEN_KEY, fromFragment)
    history.replaceState(null, '', location.pathname + location.search)
    return fromFragment
  }
  return sessionStorage.getItem(TOKEN_KEY) ?? ''
}

export function createPreviewBridge(): SellerDeskBridge {
  const token = previewToken()
  const listeners = new Map<EventName, Set<(payload: unknown) => void>>()
  let source: EventSource | null = null
  const noticesUnheard: unknown[] = []

  function ensureEvents() {
    if (source) return
    source = new EventSource(`/events?token=${encodeURIComponent(token)}`)
    source.onmessage = (message) => {
      const { event, payload } = JSON.parse(message.data as string) as { event: EventName; payload: unknown }
      const heard = listeners.get(event)
      if (heard?.size) heard.forEach((listener) => listener(payload))
      // The stream opens with the first listener of any event; a notice it brings (one the host kept
      // while no page was open) waits for the page's notice listener.
      else if (event === 'notice') noticesUnheard.push(payload)
    }
  }

  return {
    async invoke<N extends CallName>(name: N, input: CallInput<N>): Promise<Outcome<CallResult<N>>> {
      try {
        // JSON text, or a frame when the input carries bytes (a file to import): shared/callBody.ts.
        const body = encodeCallBody(input)
        const small = body.length < KEEPALIVE_MAX_CHARS
        const response = await fetch(`/rpc/${encodeURIComponent(name)}`, {
          method: 'POST',
          headers: { 'content-type': callBodyContentType(body), 'x-preview-token': token },
          // A large text (a paste's thousands of cells) goes as a Blob: fetch takes a string's copy on this
          // thread, several times longer than making the Blob, and it arrives sooner too.
          body: small || typeof body !== 'string' ? body : new Blob([body]),
          // A small call made as the page goes away (a reload) still arrives, as an IPC message would;
          // the browser allows keepalive only for bodies under 64 KiB.
          keepalive: small
        })
        if (response.status === 401 || response.status === 403) {
          return {
            ok: false,
            error: {
              kind: 'not-signed-in',
              message: 'This page is not connected to Seller Desk. Open the address printed by npm start (it carries a one-time key for this run).'
            }
          }
        }
        if (!response.headers.get('content-type')?.includes('application/json')) {
          return {
            ok: false,
            error: { kind: 'internal', message: `The Seller Desk preview host answered HTTP ${response.status}. Restart it with npm start.` }
          }
        }
        return (await response.json()) as Outcome<CallResult<N>>
      } catch {
        return { ok: false, error: { kind: 'internal', message: 'The Seller Desk preview host is not running. Start it again with npm start.' } }
      }
    },
    on<E extends EventName>(event: E, listener: (payload: Events[E]) => void) {
      ensureEvents()
      const set = listeners.get(event) ?? new Set()
      set.add(listener as (payload: unknown) => void)
      listeners.set(event, set)
      if (event === 'notice') for (const notice of noticesUnheard.splice(0)) listener(notice as Events[E])
      return () => set.delete(listener as (payload: unknown) => void)
    }
  }
}
