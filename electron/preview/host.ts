/**
 * The browser-preview host: the same core as the Electron main process, in plain Node, behind a
 * loopback HTTP bridge that speaks the contract. Serves the built renderer (out/renderer) to any
 * browser on this machine. As in Electron, the core runs in its worker thread (electron/worker); this
 * thread keeps the bridge, the keychain and the page's files.
 *
 * - Listens on 127.0.0.1 only.
 * - A per-run secret token, handed to the page in the URL fragment, is required on every call and on
 *   the event stream; requests from another Origin are refused.
 * - Calls go through the same router as IPC: same zod validation, same handlers, errors as data.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto'
import { readFile, stat } from 'node:fs/promises'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { extname, join, normalize, resolve, sep } from 'node:path'
import { BULK_IMPORT_MAX_BYTES, type EventName, type Events } from '../shared/contract'
import { dateLocaleOf } from '../shared/dateLocale'
import { chooseSecretStore } from '../core/secrets/chooseSecretStore'
import type { Router } from '../core/router'
import { startCoreHost, type CoreHost, type CoreHostOptions } from '../worker/coreHost'
import { holdNotices } from '../worker/heldNotices'

export interface PreviewHostOptions {
  /** Folder of the built renderer. Default: out/renderer. */
  rendererDir?: string
  userDataDir: string
  port?: number
  /** Keychain service name (tests use their own). Default "Seller Desk". */
  keychainService?: string
  /** Use the system keychain when one answers. Default true. */
  keychain?: boolean
  apiOptions?: CoreHostOptions['apiOptions']
  syncEngine?: CoreHostOptions['syncEngine']
  /** The core worker's file (coreHost.ts); the end-to-end tests give the built one. */
  coreWorkerFile?: URL
  version?: string
  /** The regional format the host says the computer has (AppInfo's dateLocale). Default: this process's locale. */
  dateLocale?: string
}

export interface PreviewHost {
  /** Open this in a browser: origin + token fragment. */
  url: string
  origin: string
  token: string
  userDataDir: string
  /** The contract, answered by the core's worker: what the bridge calls. */
  router: Router
  /** The core's worker (tests kill it to check recovery). */
  core: CoreHost
  close(): Promise<void>
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json'
}

/**
 * The largest call body the bridge reads: an import file at its limit (its bytes as they are,
 * shared/callBody.ts), with room to spare; a 100,000-change paste, as JSON text, is smaller.
 */
const MAX_BODY_BYTES = BULK_IMPORT_MAX_BYTES + 4 * 1024 * 1024

function sameToken(given: string | null | undefined, token: string): boolean {
  if (!given) return false
  const a = Buffer.from(given)
  const b = Buffer.from(token)
  return a.length === b.length && timingSafeEqual(a, b)
}

/** Sends JSON: a value, or JSON text already encoded (a call's answer, as the core's worker made it). */
function sendJson(response: ServerResponse, status: number, body: unknown) {
  const bytes = body instanceof Uint8Array ? body : JSON.stringify(body)
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'content-length': typeof bytes === 'string' ? Buffer.byteLength(bytes) : bytes.byteLength
  })
  response.end(bytes)
}

/** decodeURIComponent that answers null instead of throwing on bad percent-encoding. */
function decoded(text: string): string | null {
  try {
    return decodeURIComponent(text)
  } catch {
    return null
  }
}

const PAGE_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'content-security-policy': "frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-cache'
}

/**
 * The request's body as bytes (the core's worker decodes and parses it), or null past the limit (or short of the length told). With
 * its length told (as a browser's fetch tells it), each part is copied into place as it arrives: a file
 * of megabytes is never copied in one step of this thread.
 */
async function readBody(request: IncomingMessage): Promise<Uint8Array | null> {
  const told = Number(request.headers['content-length'])
  const into = Number.isSafeInteger(told) && told >= 0 && told <= MAX_BODY_BYTES ? new Uint8Array(told) : null
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of request) {
    const part = chunk as Buffer
    // (Node's parser ends the body at the length told; past it would be a broken request.)
    if (size + part.length > (into?.length ?? MAX_BODY_BYTES)) return null
    if (into) into.set(part, size)
    else chunks.push(part)
    size += part.length
  }
  if (into) return size === into.length ? into : null
  return Buffer.concat(chunks)
}

