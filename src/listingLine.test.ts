import { describe, expect, it } from 'vitest'
import { deleteQuestion, listingLine, nameAndSku } from './listingLine'

const listing = (sku: string, grade: string | undefined, priceCents: number) => ({
  name: 'iPhone 13 128GB',
  sku,
  priceCents,
  properties: { color: 'Blue', ...(grade === undefined ? {} : { grade }) } as Record<string, string>
})

describe('listings named apart', () => {
  it('names SKU, grade and price after the name', () => {
    expect(listingLine(listing('A-123', 'A', 31_000))).toBe('iPhone 13 128GB — SKU A-123, Grade A, $310.00')
    expect(listingLine(listing('A-124', 'Grade B+', 29_950))).toBe('iPhone 13 128GB — SKU A-124, Grade B+, $299.50')
    expect(listingLine(listing('A-125', undefined, 30_000))).toBe('iPhone 13 128GB — SKU A-125, $300.00')
  })

  it('names a listing in a sentence by its quoted name and its SKU, by its name alone when it has no SKU', () => {
    expect(nameAndSku({ name: 'iPhone 13 128GB', sku: 'A-123' })).toBe('“iPhone 13 128GB” (A-123)')
    expect(nameAndSku({ name: 'iPhone 13 128GB', sku: '' })).toBe('“iPhone 13 128GB”')
  })

  it('the delete question says "listing" and names each listing apart, even with one name', () => {
    const two = deleteQuestion([listing('A-123', 'A', 31_000), listing('A-124', 'B', 29_000)])
    expect(two).toEqual({
      title: 'Delete 2 listings',
      question: 'Delete these 2 listings?',
      lines: ['iPhone 13 128GB — SKU A-123, Grade A, $310.00', 'iPhone 13 128GB — SKU A-124, Grade B, $290.00'],
      warning: 'Buyers will no longer see them. This cannot be undone.',
      confirm: 'Delete 2 listings'
    })
    const one = deleteQuestion([listing('A-123', 'A', 31_000)])
    expect(one).toMatchObject({ title: 'Delete listing', question: 'Delete this listing?', warning: 'Buyers will no longer see it. This cannot be undone.' })
    expect(JSON.stringify([one, two])).not.toMatch(/sell request/i)
  })
})
