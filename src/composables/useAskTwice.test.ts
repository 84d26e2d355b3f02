import { describe, expect, it } from 'vitest'
import { ref } from 'vue'
import { useAskTwice } from './useAskTwice'

describe('useAskTwice', () => {
  it('lets a value without a warning through at once', () => {
    const text = ref('330')
    const ask = useAskTwice(
      () => text.value,
      () => false
    )
    expect(ask.mayProceed()).toBe(true)
    expect(ask.asked.value).toBe(false)
  })

  it('asks once for a warned value and lets the second press on the same value through', () => {
    const text = ref('1000')
    const ask = useAskTwice(
      () => text.value,
      () => true
    )
    expect(ask.mayProceed()).toBe(false)
    expect(ask.asked.value).toBe(true)
    expect(ask.mayProceed()).toBe(true)
  })

  it('asks again once the value changes, even back to the one asked about, and after a reset', () => {
    const text = ref('1000')
    const ask = useAskTwice(
      () => text.value,
      () => true
    )
    expect(ask.mayProceed()).toBe(false)
    text.value = '1001'
    expect(ask.asked.value).toBe(false)
    text.value = '1000'
    expect(ask.asked.value).toBe(false)
    expect(ask.mayProceed()).toBe(false)
    expect(ask.mayProceed()).toBe(true)
    ask.reset()
    expect(ask.asked.value).toBe(false)
    expect(ask.mayProceed()).toBe(false)
  })

  it('is not asked while the value carries no warning', () => {
    const text = ref('1000')
    const warned = ref(true)
    const ask = useAskTwice(
      () => text.value,
      () => warned.value
    )
    expect(ask.mayProceed()).toBe(false)
    warned.value = false
    expect(ask.asked.value).toBe(false)
    expect(ask.mayProceed()).toBe(true)
  })
})
