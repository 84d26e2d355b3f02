/**
 * `npm test` runs this first: it checks that what the tests need outside node_modules is on this
 * machine, and otherwise fails at once with one line saying what is missing and what to run, instead
 * of failing minutes later (e.g. Playwright falling back to a browser it never downloaded).
 *
 * Needed: a Chromium for the browser tests (Debian's `/usr/bin/chromium` or `chromium-browser`, or
 * Playwright's own where `npx playwright install chromium` fetched it); on Linux `dbus-run-session`
 * and `gnome-keyring-daemon` for the real keychain tests (scripts/with-keyring.sh), and `xvfb-run`
 * where Electron's runtime is present (its specs run) and there is no display. `.ci/run` installs all.
 *
 * What it looks at can be pointed elsewhere (for its own test): `PATH`, `SELLER_DESK_CHROMIUM_PATHS`
 * (colon-separated), `SELLER_DESK_PLAYWRIGHT_CHROMIUM` (Playwright's browser; empty for none) and
 * `SELLER_DESK_ELECTRON_RUNTIME` (1 or 0: whether Electron's runtime is present).
 */
import { accessSync, constants, existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { delimiter, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** Where Debian and Ubuntu put Chromium (playwright.config.ts uses the first one present). */
export const SYSTEM_CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser']

type Env = Record<string, string | undefined>

function onPath(command: string, env: Env): boolean {
  return (env['PATH'] ?? '').split(delimiter).some((dir) => {
    if (!dir) return false
    try {
      accessSync(join(dir, command), constants.X_OK)
      return true
    } catch {
      return false
    }
  })
}

/** Where Playwright's own Chromium is (whether or not it was downloaded), or null. */
function playwrightChromium(env: Env): string | null {
  const given = env['SELLER_DESK_PLAYWRIGHT_CHROMIUM']
  if (given !== undefined) return given || null
  try {
    const { chromium } = createRequire(import.meta.url)('@playwright/test') as { chromium: { executablePath(): string } }
    return chromium.executablePath()
  } catch {
    return null
  }
}

/** Electron's runtime is here when its binary was fetched (node_modules/electron/path.txt names it). */
function electronRuntime(env: Env): boolean {
  const given = env['SELLER_DESK_ELECTRON_RUNTIME']
  if (given !== undefined) return given === '1'
  try {
    const electronDir = fileURLToPath(new URL('../node_modules/electron/', import.meta.url))
    return existsSync(join(electronDir, 'dist', readFileSync(join(electronDir, 'path.txt'), 'utf8').trim()))
  } catch {
    return false
  }
}

/** What the tests need that this machine lacks. */
export function missingForTests(env: Env, platform: NodeJS.Platform): string[] {
  const missing: string[] = []
  const given = env['SELLER_DESK_CHROMIUM_PATHS']
  const chromiumPaths = given !== undefined ? given.split(':').filter(Boolean) : platform === 'linux' ? SYSTEM_CHROMIUM : []
  if (!chromiumPaths.some((path) => existsSync(path))) {
    const own = playwrightChromium(env)
    if (!own || !existsSync(own)) missing.push('chromium')
  }
  if (platform !== 'linux') return missing
  if (!onPath('dbus-run-session', env)) missing.push('dbus')
  if (!onPath('gnome-keyring-daemon', env)) missing.push('gnome-keyring')
  if (!env['DISPLAY'] && !env['WAYLAND_DISPLAY'] && electronRuntime(env) && !onPath('xvfb-run', env)) missing.push('xvfb')
  return missing
}

/** The one line to print, or null when nothing is missing. */
export function preflightMessage(missing: string[], platform: NodeJS.Platform): string | null {
  if (missing.length === 0) return null
  if (platform !== 'linux') return `Missing: ${missing.join(', ')}. Run: npx playwright install chromium`
  return `Missing: ${missing.join(', ')}. Run: sudo apt-get install -y chromium gnome-keyring dbus dbus-x11 xvfb libsecret-1-dev (or bash .ci/run)`
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const message = preflightMessage(missingForTests(process.env, process.platform), process.platform)
  if (message) {
    console.error(message)
    process.exit(1)
  }
}
