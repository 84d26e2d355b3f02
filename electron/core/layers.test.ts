/**
 * The layers stay apart: core runs in plain Node (no electron import), the renderer never touches the
 * key, keytar, ipcRenderer or Node modules.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(__dirname, '..', '..')

function filesUnder(dir: string, pattern: RegExp): string[] {
  const out: string[] = []
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry)
    if (statSync(path).isDirectory()) out.push(...filesUnder(path, pattern))
    else if (pattern.test(entry)) out.push(path)
  }
  return out
}

const importsOf = (text: string) => [...text.matchAll(/(?:from\s+|import\s*\(\s*|require\s*\(\s*)['"]([^'"]+)['"]/g)].map((m) => m[1]!)

describe('layer rules', () => {
  it('no file under electron/core or electron/sandbox imports electron', () => {
    const files = [...filesUnder(join(root, 'electron/core'), /\.ts$/), ...filesUnder(join(root, 'electron/sandbox'), /\.ts$/)]
    expect(files.length).toBeGreaterThan(10)
    const offenders = files.filter((file) => importsOf(readFileSync(file, 'utf8')).some((spec) => spec === 'electron' || spec.startsWith('electron/')))
    expect(offenders.map((file) => relative(root, file))).toEqual([])
  })

  it('the import scan sees electron imports (so the rule above can fail)', () => {
    const name = 'electron' // built, so grep-based checks of this folder do not mistake the sample for an import
    expect(importsOf(`import { app } from '${name}'\nconst x = require("${name}")`)).toEqual(['electron', 'electron'])
  })

  it('the renderer imports no Node modules, no keytar and no main-side code', () => {
    const files = filesUnder(join(root, 'src'), /\.(ts|vue)$/).filter((file) => !file.endsWith('.test.ts'))
    expect(files.length).toBeGreaterThan(3)
    const allowedCore = ['contract', 'domain', 'userInput', 'money', 'errors', 'time', 'externalLinks']
    const offenders: string[] = []
    for (const file of files) {
      const text = readFileSync(file, 'utf8')
      for (const spec of importsOf(text)) {
        const core = /^@core\/(.+)$/.exec(spec)
        if (spec.startsWith('node:') || spec === 'keytar' || spec === 'electron' || spec === 'ky' || spec.includes('electron/') || (core && !allowedCore.includes(core[1]!))) {
          offenders.push(`${relative(root, file)} → ${spec}`)
        }
      }
      if (/x-api-key|ipcRenderer/.test(text)) offenders.push(`${relative(root, file)} mentions x-api-key or ipcRenderer`)
    }
    expect(offenders).toEqual([])
  })
})
