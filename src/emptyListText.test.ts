import { describe, expect, it } from 'vitest'
import { emptyListText, type EmptyListSituation } from './emptyListText'

const base: EmptyListSituation = { many: 'orders', term: '', narrowed: false, nothingText: 'No orders yet.', neverSynced: false, syncing: false, online: true }

describe('emptyListText', () => {
  it('names the search and says when filters narrow the list', () => {
    expect(emptyListText({ ...base, term: 'Pixel' })).toBe('No orders match “Pixel”.')
    expect(emptyListText({ ...base, narrowed: true })).toBe('No orders match the chosen filters.')
    expect(emptyListText({ ...base, term: 'Pixel', narrowed: true })).toBe('No orders match “Pixel” with the chosen filters.')
  })

  it('explains an empty list before the first sync is done', () => {
    expect(emptyListText({ ...base, neverSynced: true, syncing: true })).toMatch(/^Getting your orders from the marketplace/)
    expect(emptyListText({ ...base, neverSynced: true, online: false })).toMatch(/^Nothing synced yet\. Your orders appear here once/)
    expect(emptyListText({ ...base, neverSynced: true })).toMatch(/Use Sync now/)
  })

  it('says the list is empty when it is synced, or the sync state is not known', () => {
    expect(emptyListText(base)).toBe('No orders yet.')
    expect(emptyListText({ ...base, neverSynced: null, syncing: true })).toBe('No orders yet.')
  })

  it('a search that matches nothing is about the search even before the first sync', () => {
    expect(emptyListText({ ...base, term: 'x', neverSynced: true, syncing: true })).toBe('No orders match “x”.')
  })
})
