/**
 * The import reader's checks that need no account: a CSV holding control characters (text from a binary
 * file) is refused past a few, a CSV row with more or fewer fields than its header is reported and not
 * read under the wrong columns, and listings are found by id in any letter case and by SKU, a shared
 * SKU finding each of its listings; a SKU is found in any letter case and without the spaces around it,
 * the listing written exactly so first, and a row whose SKU names several listings by letter case alone
 * is refused, naming them.
 */
import { describe, expect, it } from 'vitest'
import type { CurrentListing, ImportListing } from './currentListings'
import { writeSheet } from '../spreadsheetFile/sheetFile'
import { listingsSheet } from './exportFile'
import { importChanges, listingFinder, listingsNamed, readImportTable } from './importFile'

const listing = (n: number, sku = `SKU-${n}`): ImportListing => ({
  id: `00000000-0000-4000-8000-00000000000${n}`,
  sku,
  priceCents: 100,
  quantity: 1,
  updatedAt: '2025-01-01T00:00:00.000Z'
})

describe('control characters in a CSV', () => {
  const csv = (rows: number, control: string, count = 3) =>
    new TextEncoder().encode(['id,price', ...Array.from({ length: rows }, (_, i) => `id-${i},1.00${i < count ? control : ''}`)].join('\n'))

  it('refuses more than one in a thousand characters (at least 2), and reads the rest', async () => {
    await expect(readImportTable('two.csv', csv(10, '\x07', 2))).resolves.toMatchObject({ format: 'csv' })
    await expect(readImportTable('three.csv', csv(10, '\x1b'))).rejects.toThrow(/does not look like a CSV file/)
    await expect(readImportTable('replaced.csv', csv(10, '\uFFFD'))).rejects.toThrow(/does not look like a CSV file/)
    // Tabs, CRs and line breaks are text.
    await expect(readImportTable('tabs.csv', csv(10, '\t\r'))).resolves.toMatchObject({ format: 'csv' })
    // Three in 30,000 characters are a few.
    await expect(readImportTable('long.csv', csv(2_000, '\x1b'))).resolves.toMatchObject({ format: 'csv' })
  })
})

