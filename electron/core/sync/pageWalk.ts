/**
 * A walk through a list the marketplace pages, from its first row to its end, one page after another,
 * that trusts no page to be whole: the size a marketplace pages by is learned from its first answer (a
 * cap below the `take` asked, or a size of its own above it), a page cut short is asked again from where
 * the rows read end, and the end is a short or empty page once the count is reached (a whole page there
 * may hide more: a count that is too low). A walk that stops getting anywhere ends, cut short.
 *
 * The incremental sync's walk of what changed (syncEngine.ts changesSince) and the reads of orders before
 * the synced window (olderOrders.ts) are both this walk; what they do with the rows is theirs.
 */

/**
 * The rows a server pages by, from its first answer: fewer than asked while more remain is its cap, more
 * than asked is its own size. Only the first page may lower it (later short pages are pages cut short).
 */
export function pageSizeAfterFirst(asked: number, rows: number, total: number): number {
  return rows > asked || (rows > 0 && rows < asked && total > rows) ? rows : asked
}

/** Pages that bring nothing new where rows should be, asked in a row, before the walk is cut short. */
const STUCK_PAGES = 5

export class PageWalk {
  /** Rows per page to ask for: the size asked first, then the one the marketplace pages by. */
  size: number
  /** The page to ask for next. */
  page = 1
  /** Pages answered so far (a first page asked again counts twice). */
  pagesDone = 0
  /** Rows read from the list's start with no gap. */
  position = 0
  /** Whether the last page's rows joined what was read (a page that starts past a gap does not). */
  joins = false
  /** The list position of the last page's first row. */
  start = 0
  private asked = 0
  private before = 0
  private stuck = 0
  /** The page answered before the last one (0 before the second answer). */
  private previousPage = 0
  private firstRows: number | null = null
  private largestTotal = 0

  constructor(take: number) {
    this.size = take
  }

  /**
   * Takes in a page's answer: its row count and the marketplace's count of the list. False for a first
   * page short of what was asked while more remain: it is asked once more (a cap answers short again, a
   * page cut short at random does not; the larger answer is the page size), and nothing else is done.
   */
  answered(rows: number, total: number): boolean {
    this.pagesDone++
    this.largestTotal = Math.max(this.largestTotal, total)
    const asked = this.size
    this.asked = asked
    if (this.pagesDone === 1 && rows < asked && total > rows) {
      this.firstRows = rows
      return false
    }
    if (this.pagesDone <= 2 && this.page === 1) this.size = pageSizeAfterFirst(asked, Math.max(rows, this.firstRows ?? 0), total)
    else if (rows > this.size) this.size = rows
    this.start = (this.page - 1) * Math.max(asked, rows)
    // Only rows that join what was read move the walk on; a page cut short is asked again.
    this.joins = this.start <= this.position
    this.before = this.position
    if (this.joins) this.position = Math.max(this.position, this.start + rows)
    return true
  }

  /**
   * After a page taken in: 'end' (a short or empty page once the count is reached, or `neverListed` rows
   * short of it once asked again), 'cut-short' (pages
   * that brought nothing new, asked again a few times, or far more pages than the count needs), or
   * 'next' with `page` set to the one to ask for.
   */
  next(rows: number, total: number, neverListed = 0): 'end' | 'cut-short' | 'next' {
    if (this.position >= total && (rows === 0 || rows < this.asked)) return 'end'
    this.stuck = this.position > this.before ? 0 : this.stuck + 1
    const askedAgain = this.page === this.previousPage
    this.previousPage = this.page
    // Within the last `neverListed` rows of the count (a full sync found them counted and never listed):
    // a short or empty page that, asked again, brings nothing more is the end. Asked again, since a page
    // cut short at random there comes back whole.
    if (neverListed > 0 && this.position >= total - neverListed && rows < this.asked && this.stuck > 0 && askedAgain) return 'end'
    if (this.stuck > STUCK_PAGES || this.pagesDone > 2 * Math.ceil(this.largestTotal / this.size) + 10) return 'cut-short'
    this.page = Math.floor(this.position / this.size) + 1
    return 'next'
  }

  /** Pages a count of `total` makes at the size learned, never fewer than those read (progress). */
  pagesTotal(total: number): number {
    return Math.max(this.pagesDone, Math.ceil(total / this.size))
  }

  /** Whether a page answered at `page` lies wholly past the count: a marketplace answering its last page again there. */
  pastCount(total: number): boolean {
    return this.page > 1 && (this.page - 1) * this.size >= total
  }
}
