/**
 * Rows a marketplace sends in a form its own spec does not allow: a listing whose price is "abc", an
 * order whose total is, a row with no id (bad data entered on its website, a migration gone wrong).
 * The sandbox sends the rows named so in every list answer, among the others as they are, so a client
 * can be tried against a list where one row of a page cannot be read.
 */

/** How a row is spoiled: a value of the wrong form ('value'), or its id left out ('no-id'). */
export type RowFault = 'value' | 'no-id'

/** The amount of each list's rows that a 'value' fault spoils. */
const SPOILED_AMOUNT = { sellRequests: 'price', orders: 'totalPrice' } as const

/** The row as a list answer sends it, spoiled as `fault` says (a copy). */
export function spoiledRow(resource: 'orders' | 'sellRequests', row: Record<string, unknown>, fault: RowFault): Record<string, unknown> {
  const copy = { ...row }
  if (fault === 'no-id') delete copy['id']
  else copy[SPOILED_AMOUNT[resource]] = 'abc'
  return copy
}
