/**
 * A call's input as it crosses the browser preview's HTTP bridge, and its answer as it crosses to the
 * window (both bridges). Most inputs are JSON text. An input
 * holding bytes (a file to import) goes as a frame that carries them as they are: no base64 text a
 * third larger than the file, and no JSON text the size of the file for the core to parse in one step.
 * (Electron's IPC carries bytes as they are already.)
 *
 * Frame: a 0 byte, the length of a JSON text (4 bytes, big-endian), that text, then the bytes. In the
 * text, each Uint8Array of the input is `{"$bytes":[offset,length]}`, its place among the bytes.
 */
const FRAME = 0
const utf8Bytes = new TextEncoder()
const HEAD = 5
const BYTES = '$bytes'

/**
 * Whether a value holds a Uint8Array anywhere. JSON.stringify with a replacer calls back into script for
 * every value, several times slower than without one: the text of a 10,000-cell paste, with no bytes in
 * it, is made without.
 */
function holdsBytes(value: unknown): boolean {
  if (value instanceof Uint8Array) return true
  if (typeof value !== 'object' || value === null) return false
  if (Array.isArray(value)) return value.some(holdsBytes)
  for (const key of Object.keys(value)) if (holdsBytes((value as Record<string, unknown>)[key])) return true
  return false
}

/** The body for `input`: JSON text, or a frame when it holds a Uint8Array. */
export function encodeCallBody(input: unknown): string | Uint8Array<ArrayBuffer> {
  if (!holdsBytes(input)) return JSON.stringify(input ?? {})
  const parts: Uint8Array[] = []
  let at = 0
  // The value as the input holds it (`this[key]`), not as JSON.stringify hands it on: a Buffer would
  // arrive already turned into { type: 'Buffer', data: [...] } by its toJSON.
  const json = JSON.stringify(input ?? {}, function (this: Record<string, unknown>, key: string, value: unknown) {
    const held = this[key]
    if (!(held instanceof Uint8Array)) return value
    parts.push(held)
    at += held.byteLength
    return { [BYTES]: [at - held.byteLength, held.byteLength] }
  })
  if (parts.length === 0) return json
  const text = utf8Bytes.encode(json)
  const frame = new Uint8Array(HEAD + text.byteLength + at)
  frame[0] = FRAME
  new DataView(frame.buffer).setUint32(1, text.byteLength)
  frame.set(text, HEAD)
  let offset = HEAD + text.byteLength
  for (const part of parts) {
    frame.set(part, offset)
    offset += part.byteLength
  }
  return frame
}

/** The content type a body is sent with. */
export const callBodyContentType = (body: string | Uint8Array): string => (typeof body === 'string' ? 'application/json' : 'application/octet-stream')

/** Thrown for a body that is neither JSON text nor a whole frame. */
export class BadCallBody extends Error {}

const utf8 = new TextDecoder('utf-8', { fatal: true })

/** The input a body carries (empty: `{}`). Bytes come back as views over `body`, not copies. */
export function decodeCallBody(body: Uint8Array): unknown {
  try {
    if (body.byteLength === 0 || body[0] !== FRAME) {
      const text = utf8.decode(body)
      return text.trim() ? (JSON.parse(text) as unknown) : {}
    }
    if (body.byteLength < HEAD) throw new BadCallBody('cut short')
    const textLength = new DataView(body.buffer, body.byteOffset, body.byteLength).getUint32(1)
    if (HEAD + textLength > body.byteLength) throw new BadCallBody('cut short')
    const bytes = body.subarray(HEAD + textLength)
    return JSON.parse(utf8.decode(body.subarray(HEAD, HEAD + textLength)), (_key, value: unknown) => {
      if (typeof value !== 'object' || value === null || !Object.hasOwn(value, BYTES)) return value
      const place = (value as Record<string, unknown>)[BYTES]
      const [offset, length] = Array.isArray(place) ? (place as unknown[]) : []
      if (Object.keys(value).length !== 1 || !Number.isSafeInteger(offset) || !Number.isSafeInteger(length)) throw new BadCallBody('bad bytes reference')
      if ((offset as number) < 0 || (length as number) < 0 || (offset as number) + (length as number) > bytes.byteLength)
        throw new BadCallBody('bytes out of range')
      return bytes.subarray(offset as number, (offset as number) + (length as number))
    })
  } catch (error) {
    throw error instanceof BadCallBody ? error : new BadCallBody(error instanceof Error ? error.message : 'unreadable')
  }
}

/**
 * A call's answer (its Outcome) as it crosses from the core's worker to the window: JSON text as UTF-8
 * bytes, made in the worker, so the thread that answers the window passes it on without reading or
 * copying it (a page of 1,000 grid rows, 50,000 cell marks); the window's side reads it.
 */
export function encodeAnswer(outcome: unknown): Uint8Array<ArrayBuffer> {
  return utf8Bytes.encode(JSON.stringify(outcome))
}

/** The outcome an answer carries; anything but bytes (a refusal made by the bridge itself) is passed on as is. */
export function decodeAnswer(answer: unknown): unknown {
  return answer instanceof Uint8Array ? (JSON.parse(answerText.decode(answer)) as unknown) : answer
}
const answerText = new TextDecoder()
