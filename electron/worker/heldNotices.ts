/**
 * Notices said while no page listens (as the app starts, before the window has loaded; while the
 * preview has no page open) wait for the first page that does, instead of being lost: a snapshot set
 * aside or an apply cut off by the last quit is said once, as the core opens the account, usually
 * before any page is there to hear it. Electron's main process and the preview host both use this.
 */
import type { Events } from '../shared/contract'

export type Notice = Events['notice']

/** At most this many wait (the latest); a page that never comes should not make them pile up. */
export const MAX_HELD_NOTICES = 20

export interface HeldNotices {
  /** Delivers the notice if a page listens, or keeps it for the next one that does. */
  say(notice: Notice): void
  /** A page listens now: what waited is delivered, in order, marked to stay until closed. */
  heard(): void
  /** No page listens any more: notices wait again. */
  unheard(): void
}

export function holdNotices(deliver: (notice: Notice) => void): HeldNotices {
  let listening = false
  const waiting: Notice[] = []
  return {
    say(notice) {
      if (listening) return deliver(notice)
      waiting.push(notice)
      if (waiting.length > MAX_HELD_NOTICES) waiting.shift()
    },
    heard() {
      listening = true
      for (const notice of waiting.splice(0)) deliver({ ...notice, untilClosed: true })
    },
    unheard() {
      listening = false
    }
  }
}
