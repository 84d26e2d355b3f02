/**
 * The window's first scripts as the build makes them (out/renderer): the page's entry and every chunk
 * it imports statically, which the browser must fetch and run before the first view shows. zod (the
 * contract's schemas) is not among them: building every schema of the contract costs a cold start tens
 * of milliseconds, and only views opened later (Sell requests, Bulk edit, Settings) check input with it.
 * A plain value taken from a contract file into a store or the landing view pulls it back in.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'

const RENDERER = process.env['BUILT_RENDERER_DIR'] ?? join(process.cwd(), 'out', 'renderer')

/** The chunks a module imports statically (`import … from "./x.js"`, not `import("./x.js")`). */
const staticImports = (code: string) => [...code.matchAll(/(?:import|export)\s*(?:[\w*{}\s,$]*?from\s*)?["']\.\/([\w.$-]+\.js)["']/g)].map((match) => match[1]!)

function firstScripts(): Map<string, string> {
  const html = readFileSync(join(RENDERER, 'index.html'), 'utf8')
  const entries = [...html.matchAll(/<script[^>]*\bsrc="\.\/assets\/([^"]+\.js)"/g)].map((match) => match[1]!)
  expect(entries.length).toBeGreaterThan(0)
  const seen = new Map<string, string>()
  const visit = (name: string) => {
    if (seen.has(name)) return
    const code = readFileSync(join(RENDERER, 'assets', name), 'utf8')
    seen.set(name, code)
    staticImports(code).forEach(visit)
  }
  entries.forEach(visit)
  return seen
}

test('the window’s first scripts load no zod: the schemas come with the views that check input', () => {
  const scripts = firstScripts()
  // The walk follows the entry's imports (Vue and naive-ui's shared chunks, the bridge), not just the entry.
  expect(scripts.size).toBeGreaterThan(2)
  const withZod = [...scripts].filter(([, code]) => code.includes('ZodError')).map(([name]) => name)
  expect(withZod).toEqual([])
})
