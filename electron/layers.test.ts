/**
 * The layers stay apart: core runs in plain Node (no electron import) and never carries the demo
 * marketplace; the renderer never touches the key, keytar, ipcRenderer or Node modules.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(__dirname, '..')

function filesUnder(dir: string, pattern: RegExp): string[] {
  const out: string[] = []
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry)
    if (statSync(path).isDirectory()) out.push(...filesUnder(path, pattern))
    else if (pattern.test(entry)) out.push(path)
  }
  return out
}

/** Test code by name: `*.test.ts`, and what only tests use: `*.fixture.ts`, kill tests' `*.child.ts` and `*.steps.ts`. */
const TEST_CODE = /\.(test|fixture|child|steps)(\.ts)?$/

const importsOf = (text: string) => [...text.matchAll(/(?:from\s+|import\s*\(\s*|require\s*\(\s*)['"]([^'"]+)['"]/g)].map((m) => m[1]!)

describe('layer rules', () => {
  it('no file under electron/core or electron/sandbox imports electron', () => {
    const files = [...filesUnder(join(root, 'electron/core'), /\.ts$/), ...filesUnder(join(root, 'electron/sandbox'), /\.ts$/)]
    expect(files.length).toBeGreaterThan(10)
    const offenders = files.filter((file) => importsOf(readFileSync(file, 'utf8')).some((spec) => spec === 'electron' || spec.startsWith('electron/')))
    expect(offenders.map((file) => relative(root, file))).toEqual([])
  })

  it('no core file imports the demo marketplace (main and the preview host hand it in); test code may', () => {
    const files = filesUnder(join(root, 'electron/core'), /\.ts$/).filter((file) => !TEST_CODE.test(file))
    const offenders = files.filter((file) => importsOf(readFileSync(file, 'utf8')).some((spec) => /(^|\/)sandbox(\/|$)/.test(spec)))
    expect(offenders.map((file) => relative(root, file))).toEqual([])
    expect(importsOf("import { startSandbox } from '../../sandbox'").some((spec) => /(^|\/)sandbox(\/|$)/.test(spec))).toBe(true)
  })

  it('no product file imports test code (tests, fixtures, kill-test children and steps)', () => {
    const files = [...filesUnder(join(root, 'electron'), /\.ts$/), ...filesUnder(join(root, 'src'), /\.(ts|vue)$/)].filter((file) => !TEST_CODE.test(file))
    expect(files.length).toBeGreaterThan(50)
    const offenders = files.flatMap((file) =>
      importsOf(readFileSync(file, 'utf8'))
        .filter((spec) => TEST_CODE.test(spec))
        .map((spec) => `${relative(root, file)} → ${spec}`)
    )
    expect(offenders).toEqual([])
    expect(TEST_CODE.test('./syncedWorkspace.fixture')).toBe(true)
  })

  it('the import scan sees electron imports (so the rule above can fail)', () => {
    const name = 'electron' // built, so grep-based checks of this folder do not mistake the sample for an import
    expect(importsOf(`import { app } from '${name}'\nconst x = require("${name}")`)).toEqual(['electron', 'electron'])
  })

  it('the renderer imports no Node modules, no keytar and nothing but the shared layer of the main side', () => {
    const files = filesUnder(join(root, 'src'), /\.(ts|vue)$/).filter((file) => !file.endsWith('.test.ts'))
    expect(files.length).toBeGreaterThan(3)
    const offenders: string[] = []
    for (const file of files) {
      const text = readFileSync(file, 'utf8')
      for (const spec of importsOf(text)) {
        if (spec.startsWith('node:') || spec === 'keytar' || spec === 'electron' || spec === 'ky' || spec.includes('electron/') || spec.startsWith('@core/')) {
          offenders.push(`${relative(root, file)} → ${spec}`)
        }
      }
      if (/x-api-key|ipcRenderer/.test(text)) offenders.push(`${relative(root, file)} mentions x-api-key or ipcRenderer`)
    }
    expect(offenders).toEqual([])
  })

  it('the shared layer imports only zod and its own folder (the renderer loads it)', () => {
    const files = filesUnder(join(root, 'electron/shared'), /\.ts$/).filter((file) => !TEST_CODE.test(file))
    expect(files.length).toBeGreaterThan(5)
    const shared = join(root, 'electron/shared')
    const outside = (file: string, spec: string) => spec !== 'zod' && (!spec.startsWith('.') || relative(shared, resolve(dirname(file), spec)).startsWith('..'))
    const offenders = files.flatMap((file) =>
      importsOf(readFileSync(file, 'utf8'))
        .filter((spec) => outside(file, spec))
        .map((spec) => `${relative(root, file)} → ${spec}`)
    )
    expect(offenders).toEqual([])
    expect(outside(join(shared, 'contract.ts'), '../core/router')).toBe(true)
  })
})
