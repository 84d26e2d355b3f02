/**
 * Who the seller is signed in as, and to which marketplace. The API key only passes through `signIn`
 * on its way to the main side: it is never kept here, in storage or anywhere else in the renderer.
 */
import { accountKeyOf } from '@shared/accountKey'
import type { SessionInfo } from '@shared/contract'
import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import { call, ContractError, messageOf } from '../bridge/sellerDesk'

export const useSessionStore = defineStore('session', () => {
  const info = ref<SessionInfo | null>(null)
  /** The first `session.get` is under way. */
  const loading = ref(false)
  /** Why the first `session.get` failed (the app cannot tell whether the seller is signed in). */
  const loadError = ref<string | null>(null)
  /** Signing in, starting the demo or signing out. */
  const busy = ref(false)
  /** Why the last sign-in, demo start or sign-out failed. */
  const error = ref<string | null>(null)
  /** Its kind ('auth': the key was refused), null for none or one without a kind. */
  const errorKind = ref<ContractError['kind'] | null>(null)
  /** The seller is adding another marketplace account: sign-in shows while the current account stays signed in. */
  const adding = ref(false)

  const signedIn = computed(() => info.value?.signedIn === true)
  const demo = computed(() => info.value?.demo === true)
  /**
   * Which marketplace account the data on screen belongs to; changes whenever the seller signs in,
   * out, or switches marketplace, so lists can drop what they hold. Calls that belong to one account name it with this.
   */
  const identity = computed(() => (info.value?.signedIn ? accountKeyOf(info.value) : null))
  /** The marketplace's host as the header shows it ("market.example.com"), or the address when it has none. */
  const marketplaceHost = computed(() => {
    const url = info.value?.baseUrl
    if (!url) return ''
    try {
      return new URL(url).host || url
    } catch {
      return url
    }
  })

  function apply(next: SessionInfo) {
    info.value = next
    if (!next.signedIn) adding.value = false
  }

  async function load() {
    loading.value = true
    loadError.value = null
    try {
      apply(await call('session.get', {}))
    } catch (e) {
      loadError.value = messageOf(e)
    } finally {
      loading.value = false
    }
  }

  /** Runs one session change; returns whether it succeeded (the reason is in `error`). */
  async function change(run: () => Promise<SessionInfo>): Promise<boolean> {
    busy.value = true
    error.value = null
    errorKind.value = null
    try {
      apply(await run())
      return true
    } catch (e) {
      error.value = messageOf(e)
      errorKind.value = e instanceof ContractError ? e.kind : null
      return false
    } finally {
      busy.value = false
    }
  }

  /** A change that, once done, ends adding an account. */
  async function changeAccount(run: () => Promise<SessionInfo>): Promise<boolean> {
    const ok = await change(run)
    if (ok) adding.value = false
    return ok
  }

  const signIn = (baseUrl: string, apiKey: string) => changeAccount(() => call('session.signIn', { baseUrl, apiKey }))
  const startDemo = () => changeAccount(() => call('session.startDemo', {}))
  const signOut = () => change(() => call('session.signOut', {}))
  /** Signs in to another saved account with its stored key. */
  const switchAccount = (baseUrl: string) => changeAccount(() => call('accounts.switch', { baseUrl }))
  /** Forgets an account and its key (signs out when it is the current one). */
  const removeAccount = (baseUrl: string) => change(() => call('accounts.remove', { baseUrl }))

  /**
   * Whether a call that named `account` (see `identity`) was refused because that account is no longer
   * the open one (the core's 'not-signed-in' for such a call): the seller switched accounts or signed out
   * while it was under way, which is expected, not a failure to show. The refusal can arrive before the
   * window hears of the change: the session is then read afresh (and put in place) to tell.
   */
  async function leftAccount(error: unknown, account: string): Promise<boolean> {
    if (!(error instanceof ContractError) || error.kind !== 'not-signed-in') return false
    if (identity.value === account) {
      try {
        apply(await call('session.get', {}))
      } catch {
        return false
      }
    }
    return identity.value !== account
  }

  /** Shows sign-in to add another account, without signing out of this one. */
  function startAdding() {
    error.value = null
    adding.value = true
  }
  function cancelAdding() {
    error.value = null
    adding.value = false
  }
  /** The seller changed what the last message was about (typing in sign-in's fields): it no longer applies. */
  function dismissError() {
    if (!busy.value) error.value = null
  }

  return {
    info,
    errorKind,
    loading,
    loadError,
    busy,
    error,
    dismissError,
    adding,
    signedIn,
    demo,
    identity,
    marketplaceHost,
    apply,
    leftAccount,
    load,
    signIn,
    startDemo,
    signOut,
    switchAccount,
    removeAccount,
    startAdding,
    cancelAdding
  }
})
