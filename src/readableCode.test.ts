import { describe, expect, it } from 'vitest'
import { readableCode } from './readableCode'

describe('readableCode', () => {
  it('turns codes into words', () => {
    expect(readableCode('closed')).toBe('Closed')
    expect(readableCode('on-hold-by-buyer')).toBe('On hold by buyer')
    expect(readableCode('PLATFORM_SHIPPING')).toBe('Platform shipping')
    expect(readableCode('UPS_GROUND')).toBe('UPS ground')
    expect(readableCode('DHL')).toBe('DHL')
  })

  it('leaves text that already reads as words, and odd values, as sent', () => {
    expect(readableCode('In Transit')).toBe('In Transit')
    expect(readableCode('DHLExpress')).toBe('DHLExpress')
    expect(readableCode('---')).toBe('---')
    expect(readableCode('')).toBe('')
  })
})
