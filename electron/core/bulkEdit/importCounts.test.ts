/**
 * What an import counts for its report: every row read once, as a row that staged changes (a row may
 * stage a price and a quantity), a row already up to date, a row with no value to change, or a row not
 * used; so the rows a report names add up to the rows read, whatever the changes per row.
 */
import { describe, expect, it } from 'vitest'
import { importChanges, listingFinder, readImportTable, type ImportResult } from './importFile'
import { importListing } from './importListing.fixture'

const listing = importListing
const id = (n: number) => listing(n).id

async function importOf(lines: string[], pending: Record<string, number> = {}): Promise<ImportResult> {
  const table = await readImportTable('prices.csv', new TextEncoder().encode(lines.join('\n')))
  const finder = listingFinder([1, 2, 3, 4, 5, 6, 7, 8, 9].map(listing))
  return importChanges('prices.csv', table, finder, (sellRequestId, field) => pending[`${sellRequestId}:${field}`])
}

/** The rows a report names, which must add up to the rows read. */
const rowsNamed = (result: ImportResult) => result.stagedRows + result.unchanged + result.blankValues + result.problems.length

describe('the rows an import counts', () => {
  it('counts each row once: rows staging two changes, rows up to date, rows with blank values, rows not used', async () => {
    const result = await importOf(
      [
        'id,price,quantity',
        `${id(1)},2.00,5`, // 2: one row, two changes
        `${id(2)},1.00,1`, // 3: the listing's values: up to date
        `${id(3)},,`, // 4: blank values: nothing to change
        `${id(4)},3.00,`, // 5: one change
        `${id(5)},1.00,`, // 6: the current price while another is pending: kept, and up to date
        `${id(6)},2.50,`, // 7: the pending price again: up to date
        `00000000-0000-4000-8000-000000000000,1.00,`, // 8: no such listing
        `${id(7)},abc,`, // 9: not a number
        `${id(8)},1,299.00,`, // 10: four fields under three columns (an unquoted 1,299.00)
        ',,', // 11: a blank row: not read, so not counted
        `${id(9)},4.00,`, // 12: the same listing twice: both rows not used
        `${id(9)},5.00,`, // 13
        `00000000-0000-4000-8000-000000000000,,` // 14: no such listing, its values blank: not used
      ],
      { [`${id(5)}:priceCents`]: 150, [`${id(6)}:priceCents`]: 250 }
    )
    expect(result).toMatchObject({ rows: 12, stagedRows: 2, unchanged: 3, blankValues: 1, kept: 1, replaced: 0 })
    expect(result.proposed).toHaveLength(3)
    expect(result.problems.map((problem) => problem.row)).toEqual([8, 9, 10, 12, 13, 14])
    expect(rowsNamed(result)).toBe(result.rows)
  })

  it('counts a row that stages one value and keeps a pending one as staged, once', async () => {
    const result = await importOf(['id,price,quantity', `${id(1)},1.00,7`], { [`${id(1)}:priceCents`]: 150 })
    expect(result).toMatchObject({ rows: 1, stagedRows: 1, unchanged: 0, blankValues: 0, kept: 1 })
    expect(result.proposed.map((change) => [change.field, change.after])).toEqual([['quantity', 7]])
  })

  it('counts a row whose only value column is missing a value as blank, in a file with one field column', async () => {
    const result = await importOf(['sku,quantity', 'SKU-1,', 'SKU-2,4'])
    expect(result).toMatchObject({ rows: 2, stagedRows: 1, unchanged: 0, blankValues: 1, problems: [] })
    expect(rowsNamed(result)).toBe(result.rows)
  })
})
