/**
 * The renderer's client counts the calls waiting for their answer (callsAnswered): views got ready
 * ahead of use wait for none to be waiting, so the view on screen shows its data first. The bridge here
 * is a stand-in for the preload's, answering when the test says.
 */
import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import type { Outcome } from '@shared/contract'

interface Pending {
  name: string
  answer: (outcome: Outcome<unknown>) => void
  fail: (error: Error) => void
}
const pending: Pending[] = []
const bridge = {
  invoke: (name: string) => new Promise<Outcome<unknown>>((answer, fail) => pending.push({ name, answer, fail })),
  on: () => () => undefined
}

let client: typeof import('./sellerDesk')
beforeAll(async () => {
  vi.stubGlobal('window', { sellerDesk: bridge })
  client = await import('./sellerDesk')
})
afterAll(() => vi.unstubAllGlobals())

/** Whether `promise` has settled once the tasks queued so far have run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false
  void promise.then(() => (done = true))
  await new Promise((resolve) => setTimeout(resolve, 5))
  return done
}

it('resolves at once when no call is waiting', async () => {
  expect(await settled(client.callsAnswered(10_000))).toBe(true)
})

it('waits for every call in flight, whether answered, refused or failed, and for one sent meanwhile', async () => {
  const first = client.call('session.get', {})
  const second = client.call('sync.status', {})
  const quiet = client.callsAnswered(10_000)
  pending.shift()!.answer({ ok: true, value: { signedIn: false } })
  await first
  expect(await settled(quiet)).toBe(false)

  const third = client.call('app.info', {})
  pending.shift()!.answer({ ok: false, error: { kind: 'internal', message: 'no' } })
  await expect(second).rejects.toThrow('no')
  expect(await settled(quiet)).toBe(false)

  pending.shift()!.fail(new Error('bridge gone'))
  await expect(third).rejects.toThrow('bridge gone')
  expect(await settled(quiet)).toBe(true)
  expect(await settled(client.callsAnswered(10_000))).toBe(true)
})

it('every waiter is told, and a waiter gives up after its timeout while a call goes on', async () => {
  const long = client.call('orders.exportCsv', {} as never)
  const short = client.callsAnswered(20)
  const patient = client.callsAnswered(10_000)
  const alsoPatient = client.callsAnswered(10_000)
  await new Promise((resolve) => setTimeout(resolve, 40))
  expect(await settled(short)).toBe(true)
  expect(await settled(patient)).toBe(false)
  pending.shift()!.answer({ ok: true, value: null })
  await long
  expect(await settled(patient)).toBe(true)
  expect(await settled(alsoPatient)).toBe(true)
})
