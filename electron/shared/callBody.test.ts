/**
 * A call's input across the preview's bridge: JSON text as before, and bytes (an import's file) carried
 * as they are in a frame, read back as the same bytes; a body that is neither is refused.
 */
import { expect, it } from 'vitest'
import { BadCallBody, decodeAnswer, decodeCallBody, encodeAnswer, encodeCallBody } from './callBody'

const asBytes = (body: string | Uint8Array) => (typeof body === 'string' ? new TextEncoder().encode(body) : body)
const roundTrip = (input: unknown) => decodeCallBody(asBytes(encodeCallBody(input)))

it('sends an input without bytes as its JSON text, and reads it back; an empty body is no input', () => {
  const input = { id: 'a', priceCents: 1_999, nested: { list: [1, 'two', null] } }
  expect(encodeCallBody(input)).toBe(JSON.stringify(input))
  expect(roundTrip(input)).toEqual(input)
  expect(encodeCallBody(undefined)).toBe('{}')
  expect(decodeCallBody(new Uint8Array())).toEqual({})
})

it('carries bytes as they are, each where the input had it, beside the rest of the input', () => {
  const file = new Uint8Array(300_000).map((_, k) => k % 251)
  const body = encodeCallBody({ fileName: 'prices.csv', bytes: file, more: { also: new Uint8Array([0, 255]) }, list: [1, { deep: new Uint8Array([7]) }] })
  expect(body).toBeInstanceOf(Uint8Array)
  // No base64: the frame is the file and a short header.
  expect((body as Uint8Array).byteLength).toBeLessThan(file.byteLength + 200)
  const read = decodeCallBody(body as Uint8Array) as { fileName: string; bytes: Uint8Array; more: { also: Uint8Array }; list: [number, { deep: Uint8Array }] }
  expect(read.fileName).toBe('prices.csv')
  expect(read.bytes).toBeInstanceOf(Uint8Array)
  expect(Buffer.from(read.bytes).equals(Buffer.from(file))).toBe(true)
  expect([...read.more.also]).toEqual([0, 255])
  // Also within an array.
  expect(read.list[0]).toBe(1)
  expect([...read.list[1].deep]).toEqual([7])
  const onlyInList = encodeCallBody({ files: [{ bytes: new Uint8Array([9, 8]) }] })
  expect(onlyInList).toBeInstanceOf(Uint8Array)
  expect([...(decodeCallBody(onlyInList as Uint8Array) as { files: [{ bytes: Uint8Array }] }).files[0].bytes]).toEqual([9, 8])
  // A Buffer (as Node reads a file) is bytes too, not the numbers its toJSON would give.
  const buffer = Buffer.from('id,price\nabc,1.00\n')
  const framed = encodeCallBody({ fileName: 'b.csv', bytes: buffer })
  expect(framed).toBeInstanceOf(Uint8Array)
  expect(Buffer.from((decodeCallBody(framed as Uint8Array) as { bytes: Uint8Array }).bytes).equals(buffer)).toBe(true)
  // An empty file is still a file.
  expect((roundTrip({ bytes: new Uint8Array() }) as { bytes: Uint8Array }).bytes).toEqual(new Uint8Array())
})

it('refuses a body that is neither JSON text nor a whole frame', () => {
  const frame = encodeCallBody({ fileName: 'x.csv', bytes: new Uint8Array(10) }) as Uint8Array
  const header = (json: string, extra = 0) => {
    const text = new TextEncoder().encode(json)
    const body = new Uint8Array(5 + text.byteLength + extra)
    new DataView(body.buffer).setUint32(1, text.byteLength)
    body.set(text, 5)
    return body
  }
  for (const [why, body] of [
    ['not JSON', new TextEncoder().encode('{"a":')],
    ['not UTF-8', new Uint8Array([0x7b, 0xff, 0x7d])],
    ['a frame cut short', frame.subarray(0, frame.byteLength - 1)],
    ['a frame with no length', new Uint8Array([0, 0])],
    ['a header longer than the frame', header('{}').subarray(0, 6)],
    ['bytes past the end', header('{"bytes":{"$bytes":[0,11]}}', 10)],
    ['a negative place', header('{"bytes":{"$bytes":[-1,2]}}', 10)],
    ['a place that is not two integers', header('{"bytes":{"$bytes":["0",2]}}', 10)],
    ['a reference with more in it', header('{"bytes":{"$bytes":[0,2],"x":1}}', 10)]
  ] as const)
    expect(() => decodeCallBody(body), why).toThrow(BadCallBody)
})

it("answers cross as the outcome's JSON text in bytes; a value that is not bytes (a bridge's own refusal) is passed on", () => {
  const outcome = { ok: true, value: { rows: [['id-1', 'Pixel 9', 1_999]], total: 1, note: 'ü €' } }
  const bytes = encodeAnswer(outcome)
  expect(bytes).toBeInstanceOf(Uint8Array)
  expect(new TextDecoder().decode(bytes)).toBe(JSON.stringify(outcome))
  expect(decodeAnswer(bytes)).toEqual(outcome)
  const refusal = { ok: false, error: { kind: 'invalid-input', message: 'This window may not talk to Seller Desk.' } }
  expect(decodeAnswer(refusal)).toBe(refusal)
})
