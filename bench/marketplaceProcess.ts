/** Starts bench/sandboxProcess.ts as a child and talks to it. */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { createInterface } from 'node:readline'
import { join } from 'node:path'
import { processCpuMs } from './processCpu'

export interface MarketplaceProcess {
  baseUrl: string
  apiKey: string
  command(line: string): Promise<void>
  /** CPU time the marketplace process has used so far (user + system), or null where /proc is not there. */
  cpuMs(): number | null
  stop(): Promise<void>
}

export async function startMarketplaceProcess(orders: number, sellRequests: number, latencyMs = 0): Promise<MarketplaceProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, 'sandboxProcess.ts'), String(orders), String(sellRequests), String(latencyMs)],
    {
      stdio: ['pipe', 'pipe', 'inherit']
    }
  )
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]()
  const first = await lines.next()
  const { baseUrl, apiKey } = JSON.parse(String(first.value)) as { baseUrl: string; apiKey: string }
  return {
    baseUrl,
    apiKey,
    async command(line) {
      child.stdin.write(`${line}\n`)
      await lines.next()
    },
    cpuMs: () => processCpuMs(child.pid),
    async stop() {
      child.stdin.end()
      child.kill()
      await once(child, 'exit')
    }
  }
}
