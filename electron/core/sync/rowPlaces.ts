/**
 * Where each row of a list was read, by id, and the pages read again where that shows rows missed.
 *
 * The spec sorts lists by update time and names no tie-breaker: a marketplace may order rows of equal
 * time anew on each request (SQL does, for `ORDER BY updatedAt … LIMIT … OFFSET …`), and a seller's bulk
 * change on its website gives thousands of rows one time. A page inside such a run then holds some rows
 * of the run at random: rows another page held already, and not others. Every position is read and yet
 * rows are missed. The rows of a run always fill the same positions, so a row missed leaves one read
 * twice in that stretch: a row read at two positions marks the positions between as in doubt, and the
 * pages over them are read again until as many rows as the list holds there are read.
 *
 * A marketplace may instead order ties by the page asked, the same each time it is asked: a SQL
 * planner's sort bounded by OFFSET + LIMIT orders them by that bound. Reading the same pages again then
 * brings nothing new, and pages of another size, which cut the run elsewhere, do.
 *
 * A row that moves while a list is read (an update brings it to the front) is read at two positions
 * too, with another update time at the second: that is no tie, and the catch-up after the pass reads
 * what changed. (Orders carry no update time: for them any row read twice marks its stretch.)
 */
import { SellerDeskError } from '../../shared/errors'
import { isPlaceKey } from '../snapshot/unreadableRows'
import { forEachBounded } from './boundedConcurrency'
import { pagesOver, withRange, type RowRanges } from './rowRanges'

/**
 * Times the pages in doubt are all read again, at most, and in a row with no row new to the read before
 * it gives up. Each reading brings any row missed with a fair chance, so a run is read whole within a
 * few readings more than the number of times its length doubles a page; a marketplace that never
 * answers some rows (a total that counts rows it does not list) brings nothing new and ends it soon.
 */
const READINGS = 40
const IDLE_READINGS = 6

export class RowPlaces {
  private readonly first = new Map<string, { position: number; updated: string | undefined }>()
  private doubt: RowRanges = []
  /**
   * Set once pages are read again: a row with no id is then not taken in. Known only by where it was
   * read, it would count as a row new to the read at each place it turns up, and the rows missed would
   * seem found.
   */
  readingAgain = false
  /** Where the rows with no id were read (rows known only by their place). */
  private readonly nameless: number[] = []

  /** A row `id` read at `position`, updated at `updated` (as the marketplace wrote it; undefined where rows carry no update time). */
  note(position: number, id: string, updated?: string): void {
    if (this.readingAgain && isPlaceKey(id)) return
    const first = this.first.get(id)
    if (first === undefined) {
      this.first.set(id, { position, updated })
      if (isPlaceKey(id)) this.nameless.push(position)
    } else if (first.position !== position && first.updated === updated)
      this.doubt = withRange(this.doubt, Math.min(first.position, position), Math.max(first.position, position) + 1)
  }

  /** Whether a row was read at two places (its stretch is in doubt), whatever was read again since. */
  get inDoubt(): boolean {
    return this.doubt.length > 0
  }

  has(id: string): boolean {
    return this.first.has(id)
  }

  /**
   * Rows read (each once, wherever it was read). Not a row with no id read where rows are in doubt: it
   * may be one read at another place there, and counting it could make rows missed seem read.
   */
  get count(): number {
    const unsure =
      this.doubt.length === 0 ? 0 : this.nameless.filter((position) => this.doubt.some(([start, stop]) => position >= start && position < stop)).length
    return this.first.size - unsure
  }

  /** The 1-based pages of `size` rows over the positions in doubt below `end`. */
  pagesInDoubt(size: number, end: number): number[] {
    const below = this.doubt.filter(([start]) => start < end).map(([start, stop]): [number, number] => [start, Math.min(stop, end)])
    return pagesOver(below, size)
  }
}

/** How to read a list's pages in doubt again. */
export interface ReadingAgain {
  /** The rows the list holds where they are in doubt: its first `wanted()` positions. */
  wanted: () => number
  /** The rows a page holds, as the list was read. */
  size: () => number
  /** Reads page `page` of `size` rows and takes its rows into the places; answers how many rows it held. */
  read: (page: number, size: number) => Promise<number>
  /** Pages asked for at once. */
  lanes: number
}