export async function startPreviewHost(options: PreviewHostOptions): Promise<PreviewHost> {
  const rendererDir = resolve(options.rendererDir ?? 'out/renderer')
  const token = randomBytes(24).toString('base64url')
  const streams = new Set<ServerResponse>()
  let origin = ''

  const send = <E extends EventName>(event: E, payload: Events[E]) => {
    const data = `data: ${JSON.stringify({ event, payload })}\n\n`
    for (const stream of streams) stream.write(data)
  }
  // A notice said while no page is open waits for the next page's event stream.
  const notices = holdNotices((notice) => send('notice', notice))
  const emit = <E extends EventName>(event: E, payload: Events[E]) => {
    if (event === 'notice') notices.say(payload as Events['notice'])
    else send(event, payload)
  }

  const core = startCoreHost({
    userDataDir: options.userDataDir,
    secrets: await chooseSecretStore({ service: options.keychainService ?? 'Seller Desk', keychain: options.keychain ?? true }),
    app: {
      name: 'Seller Desk',
      version: options.version ?? '0.0.0',
      platform: process.platform,
      runtime: 'preview',
      dateLocale: dateLocaleOf(options.dateLocale ?? Intl.DateTimeFormat().resolvedOptions().locale)
    },
    emit,
    ...(options.apiOptions ? { apiOptions: options.apiOptions } : {}),
    ...(options.syncEngine ? { syncEngine: options.syncEngine } : {}),
    ...(options.coreWorkerFile ? { workerFile: options.coreWorkerFile } : {}),
    onUnexpectedError: (where, errorName) => console.error(`[preview] unexpected error in ${where}:`, errorName)
  })

  async function serveFile(pathname: string, response: ServerResponse) {
    const path = decoded(pathname)
    if (path === null) return sendJson(response, 400, { message: 'Bad path' })
    const relative = normalize(path).replace(/^([/\\])+/, '')
    let file = join(rendererDir, relative || 'index.html')
    if (!file.startsWith(rendererDir + sep) && file !== rendererDir) return sendJson(response, 404, { message: 'Not found' })
    const info = await stat(file).catch(() => null)
    if (!info || info.isDirectory()) {
      // A missing file (a chunk of an older build under an open page) is a 404 the page can tell from a
      // file; only a path that names no file is the single-page app's.
      if (extname(relative)) return sendJson(response, 404, { message: 'Not found' })
      file = join(rendererDir, 'index.html')
    }
    const body = await readFile(file).catch(() => null)
    if (!body) return sendJson(response, 404, { message: 'Not found. Build the renderer first: npx electron-vite build' })
    response.writeHead(200, { 'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream', ...PAGE_HEADERS })
    response.end(body)
  }

  const server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', origin)
      // localhost is this computer too, but the page's token lives with 127.0.0.1: send it there.
      if (request.headers.host === `localhost:${new URL(origin).port}` && request.method === 'GET' && !url.pathname.startsWith('/rpc/')) {
        response.writeHead(302, { location: `${origin}${url.pathname}` })
        return response.end()
      }
      // Refuse other sites (and DNS rebinding): only our exact origin may call.
      const requestOrigin = request.headers.origin
      if (request.headers.host !== new URL(origin).host || (requestOrigin && requestOrigin !== origin)) {
        return sendJson(response, 403, { message: 'Forbidden' })
      }
      if (url.pathname.startsWith('/rpc/')) {
        if (request.method !== 'POST') return sendJson(response, 405, { message: 'Use POST' })
        if (!sameToken(request.headers['x-preview-token'] as string | undefined, token)) return sendJson(response, 401, { message: 'Bad preview token' })
        const name = decoded(url.pathname.slice('/rpc/'.length))
        if (name === null) return sendJson(response, 400, { ok: false, error: { kind: 'invalid-input', message: 'Bad call name.' } })
        const body = await readBody(request)
        if (body === null) return sendJson(response, 413, { ok: false, error: { kind: 'invalid-input', message: 'That request is too large.' } })
        // Read in the core's worker, and answered as JSON text it made: a large body (an import's file)
        // or answer (a page of grid rows) never holds up this thread.
        return sendJson(response, 200, await core.answerBody(name, body))
      }
      if (url.pathname === '/events') {
        if (!sameToken(url.searchParams.get('token'), token)) return sendJson(response, 401, { message: 'Bad preview token' })
        response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' })
        response.write(': connected\n\n')
        streams.add(response)
        notices.heard()
        request.on('close', () => {
          streams.delete(response)
          if (streams.size === 0) notices.unheard()
        })
        return
      }
      if (request.method !== 'GET' && request.method !== 'HEAD') return sendJson(response, 405, { message: 'Method not allowed' })
      return serveFile(url.pathname, response)
    })().catch(() => {
      if (!response.headersSent) sendJson(response, 500, { ok: false, error: { kind: 'internal', message: 'The preview host failed.' } })
      else response.end()
    })
  })

  // A busy port (another preview running) moves to the next free one.
  const firstPort = options.port ?? 0
  for (let port = firstPort; ; port++) {
    try {
      await new Promise<void>((done, fail) => {
        server.once('error', fail)
        server.listen(port, '127.0.0.1', () => {
          server.off('error', fail)
          done()
        })
      })
      break
    } catch (error) {
      const busy = (error as NodeJS.ErrnoException).code === 'EADDRINUSE'
      if (!busy || firstPort === 0 || port - firstPort >= 20) {
        await core.dispose()
        throw busy ? new Error(`Ports ${firstPort}–${port} are busy; pass --port with a free one.`) : error
      }
    }
  }
  const { port } = server.address() as AddressInfo
  origin = `http://127.0.0.1:${port}`

  return {
    url: `${origin}/#token=${token}`,
    origin,
    token,
    userDataDir: options.userDataDir,
    router: core.router,
    core,
    async close() {
      for (const stream of streams) stream.end()
      server.closeAllConnections()
      await new Promise<void>((done) => server.close(() => done()))
      await core.dispose()
    }
  }
}
