import { describe, expect, it } from 'vitest'
import { syncStanding } from './syncStanding'

const failure = { kind: 'server', message: 'The marketplace had a problem (HTTP 500). Try again in a minute.' } as const

describe('syncStanding', () => {
  it('a marketplace that answers but failed the last sync is not "Online": the failure, with its reason', () => {
    expect(syncStanding({ online: true, lastError: failure })).toEqual({
      state: 'failed',
      label: 'Last sync failed',
      detail: 'Last sync failed: The marketplace had a problem (HTTP 500). Try again in a minute.'
    })
  })

  it('online with a sync that worked, and offline whatever the last error', () => {
    expect(syncStanding({ online: true, lastError: null })).toEqual({ state: 'online', label: 'Online', detail: null })
    expect(syncStanding({ online: false, lastError: failure })).toEqual({ state: 'offline', label: 'Offline', detail: null })
  })
})
