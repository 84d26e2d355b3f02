/**
 * A change whose outcome the marketplace did not tell: accepted (2xx) with an answer that could not be
 * read (the client's 'unconfirmed': most likely made), or sent with no answer at all (timed out, the
 * connection lost, a gateway's word that it got none: `unanswered`, maybe made). "Not changed" would mislead the seller, and sending it
 * again blind could not say what happened either: only the listing as the marketplace holds it now can
 * tell. One place judges what reading it back shows, for a seller's edit or delete (workspace.ts) and a
 * bulk apply's changes (bulkEdit/applyRun.ts) alike, and says it in words.
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

/**
 * Why a change is read back: its answer could not be read ('unread'), never came ('unanswered'), or
 * came as a success whose body said it failed ('said-failed', with what it `said`). A failure that is
 * none of these (refused, or the connection refused before anything was sent) says the change was not
 * made, and is not read back.
 */
export type ReadBackCause = { why: 'unread' | 'unanswered' } | { why: 'said-failed'; said: string }

export function readBackCause(error: SellerDeskError): ReadBackCause | null {
  if (error.kind === 'unconfirmed') return error.saidFailed === undefined ? { why: 'unread' } : { why: 'said-failed', said: error.saidFailed }
  return error.unanswered ? { why: 'unanswered' } : null
}

/** What a read-back message names: the request, what was done to the listing, and the word for done. */
const ACTIONS = {
  change: { request: 'change', subject: 'it', done: 'made' },
  delete: { request: 'delete', subject: 'the listing', done: 'deleted' }
} as const

/** What happened to the request, as every read-back message starts, and what that alone says of it. */
function happened(cause: ReadBackCause, action: keyof typeof ACTIONS = 'change'): { request: string; alone: string } {
  const { request, subject, done } = ACTIONS[action]
  const maybe = `so ${subject} may or may not have been ${done}`
  switch (cause.why) {
    case 'unread':
      return { request: `The marketplace accepted the ${request}, but its answer could not be read`, alone: `so ${subject} was most likely ${done}` }
    case 'unanswered':
      return {
        request: `The ${request} was sent, but the marketplace's answer never came (the connection was lost, it did not answer in time, or a gateway in front of it got no answer)`,
        alone: maybe
      }
    case 'said-failed':
      return { request: `The marketplace's answer said the ${request} failed (${cause.said}), though it came as a success (HTTP 200)`, alone: maybe }
  }
}

export function readBackVerdict(failure: ErrorData | null, listing: ListingValues, field: string, after: number): ReadBackVerdict {
  if (failure) return 'unknown'
  if (!listing) return 'gone'
  return valueOf(listing, field) === after ? 'made' : 'not-made'
}

/**
 * Why a change is reported as it is after reading back (null for `made`: it is simply done). `now` is
 * the listing as read back, for `not-made`.
 */
export function readBackMessage(
  verdict: ReadBackVerdict,
  details: { cause: ReadBackCause; fields: readonly string[]; now?: ListingValues; descriptors?: FieldSet }
): string | null {
  const descriptors = details.descriptors ?? LISTING_FIELD_SET
  const { request, alone } = happened(details.cause)
  switch (verdict) {
    case 'made':
      return null
    case 'unknown':
      return `${request}, ${alone}. Seller Desk could not read the listing back from the marketplace to check: the next sync shows its current values.`
    case 'gone':
      return `${request}, and the listing is no longer on the marketplace (deleted elsewhere?).`
    case 'not-made': {
      const now = details.now ?? {}
      const values = details.fields.map((key) => {
        const field = descriptors.get(key)
        const value = valueOf(now, key)
        return `${field.label.toLowerCase()} ${typeof value === 'number' ? field.display(value) : 'unknown'}`
      })
      return `${request}, and the listing read back from the marketplace shows ${values.join(' and ')}, not the new value: it was not changed, or was changed again since.`
    }
  }
}

/**
 * A seller's edit that reading back did not show made, as the error the seller gets: while it is not
 * known, the kind of the `failure` read back ('unconfirmed': most likely made, the screen keeps the new
 * value; a timeout or lost connection: maybe not); a listing found without the change was not changed
 * there ('server'), one found gone, 'not-found'.
 */
export function readBackError(
  verdict: Exclude<ReadBackVerdict, 'made'>,
  details: { failure: SellerDeskError; fields: readonly string[]; now?: ListingValues }
): SellerDeskError {
  // (Only a failure whose change was read back comes here, so readBackCause names it.)
  const cause = readBackCause(details.failure)!
  const kind: ErrorKind = verdict === 'unknown' ? details.failure.kind : verdict === 'gone' ? 'not-found' : 'server'
  const shown = verdict === 'not-made' ? " Showing the marketplace's current value." : ''
  return new SellerDeskError(kind, `${readBackMessage(verdict, { ...details, cause })!}${shown}`)
}

/**
 * A delete whose outcome the marketplace did not tell and that could not be checked either (workspace.ts
 * deletes it again to learn whether it is gone): as the error the seller gets, of the `failure`'s kind.
 */
export function deleteNotCheckedError(failure: SellerDeskError): SellerDeskError {
  const { request, alone } = happened(readBackCause(failure)!, 'delete')
  return new SellerDeskError(failure.kind, `${request}, ${alone}. Seller Desk could not check: delete it again to find out (one already gone is said to be).`)
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
