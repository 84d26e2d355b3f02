/**
 * A cooldown: says yes at most once per `ms`. For signals that may fire in bursts (window focus)
 * when one reaction per burst is enough.
 */
export function createCooldown(ms: number, now: () => number = Date.now): () => boolean {
  let last = Number.NEGATIVE_INFINITY
  return () => {
    const at = now()
    if (at - last < ms) return false
    last = at
    return true
  }
}
