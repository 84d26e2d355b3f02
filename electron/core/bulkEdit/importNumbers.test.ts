/**
 * Numbers in imported files, read by the one reader of prices and quantities (listingFields): a
 * semicolon CSV from a spreadsheet in a European locale (decimal comma, thousands point), as LibreOffice
 * writes it; semicolon files whose cells say otherwise or nothing; comma CSV with dollar signs and
 * thousands separators. Each refused cell is reported with its row.
 *
 * libreOfficeGerman.fixture.csv was written by LibreOffice 7 from libreOfficeGerman.fixture.fods
 * (cells formatted in German, with and without thousands separators):
 *   soffice --headless --convert-to 'csv:Text - txt - csv (StarCalc):59,34,76' libreOfficeGerman.fixture.fods
 * Where LibreOffice is installed, the test writes it again and checks it is the same file.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { CurrentListing } from './currentListings'
import { importChanges, listingFinder, readImportTable, type ImportOptions } from './importFile'

const fixture = (name: string) => join(__dirname, name)

const listing = (n: number): CurrentListing => ({
  id: `00000000-0000-4000-8000-00000000000${n}`,
  sku: `SKU-${n}`,
  name: `Phone ${n}`,
  brand: 'Acme',
  status: 'Open',
  priceCents: 100,
  quantity: 1,
  updatedAt: '2025-01-01T00:00:00.000Z'
})
const finder = listingFinder([1, 2, 3, 4, 5].map(listing))

async function importOf(name: string, content: string | Uint8Array, options?: ImportOptions) {
  const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : content
  const result = await importChanges(name, await readImportTable(name, bytes, options), finder)
  const values = Object.fromEntries(result.proposed.map((change) => [`${change.sellRequestId.slice(-1)}:${change.field}`, change.after]))
  const problems = Object.fromEntries(result.problems.map((problem) => [problem.row, problem.message]))
  return { values, problems }
}

const hasLibreOffice = (() => {
  try {
    execFileSync('soffice', ['--version'], { stdio: 'ignore', timeout: 30_000 })
    return true
  } catch {
    return false
  }
})()

describe('a semicolon CSV from a spreadsheet in a European locale', () => {
  it('reads decimal commas and thousands points as LibreOffice (German) writes them; an out-of-range price is reported by row', async () => {
    const { values, problems } = await importOf('preise.csv', readFileSync(fixture('libreOfficeGerman.fixture.csv')))
    expect(values).toEqual({
      '1:priceCents': 129999, // 1299,99
      '1:quantity': 3,
      '2:priceCents': 129950, // 1.299,50
      '2:quantity': 1200, // 1.200: the file's decimal commas say the point groups thousands
      '3:priceCents': 1250, // 12,50
      '3:quantity': 7
    })
    expect(problems).toEqual({ 5: 'Price “1.234.567,80” must be at most $1,000,000.00.' })
  })

  it.skipIf(!hasLibreOffice)(
    'the fixture is what LibreOffice writes',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'seller-desk-lo-'))
      try {
        execFileSync(
          'soffice',
          [
            '--headless',
            `-env:UserInstallation=file://${dir}/profile`,
            '--convert-to',
            'csv:Text - txt - csv (StarCalc):59,34,76',
            '--outdir',
            dir,
            fixture('libreOfficeGerman.fixture.fods')
          ],
          { stdio: 'ignore', timeout: 120_000 }
        )
        expect(readFileSync(join(dir, 'libreOfficeGerman.fixture.csv'), 'utf8')).toBe(readFileSync(fixture('libreOfficeGerman.fixture.csv'), 'utf8'))
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    },
    130_000
  )

  it('a file whose numbers do not tell the decimal mark: 1.299 and 1,299 are refused, naming the row, never guessed', async () => {
    const { values, problems } = await importOf('prices.csv', 'sku;price;quantity\nSKU-1;1.299;\nSKU-2;1,299;\nSKU-3;1299;1.000\nSKU-4;5;\n')
    expect(values).toEqual({ '4:priceCents': 500 }) // row 4's price is fine, its quantity is not: the row stages nothing
    expect(problems[2]).toBe(
      'Price “1.299” could be a thousands separator or three decimals: write the number without a thousands separator (1299, or 1299,50 with cents).'
    )
    expect(problems[3]).toMatch(/^Price “1,299” could be a thousands separator or three decimals/)
    expect(problems[4]).toMatch(/^Quantity “1\.000” could be a thousands separator/)
  })

  it('a semicolon file with decimal points is read with decimal points', async () => {
    const { values, problems } = await importOf('prices.csv', '\uFEFFSKU;Price;Quantity\nSKU-1;55.50;\nSKU-2;12.345;\nSKU-3;1,299.00;2\n')
    expect(values).toEqual({ '1:priceCents': 5550, '3:priceCents': 129900, '3:quantity': 2 })
    expect(problems).toEqual({ 3: 'Price “12.345” has more than two decimals.' })
  })

  it('the seller may say how the file writes numbers; a two-column file is read as one too', async () => {
    const { values } = await importOf('prices.csv', 'sku;price\nSKU-1;1.299\nSKU-2;7\n', { numbers: 'comma' })
    expect(values).toEqual({ '1:priceCents': 129900, '2:priceCents': 700 })
  })
})

describe('a comma CSV', () => {
  it('reads prices as a seller or a spreadsheet writes them: dollar signs and thousands separators', async () => {
    const { values, problems } = await importOf('prices.csv', 'sku,price,quantity\nSKU-1,"$1,299.00","1,200"\nSKU-2,310,\nSKU-3,-5,\nSKU-4,"12,50",\n')
    expect(values).toEqual({ '1:priceCents': 129900, '1:quantity': 1200, '2:priceCents': 31000 })
    expect(problems).toEqual({ 4: 'Price “-5” cannot be negative.', 5: 'Price “12,50” is not a number: write decimals with a point (12.50).' })
  })
})
