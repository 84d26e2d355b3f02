/**
 * A pause keeps each turn of long work under its length: it gives the thread back before a step that
 * would not fit in what is left of the turn (judged by the last step), not only once the turn is over.
 */
import { afterEach, expect, it, vi } from 'vitest'
import { MessageChannel } from 'node:worker_threads'
import { createPause, createTurnQueue, nextTurn, noteCall } from './eventLoopTurns'

afterEach(() => vi.restoreAllMocks())

/** Whether `pause()` gave the thread back: an immediate queued before it has run by the time it resolves. */
async function yielded(pause: () => Promise<void>): Promise<boolean> {
  let ran = false
  setImmediate(() => (ran = true))
  await pause()
  return ran
}

/** Runs steps of these lengths (on a fake clock) with a pause after each; answers the steps each turn ran. */
async function turns(turnMs: number, steps: number[]): Promise<number[][]> {
  let now = 1_000
  vi.spyOn(performance, 'now').mockImplementation(() => now)
  const pause = createPause(turnMs)
  const ran: number[][] = [[]]
  for (const step of steps) {
    now += step
    ran.at(-1)!.push(step)
    if (await yielded(pause)) ran.push([])
  }
  return ran.filter((turn) => turn.length > 0)
}

it('ends a turn before a step that would not fit in what is left of it', async () => {
  // Steps longer than half a turn: one a turn (two would overrun it).
  expect(await turns(8, [5, 5, 5, 5])).toEqual([[5], [5], [5], [5]])
  // Short steps: as many as fit; the one that would reach the turn's end starts the next.
  expect((await turns(8, Array<number>(16).fill(1))).map((turn) => turn.length)).toEqual([7, 7, 2])
  // A step longer than a turn has a turn of its own.
  expect(await turns(8, [2, 12, 2, 2])).toEqual([
    [2, 12],
    [2, 2]
  ])
})

it('nextTurn resolves after the calls already waiting', async () => {
  let ran = false
  setImmediate(() => (ran = true))
  await nextTurn()
  expect(ran).toBe(true)
})

it('rests the thread between turns when asked while calls come: the next turn starts once that time has passed, after the calls already waiting', async () => {
  const pause = createPause(0, 30)
  await nextTurn()
  noteCall()
  const started = performance.now()
  expect(await yielded(pause)).toBe(true)
  expect(performance.now() - started).toBeGreaterThanOrEqual(29)
})

it('does not rest between turns while no call has come since the work began, or none for a while: nobody waits for the thread', async () => {
  noteCall()
  const unasked = createPause(0, 300)
  let started = Date.now()
  expect(await yielded(unasked)).toBe(true)
  expect(Date.now() - started).toBeLessThan(200)

  let now = 1_000
  vi.spyOn(performance, 'now').mockImplementation(() => now)
  const pause = createPause(0, 300)
  now += 1
  noteCall()
  now += 5_000
  started = Date.now()
  expect(await yielded(pause)).toBe(true)
  expect(Date.now() - started).toBeLessThan(200)
})

it('a queue of turns gives steps asked together a turn each, in the order asked, with messages arriving meanwhile handled between them', async () => {
  const turn = createTurnQueue()
  const { port1, port2 } = new MessageChannel()
  const log: string[] = []
  port2.on('message', (n: number) => log.push(`message during ${n}`))
  await Promise.all(
    [1, 2, 3].map((n) =>
      turn().then(() => {
        log.push(`step ${n}`)
        // A call arriving while the step runs (as calls reach the core's thread: a port's message).
        port1.postMessage(n)
      })
    )
  )
  await new Promise((resolve) => setTimeout(resolve, 10))
  port1.close()
  expect(log).toEqual(['step 1', 'message during 1', 'step 2', 'message during 2', 'step 3', 'message during 3'])
  // Once the queue is empty, a step still waits for a turn: whatever waits already goes first.
  expect(await yielded(turn)).toBe(true)
})

it('a pause over a queue of turns waits for a turn of the queue, behind the steps that asked before it', async () => {
  const turn = createTurnQueue()
  const order: string[] = []
  const pause = createPause(0, 0, turn)
  const others = [1, 2].map((k) => turn().then(() => order.push(`step ${k}`)))
  await pause()
  order.push('after the pause')
  await Promise.all(others)
  expect(order).toEqual(['step 1', 'step 2', 'after the pause'])
})
