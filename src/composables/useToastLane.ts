/**
 * Where toasts (naive-ui messages) are shown: the workspace's header names an element of its own for
 * them (the strip between the marketplace's name and the sync status, empty on every view); without the
 * workspace (signing in) they go to the page's corner. The app frame's message provider reads it.
 */
import { onBeforeUnmount, onMounted, shallowRef, type Ref } from 'vue'

const lane = shallowRef<HTMLElement | null>(null)

/** The element toasts are shown in, or null for the page's corner. */
export const toastLane: Readonly<Ref<HTMLElement | null>> = lane

/** For the workspace: `element` holds the toasts while the component using this is mounted. */
export function useToastLane(element: Readonly<Ref<HTMLElement | null>>): void {
  onMounted(() => (lane.value = element.value))
  onBeforeUnmount(() => {
    if (lane.value === element.value) lane.value = null
  })
}
