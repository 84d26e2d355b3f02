/**
 * The demo marketplace a new seller explores: this sandbox on 127.0.0.1 with its default seed, dated
 * today (today's demo orders are today's). Main and the browser-preview host hand it to the core, which
 * never imports the sandbox itself.
 */
import { startSandbox } from './server'

export async function startDemoMarketplace(): Promise<{ baseUrl: string; apiKey: string; close(): Promise<void> }> {
  const sandbox = await startSandbox({ host: '127.0.0.1', port: 0, now: new Date() })
  return { baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, close: () => sandbox.close() }
}
