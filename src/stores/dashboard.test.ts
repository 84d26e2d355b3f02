import type { Dashboard } from '@shared/contract'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'

const bridge = vi.hoisted(() => ({ call: vi.fn() }))

vi.mock('../bridge/sellerDesk', () => ({
  call: bridge.call,
  messageOf: (error: unknown) => (error instanceof Error ? error.message : 'Something went wrong. Try again.')
}))

const { useDashboardStore } = await import('./dashboard')

/** Figures that differ only by the week's revenue: enough to tell two reads apart. */
const figuresWith = (weekRevenueCents: number) => ({ week: { orders: 1, revenueCents: weekRevenueCents } }) as unknown as Dashboard

/** A call answered when the test says so. */
function pendingCall() {
  let answer!: (value: Dashboard) => void
  bridge.call.mockImplementationOnce(() => new Promise<Dashboard>((resolve) => (answer = resolve)))
  return (value: Dashboard) => answer(value)
}

describe('dashboard store', () => {
  beforeEach(() => {
    bridge.call.mockReset()
    setActivePinia(createPinia())
  })

  it('reads again after a sync that ends while the first read is on its way, and keeps the newer figures', async () => {
    const dashboard = useDashboardStore()
    const answerFirst = pendingCall()
    const first = dashboard.load()
    expect(dashboard.loading).toBe(true)

    // The sync ends now: the first read may have summed the snapshot before the sync wrote it.
    const answerSecond = pendingCall()
    const second = dashboard.reloadIfShown()
    expect(bridge.call).toHaveBeenCalledTimes(2)

    answerSecond(figuresWith(200))
    await second
    answerFirst(figuresWith(100))
    await first
    expect(dashboard.figures).toEqual(figuresWith(200))
    expect(dashboard.loading).toBe(false)
  })

  it('reads nothing after a sync while the dashboard has never been read', async () => {
    const dashboard = useDashboardStore()
    await dashboard.reloadIfShown()
    expect(bridge.call).not.toHaveBeenCalled()
    expect(dashboard.figures).toBeNull()
  })

  it('reads again after a sync once it has figures', async () => {
    const dashboard = useDashboardStore()
    bridge.call.mockResolvedValueOnce(figuresWith(100)).mockResolvedValueOnce(figuresWith(300))
    await dashboard.load()
    await dashboard.reloadIfShown()
    expect(bridge.call).toHaveBeenCalledTimes(2)
    expect(dashboard.figures).toEqual(figuresWith(300))
  })
})
