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

/** How long a turn of long work lasts (about: it ends after the step that crosses it), by default (createPause). */
export const TURN_MS = 8

/**
 * A pause that keeps each turn under about `turnMs`: a turn ends before the next step when the last one
 * would not fit in what is left of it (a call waiting meanwhile waits for the whole turn, so a step
 * begun near a turn's end would stretch it by a whole step), and after the first step that does not.
 *
 * Between turns the thread rests `restMs` while the seller is at the window: once a call has reached
 * this thread since the work began, until ATTENDED_MS after the latest (0: never; the next turn follows
 * the calls already waiting). Work taking turns back to back keeps a core busy; on a machine with few
 * cores the threads a call passes through before it reaches this one (the window's or the bridge's) and
 * the collector's helpers then wait for the scheduler, and so does the call. A rest leaves them the
 * core, and the work takes longer: so it rests only while calls are coming, not while nobody asks.
 *
 * `turn` is how it waits for the next turn otherwise: one turn of the event loop, or a queue of turns
 * (createTurnQueue) that the work shares with other work, each step of which then has a turn of its own.
 */
export function createPause(turnMs = TURN_MS, restMs = 0, turn: () => Promise<void> = nextTurn): Pause {
  const began = performance.now()
  let started = began
  let stepStarted = started
  return async () => {
    const now = performance.now()
    const step = now - stepStarted
    stepStarted = now
    if (now - started + step < turnMs) return
    const attended = lastCallAt > began && now - lastCallAt < ATTENDED_MS
    await (restMs > 0 && attended ? rest(restMs) : turn())
    started = stepStarted = performance.now()
  }
}

/** How long after a call long work keeps resting between its turns (createPause): a seller at the window soon asks again. */
const ATTENDED_MS = 1_000
/** When a call last reached this thread (noteCall). */
let lastCallAt = -Infinity

/** Notes that a call reached this thread (the router, for every call): long work begun before it rests between turns for a while. */
export function noteCall(): void {
  lastCallAt = performance.now()
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

/**
 * Rows of a loop over many taken between its pauses: a row's work takes microseconds, less than a
 * pause's own cost, so such a loop pauses before every ROWS_PER_STEP-th row (`stepStartsAt`).
 */
const ROWS_PER_STEP = 64

/** Whether the `index`-th row of a loop over many starts a step, before which the loop pauses. */
export const stepStartsAt = (index: number) => index % ROWS_PER_STEP === 0

/**
 * Work written as a generator that yields between its steps (a loop over rows: before every
 * ROWS_PER_STEP-th row, stepStartsAt), so the same code runs at once (allSteps: inside a transaction,
 * in tests) or with a pause between steps (stepsInTurns).
 */
export type Steps<T> = Generator<void, T, void>

/** Runs every step at once. */
export function allSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
  }
}

/** Runs the steps with `pause` between them. */
export async function stepsInTurns<T>(steps: Steps<T>, pause: Pause): Promise<T> {
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
    await pause()
  }
}

/** Resolves after a turn of the event loop (the calls waiting meanwhile are answered first). */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

/** Resolves after `ms` of rest for the thread (a timer: the calls arriving meanwhile are answered). */
const rest = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** Never gives the thread back (tests, and callers that must finish in one turn). */
export const noPause: Pause = async () => {}
