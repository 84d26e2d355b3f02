/**
 * Views loaded on first use (defineAsyncComponent) are fetched and evaluated right after the first
 * paint of the component that offers them, one after another in the order given, so the app starts
 * with a small bundle and the first switch to a view does not wait for the network or the parser.
 */
import { onMounted, type Component } from 'vue'

/** defineAsyncComponent's wrapper keeps its loader here; calling it also makes the wrapper render at once. */
type AsyncWrapper = Component & { __asyncLoader?: () => Promise<unknown> }

export function usePrefetchViews(views: Component[]): void {
  onMounted(() => {
    // After the frame that shows the workspace has been painted.
    requestAnimationFrame(() =>
      setTimeout(async () => {
        for (const view of views) await (view as AsyncWrapper).__asyncLoader?.().catch(() => undefined)
      }, 0)
    )
  })
}
