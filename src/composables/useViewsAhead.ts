/**
 * Gets views ready before the seller opens them, in idle time after the first paint of the component
 * that offers them, one after another (those to mount ahead first, each in the order given):
 * - views loaded on first use (defineAsyncComponent) have their code fetched and evaluated, so the app
 *   starts with a small bundle and a first switch does not wait for the parser;
 * - views with `mountAhead` are then mounted hidden (the caller decides how), so a first switch to
 *   them only has to show rows that are already there.
 * Each step waits until the calls in flight are answered: the view on screen waiting for its data
 * (the landing dashboard at start) shows it first, rather than after a hidden view's mount.
 */
import { onBeforeUnmount, onMounted, type Component } from 'vue'
import { callsAnswered } from '../bridge/sellerDesk'

/** defineAsyncComponent's wrapper keeps its loader here; calling it also makes the wrapper render at once. */
type AsyncWrapper = Component & { __asyncLoader?: () => Promise<unknown> }

export interface ViewAhead {
  view: Component
  mountAhead?: () => void
}

/** The next idle moment after a painted frame with no call waiting for its answer, or `timeoutMs` at the latest. */
async function idle(timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs
  await callsAnswered(timeoutMs)
  // (A timeout of 0 would mean none.)
  const left = Math.max(1, deadline - performance.now())
  return new Promise((resolve) =>
    requestAnimationFrame(() => {
      if (typeof requestIdleCallback === 'function') requestIdleCallback(() => resolve(), { timeout: left })
      else setTimeout(resolve, 0)
    })
  )
}

export function useViewsAhead(views: ViewAhead[], options: { idleTimeoutMs?: number } = {}): void {
  const timeoutMs = options.idleTimeoutMs ?? 2_000
  let stopped = false
  onBeforeUnmount(() => (stopped = true))
  onMounted(async () => {
    // Those to mount first (the seller's likely next stop), then the code of the others.
    const ordered = [...views.filter((v) => v.mountAhead), ...views.filter((v) => !v.mountAhead)]
    for (const { view, mountAhead } of ordered) {
      await idle(timeoutMs)
      if (stopped) return
      await (view as AsyncWrapper).__asyncLoader?.().catch(() => undefined)
      if (!mountAhead) continue
      await idle(timeoutMs)
      if (stopped) return
      mountAhead()
    }
  })
}