describe('a CSV row with more or fewer fields than the header', () => {
  const phones: CurrentListing[] = [1, 2, 3].map((n) => ({
    ...listing(n),
    name: `Phone ${n}`,
    brand: 'Brand',
    status: 'open',
    priceCents: 45_000 + n,
    quantity: 10 + n
  }))
  /** The Bulk edit export of the phones as CSV lines (header first), as a seller opens it in a text editor. */
  async function exportedLines(): Promise<string[]> {
    const file = await writeSheet(
      listingsSheet(
        phones,
        () => ({}),
        () => undefined,
        '2026-11-24'
      ),
      'csv'
    )
    return Buffer.from(file.base64, 'base64').toString('utf8').split('\r\n')
  }
  /** A line's fields (none of the phones' values holds a comma or a quote). */
  const fieldsOf = (line: string) => line.split(',')
  /** What a file stages, as [listing, field, value], and its problems. */
  async function importOf(lines: string[], listings: ImportListing[] = phones) {
    const table = await readImportTable('prices.csv', new TextEncoder().encode(lines.join('\r\n')))
    const result = await importChanges('prices.csv', table, listingFinder(listings))
    return { rows: result.rows, staged: result.proposed.map((change) => [change.sellRequestId, change.field, change.after]), problems: result.problems }
  }
  const counts = (fields: number, header: number) => `This row has ${fields} fields but the header has ${header}, so its values may be under the wrong columns.`
  const NEEDS_QUOTES = 'A value with a comma in it needs quotes around it ("1,299.00").'
  const EXTRA_COMMA = 'If it ends with an extra comma, remove that; a value with a comma in it needs quotes around it ("1,299.00").'
  const DELETED = 'A value may have been deleted together with its comma: to leave a value unchanged, empty it and keep its comma.'

  it('reports an unquoted 1,299.00 (two fields) and stages nothing of its row; quoted, it is one field', async () => {
    const lines = await exportedLines()
    expect(fieldsOf(lines[0]!)).toHaveLength(15)
    const price = fieldsOf(lines[0]!).indexOf('Price')
    const edited = (line: string, value: string) => fieldsOf(line).with(price, value).join(',')
    expect(await importOf([lines[0]!, edited(lines[1]!, '1,299.00'), ...lines.slice(2)])).toEqual({
      rows: 3,
      staged: [],
      problems: [{ row: 2, message: `${counts(16, 15)} ${NEEDS_QUOTES}` }]
    })
    expect(await importOf([lines[0]!, edited(lines[1]!, '"1,299.00"'), ...lines.slice(2)])).toEqual({
      rows: 3,
      staged: [[phones[0]!.id, 'priceCents', 129_900]],
      problems: []
    })
  })

  it('reports a row with a field deleted by its place, not as a wrong value in the next column', async () => {
    const lines = await exportedLines()
    const quantity = fieldsOf(lines[0]!).indexOf('Quantity')
    const withoutQuantity = fieldsOf(lines[2]!).toSpliced(quantity, 1).join(',')
    expect(await importOf([lines[0]!, lines[1]!, withoutQuantity, lines[3]!])).toEqual({
      rows: 3,
      staged: [],
      problems: [{ row: 3, message: `${counts(14, 15)} ${DELETED}` }]
    })
  })

  it('stages the good rows of a file and reports each bad one', async () => {
    const lines = await exportedLines()
    const price = fieldsOf(lines[0]!).indexOf('Price')
    const good = fieldsOf(lines[1]!).with(price, '499.99').join(',')
    const tooMany = fieldsOf(lines[2]!).with(price, '1,299.00').join(',')
    const tooFew = fieldsOf(lines[3]!).with(price, '399.00').slice(0, -1).join(',')
    expect(await importOf([lines[0]!, good, tooMany, tooFew])).toEqual({
      rows: 3,
      staged: [[phones[0]!.id, 'priceCents', 49_999]],
      problems: [
        { row: 3, message: `${counts(16, 15)} ${NEEDS_QUOTES}` },
        { row: 4, message: `${counts(14, 15)} ${DELETED}` }
      ]
    })
  })

  it('reports a lone row with an extra empty field at its end, or without its last empty one: either may have moved a value', async () => {
    // Price 1,299.00 unquoted before an empty quantity reads as well as price 1 and quantity 299.00 before a stray comma.
    const file = ['id,price,quantity', `${phones[0]!.id},1,299.00,`, `${phones[1]!.id},5.00,6`, `${phones[2]!.id},7.00`]
    expect(await importOf(file)).toEqual({
      rows: 3,
      staged: [
        [phones[1]!.id, 'priceCents', 500],
        [phones[1]!.id, 'quantity', 6]
      ],
      problems: [
        { row: 2, message: `${counts(4, 3)} ${EXTRA_COMMA}` },
        { row: 4, message: `${counts(2, 3)} ${DELETED}` }
      ]
    })
  })

  it('reads rows that all end with an extra delimiter, with or without one on the header, measuring each row by most', async () => {
    const [a, b, c] = phones.map((phone) => phone.id)
    const staged = [
      [a, 'priceCents', 200],
      [a, 'quantity', 3],
      [b, 'priceCents', 400]
    ]
    expect(await importOf(['id,price,quantity,', `${a},2.00,3,`, `${b},4.00,,`])).toEqual({ rows: 2, staged, problems: [] })
    expect(await importOf(['id,price,quantity', `${a},2.00,3,`, `${b},4.00,,`])).toEqual({ rows: 2, staged, problems: [] })
    // Where most rows end with an extra comma, a row of as many fields as the header is the one that differs.
    expect(await importOf(['id,price,quantity', `${a},2.00,3,`, `${b},4.00,,`, `${c},1,299.00`])).toEqual({
      rows: 3,
      staged,
      problems: [{ row: 4, message: `This row has 3 fields but most rows have 4, so its values may be under the wrong columns. ${DELETED}` }]
    })
  })

  it('counts a semicolon CSV’s fields by its semicolons, and names them', async () => {
    const file = ['sku;price;quantity', 'SKU-1;2,50;3', 'SKU-2;4,50;5;6', 'SKU-3;7']
    expect(await importOf(file, [listing(1), listing(2), listing(3)])).toEqual({
      rows: 3,
      staged: [
        [listing(1).id, 'priceCents', 250],
        [listing(1).id, 'quantity', 3]
      ],
      problems: [
        { row: 3, message: `${counts(4, 3)} A value with a semicolon in it needs quotes around it.` },
        {
          row: 4,
          message: `${counts(2, 3)} A value may have been deleted together with its semicolon: to leave a value unchanged, empty it and keep its semicolon.`
        }
      ]
    })
  })
})

