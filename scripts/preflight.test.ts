/**
 * `npm test`'s preflight, run as npm runs it, on a machine made to lack things: a PATH of empty
 * folders (or with stand-in programs), Chromium looked for where there is none.
 */
import { spawnSync } from 'node:child_process'
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { missingForTests, preflightMessage } from './preflight'

/** A folder holding stand-ins (`#!/bin/sh`) for these programs. */
function binWith(...programs: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'seller-desk-preflight-'))
  for (const program of programs) {
    writeFileSync(join(dir, program), '#!/bin/sh\nexit 0\n')
    chmodSync(join(dir, program), 0o755)
  }
  return dir
}

function runPreflight(env: Record<string, string>) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/preflight.ts'], {
    encoding: 'utf8',
    env: { HOME: process.env['HOME'] ?? '', ...env }
  })
  return { status: result.status, stderr: result.stderr.trim(), stdout: result.stdout.trim() }
}

const nowhere = { SELLER_DESK_CHROMIUM_PATHS: '/nonexistent/chromium', SELLER_DESK_PLAYWRIGHT_CHROMIUM: '', SELLER_DESK_ELECTRON_RUNTIME: '0' }

describe.runIf(process.platform === 'linux')('npm test preflight', () => {
  it('runs first in npm test', () => {
    const scripts = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts
    expect(scripts['test']).toMatch(/^tsx scripts\/preflight\.ts && /)
  })

  it('a machine with none of them: fails at once with one line saying what is missing and what to run', () => {
    const result = runPreflight({ ...nowhere, PATH: binWith() })
    expect(result.status).toBe(1)
    expect(result.stdout).toBe('')
    expect(result.stderr).toBe(
      'Missing: chromium, dbus, gnome-keyring. Run: sudo apt-get install -y chromium gnome-keyring dbus dbus-x11 xvfb libsecret-1-dev (or bash .ci/run)'
    )
  })

  it('a machine with everything: says nothing and lets the tests run', () => {
    const chromium = join(binWith('chromium'), 'chromium')
    const result = runPreflight({
      ...nowhere,
      SELLER_DESK_CHROMIUM_PATHS: `/nonexistent/chromium:${chromium}`,
      PATH: binWith('dbus-run-session', 'gnome-keyring-daemon')
    })
    expect(result).toEqual({ status: 0, stderr: '', stdout: '' })
  })

  it('Playwright’s own Chromium, once installed, does instead of the system one', () => {
    const own = join(binWith('chrome'), 'chrome')
    const path = binWith('dbus-run-session', 'gnome-keyring-daemon')
    expect(missingForTests({ ...nowhere, SELLER_DESK_PLAYWRIGHT_CHROMIUM: own, PATH: path }, 'linux')).toEqual([])
    expect(missingForTests({ ...nowhere, SELLER_DESK_PLAYWRIGHT_CHROMIUM: '/nonexistent/chrome', PATH: path }, 'linux')).toEqual(['chromium'])
  })

  it('xvfb-run only where Electron’s specs will run with no display', () => {
    const path = binWith('dbus-run-session', 'gnome-keyring-daemon')
    const chromium = join(binWith('chromium'), 'chromium')
    const machine = { ...nowhere, SELLER_DESK_CHROMIUM_PATHS: chromium, PATH: path }
    expect(missingForTests(machine, 'linux')).toEqual([])
    expect(missingForTests({ ...machine, SELLER_DESK_ELECTRON_RUNTIME: '1' }, 'linux')).toEqual(['xvfb'])
    expect(missingForTests({ ...machine, SELLER_DESK_ELECTRON_RUNTIME: '1', DISPLAY: ':0' }, 'linux')).toEqual([])
    expect(missingForTests({ ...machine, SELLER_DESK_ELECTRON_RUNTIME: '1', PATH: `${path}:${binWith('xvfb-run')}` }, 'linux')).toEqual([])
  })

  it('elsewhere only the browser is needed, and the line says how to get Playwright’s', () => {
    expect(missingForTests({ ...nowhere, PATH: binWith() }, 'darwin')).toEqual(['chromium'])
    expect(preflightMessage(['chromium'], 'darwin')).toBe('Missing: chromium. Run: npx playwright install chromium')
  })
})
