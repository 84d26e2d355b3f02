/** For tests of work done in turns (eventLoopTurns.ts). */

/** Counts the turns of the event loop from now until stopped (a callback in each turn's check phase). */
export function countTurns(): { now: () => number; stop: () => void } {
  let turns = 0
  let counting = true
  const count = () => {
    turns++
    if (counting) setImmediate(count)
  }
  setImmediate(count)
  return { now: () => turns, stop: () => void (counting = false) }
}
