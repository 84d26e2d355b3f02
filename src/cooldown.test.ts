import { describe, expect, it } from 'vitest'
import { createCooldown } from './cooldown'

describe('createCooldown', () => {
  it('allows the first call, then at most one per period', () => {
    let now = 1_000
    const ready = createCooldown(10_000, () => now)
    expect(ready()).toBe(true)
    now += 3_000
    expect(ready()).toBe(false)
    now += 6_999
    expect(ready()).toBe(false)
    now += 1
    expect(ready()).toBe(true)
    expect(ready()).toBe(false)
  })
})
