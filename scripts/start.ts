/**
 * `npm start`: builds the app, then runs it in Electron. Where no Electron runtime can be had (its
 * binary is fetched on first run and this machine cannot reach the download), it says so and starts
 * the browser preview instead.
 */
import { spawn, spawnSync } from 'node:child_process'

function run(command: string, args: string[]): number {
  return spawnSync(command, args, { stdio: 'inherit', shell: process.platform === 'win32' }).status ?? 1
}

if (run('npx', ['electron-vite', 'build']) !== 0) process.exit(1)

// Resolving `electron` fetches its binary on first use; a failure means no runtime here.
const probe = spawnSync(process.execPath, ['-e', "process.stdout.write(require('electron'))"], { encoding: 'utf8', timeout: 300_000 })
const electronPath = probe.status === 0 ? probe.stdout.trim() : ''

if (electronPath) {
  const child = spawn(electronPath, ['.'], { stdio: 'inherit' })
  child.on('exit', (code) => process.exit(code ?? 0))
} else {
  console.log('\nNo Electron runtime is available on this machine (its download could not be fetched).')
  console.log('Starting the browser preview instead: the same app and services, in your browser.\n')
  const child = spawn(process.execPath, ['--import', 'tsx', 'electron/preview/cli.ts', ...process.argv.slice(2)], { stdio: 'inherit' })
  child.on('exit', (code) => process.exit(code ?? 0))
}
