/**
 * A browser-preview host in its own process for benchmarks that call it over HTTP, so what the bench
 * itself does (building files, reading large answers) never shares a thread with the bridge it
 * measures. Prints `{"url","origin","token"}` on its first line; closes the host when stdin ends.
 * argv: <user-data folder>
 */
import { createInterface } from 'node:readline'
import { startPreviewHost } from '../electron/preview/host'

const [userDataDir] = process.argv.slice(2)
if (!userDataDir) throw new Error('usage: previewHostProcess.ts <user-data folder>')
const host = await startPreviewHost({ userDataDir, keychain: false, keychainService: 'Seller Desk bench' })
process.stdout.write(`${JSON.stringify({ url: host.url, origin: host.origin, token: host.token })}\n`)
for await (const line of createInterface({ input: process.stdin })) void line
await host.close()
process.exit(0)
