/**
 * Runs `work` over `items` with at most `limit` at a time. The first failure stops new work from
 * starting; what is in flight finishes, then the failure is thrown. An abort does the same.
 */
export async function forEachBounded<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>, signal?: AbortSignal): Promise<void> {
  let next = 0
  let failure: { error: unknown } | null = null
  const lane = async () => {
    while (failure === null && next < items.length) {
      if (signal?.aborted) {
        failure = { error: signal.reason }
        return
      }
      const item = items[next++] as T
      try {
        await work(item)
      } catch (error) {
        failure ??= { error }
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane))
  if (failure) throw (failure as { error: unknown }).error
}

/**
 * At most `limit` holders at a time: `acquire` waits for a slot and answers the function that frees it
 * (calling it again does nothing).
 */
export interface Slots {
  acquire(): Promise<() => void>
}

export function createSlots(limit: number): Slots {
  let free = limit
  const waiting: (() => void)[] = []
  return {
    async acquire() {
      if (free > 0) free--
      else await new Promise<void>((resolve) => waiting.push(resolve))
      let held = true
      return () => {
        if (!held) return
        held = false
        const next = waiting.shift()
        if (next) next()
        else free++
      }
    }
  }
}