describe('finding listings', () => {
  it('by id in any letter case, and by SKU, a shared SKU giving each of its listings', () => {
    const shared = [listing(1, 'SHARED'), listing(2, 'SHARED')]
    const finder = listingFinder([...shared, listing(3)])
    expect(finder.byId(listing(3).id.toUpperCase())).toMatchObject({ sku: 'SKU-3' })
    expect(finder.bySku('SHARED')).toEqual(shared)
    expect(finder.bySku('SKU-3')).toEqual([listing(3)])
    expect(finder.bySku('SKU-9')).toEqual([])
  })

  it('names the listings of a file by id (any letter case) and by SKU, and refuses a row on a shared SKU', async () => {
    const file = ['id,sku,price', `${listing(3).id.toUpperCase()},,2.00`, ',SHARED,3.00', ',SKU-4,4.00'].join('\n')
    const table = await readImportTable('named.csv', new TextEncoder().encode(file))
    const named = await listingsNamed('named.csv', table)
    expect([1, 2, 3, 4, 5].map((n) => named(listing(n, n < 3 ? 'SHARED' : `SKU-${n}`).id, n < 3 ? 'SHARED' : `SKU-${n}`))).toEqual([
      true,
      true,
      true,
      true,
      false
    ])
    const result = await importChanges('named.csv', table, listingFinder([listing(1, 'SHARED'), listing(2, 'SHARED'), listing(3), listing(4)]))
    expect(result.proposed.map((change) => [change.sellRequestId, change.after])).toEqual([
      [listing(3).id, 200],
      [listing(4).id, 400]
    ])
    expect(result.problems).toEqual([{ row: 3, message: 'SKU “SHARED” belongs to 2 listings: use the id column for these.' }])
  })
})

describe('a SKU in another letter case, or with spaces around it', () => {
  /** What a file of `sku,price` lines stages against these listings, as [listing, price], and its problems. */
  async function importOf(lines: string[], listings: ImportListing[]) {
    const table = await readImportTable('prices.csv', new TextEncoder().encode(['sku,price', ...lines].join('\n')))
    const named = await listingsNamed('prices.csv', table)
    // Only the listings the file names are read for an import (importListingsAfter): the case-blind ones too.
    const finder = listingFinder(listings.filter((listing) => named(listing.id, listing.sku)))
    const result = await importChanges('prices.csv', table, finder)
    return { staged: result.proposed.map((change) => [change.sellRequestId, change.after]), problems: result.problems }
  }

  it('finds the listing whatever the letter case, and without the spaces around either SKU', async () => {
    const listings = [listing(1, 'IPH13-128-BLK'), listing(2, ' Pixel-7 '), listing(3, 'SKU-3')]
    expect(await importOf(['iph13-128-blk,2.00', '"  PIXEL-7\t",3.00', 'sku-3,4.00'], listings)).toEqual({
      staged: [
        [listing(1).id, 200],
        [listing(2).id, 300],
        [listing(3).id, 400]
      ],
      problems: []
    })
  })

  it('takes the listing written exactly so when two SKUs differ only by case', async () => {
    const listings = [listing(1, 'IPH13-128-BLK'), listing(2, 'iph13-128-blk')]
    expect(await importOf(['iph13-128-blk,2.00', 'IPH13-128-BLK,3.00'], listings)).toEqual({
      staged: [
        [listing(2).id, 200],
        [listing(1).id, 300]
      ],
      problems: []
    })
  })

  it('refuses a row whose SKU names several listings by letter case alone, none exactly, naming them, and stages nothing of it', async () => {
    const listings = [listing(1, 'IPH13-128-BLK'), listing(2, 'iph13-128-blk'), listing(3, 'SKU-3')]
    expect(await importOf(['Iph13-128-Blk,2.00', 'sku-3,4.00'], listings)).toEqual({
      staged: [[listing(3).id, 400]],
      problems: [
        {
          row: 2,
          message:
            'SKU “Iph13-128-Blk” is not written exactly as any listing’s, and letter case aside it matches 2: “IPH13-128-BLK” and “iph13-128-blk”. Write the SKU as its listing has it, or use the id column.'
        }
      ]
    })
  })

  it('keeps a SKU shared exactly by several listings refused as before, and the same listing named twice in two cases refused on both rows', async () => {
    const listings = [listing(1, 'SHARED'), listing(2, 'SHARED'), listing(3, 'ABC-3')]
    const result = await importOf(['shared,2.00', 'abc-3,3.00', 'ABC-3,4.00'], listings)
    expect(result.staged).toEqual([])
    expect(result.problems).toEqual([
      { row: 2, message: 'SKU “shared” belongs to 2 listings: use the id column for these.' },
      { row: 3, message: 'This listing appears on rows 3, 4: keep one row per listing.' },
      { row: 4, message: 'This listing appears on rows 3, 4: keep one row per listing.' }
    ])
  })
})
