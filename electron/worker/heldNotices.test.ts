import { describe, expect, it } from 'vitest'
import { holdNotices, MAX_HELD_NOTICES, type Notice } from './heldNotices'

const notice = (message: string): Notice => ({ level: 'warning', message })

describe('notices said while no page listens', () => {
  it('wait for the first page that listens, in order, and are not said twice', () => {
    const delivered: string[] = []
    const held = holdNotices((n) => delivered.push(n.message))
    held.say(notice('set aside'))
    held.say(notice('interrupted'))
    expect(delivered).toEqual([])
    held.heard()
    expect(delivered).toEqual(['set aside', 'interrupted'])
    held.say(notice('later'))
    held.heard()
    expect(delivered).toEqual(['set aside', 'interrupted', 'later'])
  })

  it('mark those that waited to stay until closed, and only those', () => {
    const delivered: Notice[] = []
    const held = holdNotices((n) => delivered.push(n))
    held.say(notice('at start'))
    held.heard()
    held.say(notice('while listened to'))
    expect(delivered).toEqual([
      { level: 'warning', message: 'at start', untilClosed: true },
      { level: 'warning', message: 'while listened to' }
    ])
  })

  it('wait again once no page listens, until one does', () => {
    const delivered: string[] = []
    const held = holdNotices((n) => delivered.push(n.message))
    held.heard()
    held.say(notice('while open'))
    held.unheard()
    held.say(notice('while closed'))
    expect(delivered).toEqual(['while open'])
    held.heard()
    expect(delivered).toEqual(['while open', 'while closed'])
  })

  it('keep only the latest when no page comes for a long time', () => {
    const delivered: string[] = []
    const held = holdNotices((n) => delivered.push(n.message))
    for (let i = 0; i < MAX_HELD_NOTICES + 5; i++) held.say(notice(`n${i}`))
    held.heard()
    expect(delivered).toHaveLength(MAX_HELD_NOTICES)
    expect(delivered[0]).toBe('n5')
    expect(delivered.at(-1)).toBe(`n${MAX_HELD_NOTICES + 4}`)
  })
})
