/**
 * Whether the window is at least a width wide, followed while the calling component is mounted: for
 * views whose columns follow the window's width.
 */
import { onBeforeUnmount, ref, type Ref } from 'vue'

/** From this width the list views and the bulk-edit grid take their roomier columns. */
export const ROOMY_WINDOW_WIDTH = 1280

export function useWindowAtLeast(width: number): Readonly<Ref<boolean>> {
  const query = window.matchMedia(`(min-width: ${width}px)`)
  const matches = ref(query.matches)
  const onChange = (event: MediaQueryListEvent) => (matches.value = event.matches)
  query.addEventListener('change', onChange)
  onBeforeUnmount(() => query.removeEventListener('change', onChange))
  return matches
}
