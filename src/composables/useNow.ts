/** The current time as a ref that moves every `everyMs` while the calling component is mounted (for "3 minutes ago"). */
import { onBeforeUnmount, onMounted, ref } from 'vue'

export function useNow(everyMs: number) {
  const now = ref(Date.now())
  let timer: ReturnType<typeof setInterval> | undefined
  onMounted(() => {
    now.value = Date.now()
    timer = setInterval(() => (now.value = Date.now()), everyMs)
  })
  onBeforeUnmount(() => clearInterval(timer))
  return now
}
