/**
 * A flag that turns on only once `source` has been on for `delayMs`, and off as soon as it is off.
 * For busy indicators: a list read from the local snapshot usually answers within a frame or two, and a
 * spinner flashing on and off at every keystroke costs two extra renders of the table and an animation
 * for nothing. Anything slower still shows the indicator.
 */
import { onBeforeUnmount, ref, watch, type Ref } from 'vue'

export function useDelayedFlag(source: () => boolean, delayMs: number): Readonly<Ref<boolean>> {
  const shown = ref(false)
  let timer: ReturnType<typeof setTimeout> | undefined
  const stop = () => {
    clearTimeout(timer)
    timer = undefined
  }
  watch(
    source,
    (on) => {
      stop()
      if (!on) shown.value = false
      else if (delayMs <= 0) shown.value = true
      else if (!shown.value) timer = setTimeout(() => (shown.value = true), delayMs)
    },
    { immediate: true }
  )
  onBeforeUnmount(stop)
  return shown
}
