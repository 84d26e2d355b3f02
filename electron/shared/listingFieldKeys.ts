/**
 * The keys of the listing fields Seller Desk edits, in the order forms, the grid and files show them:
 * apart from the descriptors (listingFields.ts), which carry the rules and so zod, for what must stay
 * light (the grid's row layout, loaded with the renderer's first bundle).
 */
export const LISTING_FIELD_KEYS = ['priceCents', 'quantity'] as const

export type ListingFieldKey = (typeof LISTING_FIELD_KEYS)[number]
