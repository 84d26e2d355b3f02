import { afterEach, expect, it, vi } from 'vitest'
import { SellerDeskError } from '../../shared/errors'
import { createConnectivity, type ConnectivityState } from './connectivity'

afterEach(() => {
  vi.useRealTimers()
})

it('while offline, probes more and more rarely but never more than 15 s apart, and is online at the first answer', async () => {
  vi.useFakeTimers()
  const probes: number[] = []
  let answers = false
  const changes: ConnectivityState[] = []
  const connectivity = createConnectivity({
    probe: async () => {
      probes.push(Date.now())
      if (!answers) throw new SellerDeskError('network', 'The marketplace refused the connection.')
    },
    onChange: (state) => changes.push(state)
  })
  const start = Date.now()
  connectivity.report(new SellerDeskError('network', 'The marketplace refused the connection.'))
  expect(connectivity.state().online).toBe(false)

  await vi.advanceTimersByTimeAsync(120_000)
  const gaps = probes.map((at, i) => (at - (i === 0 ? start : probes[i - 1]!)) / 1000)
  expect(gaps.slice(0, 4)).toEqual([3, 6, 12, 15])
  expect(Math.max(...gaps)).toBe(15)

  // The marketplace is back: the next probe, at most 15 s later, says so.
  answers = true
  const back = Date.now()
  await vi.advanceTimersByTimeAsync(15_000)
  expect(connectivity.state().online).toBe(true)
  expect(probes.at(-1)! - back).toBeLessThanOrEqual(15_000)
  expect(changes.map((state) => state.online)).toEqual([false, true])
  connectivity.stop()
})

it('an answer of any kind from the server is online; only a network error or a timeout is offline', () => {
  const connectivity = createConnectivity({ probe: async () => undefined, onChange: () => undefined })
  connectivity.report(new SellerDeskError('timeout', 'No answer.'))
  expect(connectivity.state().online).toBe(false)
  connectivity.report(new SellerDeskError('server', 'HTTP 500.'))
  expect(connectivity.state().online).toBe(true)
  connectivity.report(new Error('not a marketplace error'))
  expect(connectivity.state().online).toBe(true)
  connectivity.stop()
})

it('offline from the start, says the marketplace has not answered since it last did before; offline later, since the first failed call', () => {
  const lastAnswer = '2026-11-20T17:45:00.000Z'
  const network = () => new SellerDeskError('network', 'The marketplace refused the connection.')
  const started = Date.parse('2026-11-21T08:00:00.000Z')
  const fromStart = createConnectivity({ probe: async () => undefined, onChange: () => undefined, now: () => started, answeredBefore: () => lastAnswer })
  fromStart.report(network())
  expect(fromStart.state()).toEqual({ online: false, offlineSince: lastAnswer })
  fromStart.stop()

  let clock = started
  const later = createConnectivity({ probe: async () => undefined, onChange: () => undefined, now: () => clock, answeredBefore: () => lastAnswer })
  later.report(null)
  clock += 60_000
  later.report(network())
  expect(later.state()).toEqual({ online: false, offlineSince: new Date(clock).toISOString() })
  later.stop()

  const neverAnswered = createConnectivity({ probe: async () => undefined, onChange: () => undefined, now: () => started, answeredBefore: () => null })
  neverAnswered.report(network())
  expect(neverAnswered.state().offlineSince).toBe(new Date(started).toISOString())
  neverAnswered.stop()
})
