/** Starts bench/previewHostProcess.ts as a child and calls its bridge over HTTP, as the page does. */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { Agent, request } from 'node:http'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { callBodyContentType, encodeCallBody } from '../electron/shared/callBody'

export interface PreviewHostProcess {
  origin: string
  token: string
  /** POST /rpc/<name>: the outcome's value, or a thrown error with the outcome's message. */
  call<T = unknown>(name: string, input?: unknown): Promise<T>
  /** The same, the answer's body left unparsed (large answers: what the bench reads is not the app's cost). */
  callRaw(name: string, input?: unknown): Promise<Buffer>
  stop(): Promise<void>
}

const agent = new Agent({ keepAlive: true })

export function post(origin: string, token: string, name: string, input: unknown): Promise<Buffer> {
  // As the page sends it: JSON text, or a frame when the input carries bytes (shared/callBody.ts).
  const body = encodeCallBody(input)
  return new Promise((resolve, reject) => {
    const sent = request(
      `${origin}/rpc/${name}`,
      {
        method: 'POST',
        agent,
        headers: {
          'x-preview-token': token,
          'content-type': callBodyContentType(body),
          'content-length': typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength
        }
      },
      (answer) => {
        const chunks: Buffer[] = []
        answer.on('data', (chunk: Buffer) => chunks.push(chunk))
        answer.on('end', () => resolve(Buffer.concat(chunks)))
        answer.on('error', reject)
      }
    )
    sent.on('error', reject)
    sent.end(body)
  })
}

export async function startPreviewHostProcess(userDataDir: string): Promise<PreviewHostProcess> {
  // BENCH_HOST_NODE_ARGS: extra Node flags for the host, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile its threads.
  const extra = (process.env['BENCH_HOST_NODE_ARGS'] ?? '').split(' ').filter(Boolean)
  const child = spawn(process.execPath, [...extra, '--import', 'tsx', join(import.meta.dirname, 'previewHostProcess.ts'), userDataDir], {
    stdio: ['pipe', 'pipe', 'inherit']
  })
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]()
  const first = await lines.next()
  const { origin, token } = JSON.parse(String(first.value)) as { origin: string; token: string }
  const callRaw = (name: string, input?: unknown) => post(origin, token, name, input)
  return {
    origin,
    token,
    callRaw,
    async call<T>(name: string, input?: unknown) {
      const outcome = JSON.parse((await callRaw(name, input)).toString('utf8')) as { ok: true; value: T } | { ok: false; error: { message: string } }
      if (!outcome.ok) throw new Error(`${name}: ${outcome.error.message}`)
      return outcome.value
    },
    async stop() {
      child.stdin.end()
      const exited = once(child, 'exit')
      const timer = setTimeout(() => child.kill(), 20_000)
      await exited
      clearTimeout(timer)
    }
  }
}
