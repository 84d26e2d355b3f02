/**
 * Long work in the core cut into turns of the event loop: the core answers every call on one thread,
 * so a loop over tens of thousands of rows gives the thread back now and then, and the calls waiting
 * meanwhile (a list, the session, a keystroke's change) are answered between its turns.
 */

/** Resolves at once while the current turn is younger than `turnMs`, else after a turn of the event loop. */
export type Pause = () => Promise<void>

export function createPause(turnMs = 8): Pause {
  let started = performance.now()
  return async () => {
    if (performance.now() - started < turnMs) return
    await new Promise((resolve) => setImmediate(resolve))
    started = performance.now()
  }
}

/** Never gives the thread back (tests, and callers that must finish in one turn). */
export const noPause: Pause = async () => {}