/**
 * How much each reading's pages differ in size from the last once the same pages brought no row new, in
 * parts of the list's page size: pages of every size in turn cut the run elsewhere, and the sizes near
 * the list's own keep the requests few.
 */
const SIZE_STEPS = 20

/**
 * Whether a page of a size other than the list's own failed because that size cannot be had: the
 * marketplace refused it as a request (a validating API's smallest or largest page), or found no such page.
 */
const sizeRefused = (error: unknown): boolean => error instanceof SellerDeskError && (error.kind === 'invalid-input' || error.kind === 'not-found')

/**
 * Reads again the pages in doubt (below `wanted()`) while fewer rows than that were read, a reading at
 * a time; once a reading brought no row new, each in pages of another size: smaller ones, then, once
 * those cannot be had (refused, or none left), larger ones, for as long as the marketplace serves them.
 * Answers false when rows read twice showed ties and the rows missed could not all be read; rows short
 * with none read twice are no tie's doing, and are left to the checks after the walk. Costs nothing when
 * every row was read.
 *
 * `again.read` is to throw when the marketplace refuses a size other than the list's own, not to take
 * the refusal for an empty page: the pages in doubt lie where rows were read.
 */
export async function readAgainInDoubt(places: RowPlaces, again: ReadingAgain, signal: AbortSignal): Promise<boolean> {
  const whole = () => places.count >= again.wanted()
  // A count that moves is a list changing while it is read, not ties ordered anew: rows created or
  // deleted meanwhile are the catch-up's and the check's to find, not a reason to read on.
  const wanted = again.wanted()
  let doubted = false
  let size = again.size()
  /** How much each reading's pages differ from the last (0: the list's own size each time; below: only it can be had). */
  let step = 0
  /** Whether the sizes tried are larger than the list's own (smaller ones cannot be had). */
  let larger = false
  /** Whether no size other than those tried can be had: nothing more can be read. */
  let noneLeft = false
  places.readingAgain = true
  for (let reading = 0, idle = 0; !whole() && again.wanted() === wanted && reading < READINGS && idle < IDLE_READINGS && !noneLeft; reading++) {
    const pages = places.pagesInDoubt(size, again.wanted())
    if (pages.length === 0) break
    doubted = true
    const before = places.count
    const asked = size
    /** Whether the marketplace would not serve pages of this size. */
    let refusedSize = false
    // Pages in order, none once the rows are all read: a row moved to the front is found on the first.
    await forEachBounded(
      pages,
      again.lanes,
      async (page) => {
        if (whole() || refusedSize || noneLeft) return
        let rows: number
        try {
          rows = await again.read(page, asked)
        } catch (error) {
          // A size other than the list's own refused: the marketplace has a smallest (or largest) size of
          // its own. The pages of the list's size were read already.
          if (asked !== again.size() && sizeRefused(error)) {
            refusedSize = true
            return
          }
          throw error
        }
        // More rows than asked: the marketplace pages by its own size whatever is asked, and pages of
        // another size cannot be had.
        if (rows > asked) step = -1
        // A larger page short of what was asked though the list goes on past it: the marketplace caps
        // its pages (at the list's own size), and no larger size can be had.
        else if (larger && rows < asked && page * asked <= again.wanted()) noneLeft = true
      },
      signal
    )
    if (refusedSize) {
      // Refused smaller: larger pages may still be served, and cut the run elsewhere. Refused larger too:
      // no other size can be had. A refused reading read nothing, and counts as no idle one.
      if (larger || step <= 0) break
      larger = true
      size = again.size() + step
      continue
    }
    idle = places.count > before ? 0 : idle + 1
    if (idle > 0 && step === 0) step = Math.max(1, Math.round(again.size() / SIZE_STEPS))
    if (step <= 0) size = again.size()
    else if (!larger && size - step >= 1) size -= step
    else {
      // Smaller pages are all read: larger ones next, until one page holds every row in doubt.
      if (larger && size >= again.wanted()) break
      size = (larger ? size : again.size()) + step
      larger = true
    }
  }
  return whole() || !doubted
}
