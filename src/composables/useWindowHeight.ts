/**
 * The window's inner height, followed while the calling component is mounted: for parts that size a
 * scrolling area so that what comes after it (a pager, a dialog's buttons) stays inside the window.
 */
import { onBeforeUnmount, ref, type Ref } from 'vue'

export function useWindowHeight(): Readonly<Ref<number>> {
  const height = ref(window.innerHeight)
  const onResize = () => (height.value = window.innerHeight)
  window.addEventListener('resize', onResize)
  onBeforeUnmount(() => window.removeEventListener('resize', onResize))
  return height
}
