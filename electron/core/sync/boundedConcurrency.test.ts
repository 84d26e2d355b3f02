import { expect, it } from 'vitest'
import { createSlots } from './boundedConcurrency'

it('slots: at most `limit` holders; a freed slot goes to the longest waiting, and freeing twice frees once', async () => {
  const slots = createSlots(2)
  const a = await slots.acquire()
  const b = await slots.acquire()
  const got: string[] = []
  const c = slots.acquire().then((release) => (got.push('c'), release))
  const d = slots.acquire().then((release) => (got.push('d'), release))
  await new Promise((resolve) => setImmediate(resolve))
  expect(got).toEqual([])
  a()
  a() // again: nothing more is freed
  await new Promise((resolve) => setImmediate(resolve))
  expect(got).toEqual(['c'])
  b()
  await new Promise((resolve) => setImmediate(resolve))
  expect(got).toEqual(['c', 'd'])
  ;(await c)()
  ;(await d)()
  // Both free again: two can hold at once, a third waits.
  await slots.acquire()
  await slots.acquire()
  let third = false
  void slots.acquire().then(() => (third = true))
  await new Promise((resolve) => setImmediate(resolve))
  expect(third).toBe(false)
})
