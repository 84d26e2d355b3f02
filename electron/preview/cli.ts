/**
 * `npm run preview`: builds nothing, serves out/renderer with the core services behind the loopback
 * bridge, prints the address, and opens it in the default browser unless --no-open.
 */
import { spawn } from 'node:child_process'
import { mkdirSync, readFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { startPreviewHost } from './host'

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '5199' },
    'user-data': { type: 'string' },
    'no-open': { type: 'boolean', default: false }
  }
})

const userDataDir = values['user-data'] ?? join(homedir(), '.seller-desk-preview')
mkdirSync(userDataDir, { recursive: true })
const version = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version

const host = await startPreviewHost({ userDataDir, port: Number(values.port), version })
console.log(`Seller Desk browser preview: ${host.url}`)
console.log('Open that address in Chromium, Chrome, Edge or Firefox on this computer. Ctrl+C stops it.')

if (!values['no-open']) {
  const opener = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open'
  const child = spawn(opener, [host.url], { stdio: 'ignore', detached: true })
  child.on('error', () => console.log('(Could not open a browser automatically: open the address above yourself.)'))
  child.unref()
}

const stop = () => void host.close().then(() => process.exit(0))
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
