/**
 * A change the marketplace accepted (2xx) whose answer could not be read (the client's 'unconfirmed'):
 * it was most likely made, so "not changed" would mislead the seller, and only the listing as the
 * marketplace holds it now can tell. One place judges what reading it back shows, for a seller's edit
 * (workspace.ts) and a bulk apply's changes (bulkEdit/applyRun.ts) alike, and says it in words.
 */
import { SellerDeskError, type ErrorData, type ErrorKind } from '../shared/errors'
import { LISTING_FIELD_SET, type FieldSet } from '../shared/listingFields'

/**
 * What reading back showed for one changed field: the new value is there (`made`), the listing holds
 * another (`not-made`: refused after all, or changed again since), the listing is gone (`gone`), or the
 * listing could not be read back (`unknown`).
 */
export type ReadBackVerdict = 'made' | 'not-made' | 'gone' | 'unknown'

/** A listing with its values under the fields' keys, as read back (null: the marketplace no longer lists it). */
export type ListingValues = object | null

const valueOf = (listing: object, field: string): unknown => (listing as Record<string, unknown>)[field]

export function readBackVerdict(failure: ErrorData | null, listing: ListingValues, field: string, after: number): ReadBackVerdict {
  if (failure) return 'unknown'
  if (!listing) return 'gone'
  return valueOf(listing, field) === after ? 'made' : 'not-made'
}

/** The start every read-back message shares: what happened to the request. */
const UNREAD = 'The marketplace accepted the change, but its answer could not be read'

/**
 * Why a change is reported as it is after reading back (null for `made`: it is simply done). `now` is
 * the listing as read back, for `not-made`.
 */
export function readBackMessage(verdict: ReadBackVerdict, details: { fields: readonly string[]; now?: ListingValues; descriptors?: FieldSet }): string | null {
  const descriptors = details.descriptors ?? LISTING_FIELD_SET
  switch (verdict) {
    case 'made':
      return null
    case 'unknown':
      return `${UNREAD}, so it was most likely made. Seller Desk could not read the listing back from the marketplace to check: the next sync shows its current values.`
    case 'gone':
      return `${UNREAD}, and the listing is no longer on the marketplace (deleted elsewhere?).`
    case 'not-made': {
      const now = details.now ?? {}
      const values = details.fields.map((key) => {
        const field = descriptors.get(key)
        const value = valueOf(now, key)
        return `${field.label.toLowerCase()} ${typeof value === 'number' ? field.display(value) : 'unknown'}`
      })
      return `${UNREAD}, and the listing read back from the marketplace shows ${values.join(' and ')}, not the new value: it was not changed, or was changed again since.`
    }
  }
}

/**
 * A seller's edit that reading back did not show made, as the error the seller gets: 'unconfirmed' only
 * while it is not known (most likely made: the screen keeps the new value); a listing found without the
 * change was not changed there ('server': the marketplace said yes and did not), one found gone, 'not-found'.
 */
export function readBackError(verdict: Exclude<ReadBackVerdict, 'made'>, details: { fields: readonly string[]; now?: ListingValues }): SellerDeskError {
  const kind: ErrorKind = verdict === 'unknown' ? 'unconfirmed' : verdict === 'gone' ? 'not-found' : 'server'
  const shown = verdict === 'not-made' ? " Showing the marketplace's current value." : ''
  return new SellerDeskError(kind, `${readBackMessage(verdict, details)!}${shown}`)
}

/**
 * The fields of a change the marketplace answered with other values than sent (`answered`: the listing
 * in its answer): it did not set them as asked, whatever its answer's words. A field the answer does not
 * hold as a number says nothing against the change.
 */
export function fieldsNotTaken(answered: object, sent: Readonly<Record<string, number | undefined>>): string[] {
  return Object.keys(sent).filter((key) => {
    const held = valueOf(answered, key)
    return sent[key] !== undefined && typeof held === 'number' && held !== sent[key]
  })
}

/** Why a field the marketplace answered with another value than sent is not counted as changed. */
export function notTakenMessage(field: string, answered: object, sent: number, descriptors: FieldSet = LISTING_FIELD_SET): string {
  const described = descriptors.get(field)
  return `The marketplace answered with ${described.wire} ${described.display(valueOf(answered, field) as number)}, not the ${described.display(sent)} sent: it did not take the new value (a limit or a review of its own?). Check the listing on the marketplace.`
}
