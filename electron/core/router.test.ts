import { describe, expect, it } from 'vitest'
import { callNames, type CallName } from '../shared/contract'
import { SellerDeskError } from '../shared/errors'
import { createRouter, type Handlers } from './router'

const ID = '3f6c2a7e-1b2d-4c3e-8f9a-0b1c2d3e4f50'

/** A router whose handlers record what reached them. */
function recordingRouter() {
  const reached: { name: CallName; input: unknown }[] = []
  const handlers = Object.fromEntries(
    callNames.map((name) => [
      name,
      async (input: unknown) => {
        reached.push({ name, input })
        if (name === 'sellRequests.delete') throw new SellerDeskError('not-found', 'sell request: not found')
        if (name === 'sellRequests.list') throw new Error('boom at /home/seller/secret-key-123')
        return { echoed: input }
      }
    ])
  ) as unknown as Handlers
  return { router: createRouter(handlers), reached }
}

describe('contract validation in the router', () => {
  const invalidEdits: [string, unknown][] = [
    ['negative quantity', { id: ID, quantity: -1 }],
    ['fractional quantity', { id: ID, quantity: 1.5 }],
    ['price of zero', { id: ID, priceCents: 0 }],
    ['negative price', { id: ID, priceCents: -100 }],
    ['NaN price', { id: ID, priceCents: Number.NaN }],
    ['fractional cents', { id: ID, priceCents: 10.5 }],
    ['price as text', { id: ID, priceCents: '12.00' }],
    ['non-UUID id', { id: '42', quantity: 1 }],
    ['missing id', { quantity: 1 }],
    ['nothing to change', { id: ID }],
    ['unknown field', { id: ID, quantity: 1, status: 'closed' }]
  ]

  it.each(invalidEdits)('rejects an edit with %s and never calls the handler', async (_label, input) => {
    const { router, reached } = recordingRouter()
    const outcome = await router.dispatch('sellRequests.edit', input)
    expect(outcome.ok).toBe(false)
    if (!outcome.ok) {
      expect(outcome.error.kind).toBe('invalid-input')
      expect(outcome.error.message.length).toBeGreaterThan(5)
    }
    expect(reached).toHaveLength(0)
  })

  it('NaN sent as JSON becomes null and is still rejected', async () => {
    const { router } = recordingRouter()
    const outcome = await router.dispatch('sellRequests.edit', JSON.parse(JSON.stringify({ id: ID, priceCents: Number.NaN })))
    expect(outcome.ok).toBe(false)
  })

  it('passes a valid edit through with parsed values', async () => {
    const { router, reached } = recordingRouter()
    const outcome = await router.dispatch('sellRequests.edit', { id: ID, priceCents: 12999, quantity: 0 })
    expect(outcome).toEqual({ ok: true, value: { echoed: { id: ID, priceCents: 12999, quantity: 0 } } })
    expect(reached).toEqual([{ name: 'sellRequests.edit', input: { id: ID, priceCents: 12999, quantity: 0 } }])
  })

  it('applies list defaults and rejects bad list queries', async () => {
    const { router, reached } = recordingRouter()
    await router.dispatch('orders.list', {})
    expect(reached[0]!.input).toEqual({ page: 1, take: 50, sortDir: 'DESC', sortBy: 'date' })
    for (const bad of [
      { page: 0 },
      { take: 1000 },
      { sortDir: 'UP' },
      { fromDate: 'yesterday' },
      { fromDate: '2026-11-20T00:00:00Z', toDate: '2026-11-01T00:00:00Z' }
    ]) {
      const outcome = await router.dispatch('orders.list', bad)
      expect(outcome.ok, JSON.stringify(bad)).toBe(false)
    }
    expect(reached).toHaveLength(1)
  })

  it('refuses unknown call names', async () => {
    const { router, reached } = recordingRouter()
    const outcome = await router.dispatch('shell.exec', { command: 'rm -rf /' })
    expect(outcome).toMatchObject({ ok: false, error: { kind: 'invalid-input' } })
    expect(reached).toHaveLength(0)
    expect((await router.dispatch('__proto__', {})).ok).toBe(false)
  })

  it('sends seller-facing errors as data and hides bugs behind a generic message', async () => {
    const { router } = recordingRouter()
    expect(await router.dispatch('sellRequests.delete', { id: ID })).toEqual({ ok: false, error: { kind: 'not-found', message: 'sell request: not found' } })
    const bug = await router.dispatch('sellRequests.list', {})
    expect(bug.ok).toBe(false)
    if (!bug.ok) {
      expect(bug.error.kind).toBe('internal')
      expect(bug.error.message).not.toContain('secret-key-123')
    }
  })
})
