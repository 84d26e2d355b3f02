/**
 * Long work in the core cut into turns of the event loop: the core answers every call on one thread,
 * so a loop over tens of thousands of rows gives the thread back now and then, and the calls waiting
 * meanwhile (a list, the session, a keystroke's change) are answered between its turns.
 */

/**
 * Called between steps of the work: resolves at once while the current turn has time left for another
 * step, else after a turn of the event loop.
 */
export type Pause = () => Promise<void>

/**
 * A pause that keeps each turn under about `turnMs`: a turn ends before the next step when the last one
 * would not fit in what is left of it (a call waiting meanwhile waits for the whole turn, so a step
 * begun near a turn's end would stretch it by a whole step), and after the first step that does not.
 *
 * Between turns the thread rests `restMs` (0: the next turn follows the calls already waiting). Work
 * taking turns back to back keeps a core busy; on a machine with few cores the threads a call passes
 * through before it reaches this one (the window's or the bridge's) and the collector's helpers then
 * wait for the scheduler, and so does the call. A rest leaves them the core; the work takes longer.
 */
export function createPause(turnMs = 8, restMs = 0): Pause {
  let started = performance.now()
  let stepStarted = started
  return async () => {
    const now = performance.now()
    const step = now - stepStarted
    stepStarted = now
    if (now - started + step < turnMs) return
    await (restMs > 0 ? rest(restMs) : nextTurn())
    started = stepStarted = performance.now()
  }
}

/**
 * Steps of tasks running side by side (a sync's pages, whose answers often arrive together) taking
 * turns of the event loop: each step waits for a turn of its own, in the order they asked, so a call
 * arriving meanwhile waits for one step at most instead of every answer that came in with it.
 */
export function createTurnQueue(): Pause {
  const waiting: (() => void)[] = []
  let turning = false
  const turn = () => {
    const next = waiting.shift()
    if (!next) {
      turning = false
      return
    }
    next()
    // Scheduled from this turn's callback: it runs in the next turn, after the calls waiting now.
    setImmediate(turn)
  }
  return () =>
    new Promise<void>((resolve) => {
      waiting.push(resolve)
      if (!turning) {
        turning = true
        setImmediate(turn)
      }
    })
}

/** Resolves after a turn of the event loop (the calls waiting meanwhile are answered first). */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

/** Resolves after `ms` of rest for the thread (a timer: the calls arriving meanwhile are answered). */
const rest = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** Never gives the thread back (tests, and callers that must finish in one turn). */
export const noPause: Pause = async () => {}
