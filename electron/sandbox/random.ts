/**
 * A small seeded pseudo-random generator (mulberry32) for the demo marketplace.
 * Same seed → same sequence, on every machine. Not for anything secret.
 */

export class Random {
  private state: number

  constructor(seed: number) {
    if (!Number.isFinite(seed)) throw new RangeError('seed must be a finite number')
    // Fold any finite number (including fractions and negatives) into 32 bits.
    this.state = (Math.trunc(seed) ^ Math.trunc(seed / 2 ** 32)) >>> 0
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0
    let t = this.state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }

  /** An integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1))
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p
  }

  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('pick from an empty list')
    return items[Math.floor(this.next() * items.length)] as T
  }

  /** One element of a non-empty array, chosen in proportion to `weight`. */
  pickWeighted<T>(items: readonly T[], weight: (item: T) => number): T {
    let sum = 0
    for (const item of items) sum += weight(item)
    let target = this.next() * sum
    for (const item of items) {
      target -= weight(item)
      if (target < 0) return item
    }
    return this.pick(items)
  }

  /** 32 random bits as an unsigned integer. */
  word(): number {
    return (this.next() * 4294967296) >>> 0
  }

  /** `bytes` random bytes as lowercase hex (2 characters per byte). */
  hex(bytes: number): string {
    const length = bytes * 2
    const out = scratch(length)
    for (let at = 0; at < length; at += 8) writeHex(out, at, this.word(), Math.min(8, length - at))
    return out.toString('latin1', 0, length)
  }

  /** `length` random decimal digits. */
  digits(length: number): string {
    const out = scratch(length)
    for (let i = 0; i < length; i++) out[i] = 0x30 + ((this.next() * 10) | 0)
    return out.toString('latin1', 0, length)
  }

  /** A well-formed UUID version 4 (RFC 9562 variant 10xx) drawn from this generator. */
  uuid(): string {
    const out = scratch(36)
    // 8-4-4-4-12 hex digits; version digit "4", variant digit 8, 9, a or b.
    writeHex(out, 0, this.word(), 8)
    const b = this.word()
    writeHex(out, 9, b >>> 16, 4)
    writeHex(out, 14, (b & 0x0fff) | 0x4000, 4)
    const c = this.word()
    writeHex(out, 19, ((c >>> 16) & 0x3fff) | 0x8000, 4)
    writeHex(out, 24, c & 0xffff, 4)
    writeHex(out, 28, this.word(), 8)
    out[8] = out[13] = out[18] = out[23] = DASH
    return out.toString('latin1', 0, 36)
  }
}

// Strings are built in a reusable byte buffer: one flat string per call, no intermediate pieces to
// collect (this matters when seeding 100,000 records).
const HEX_DIGITS = Buffer.from('0123456789abcdef', 'latin1')
const DASH = 0x2d
let buffer = Buffer.alloc(64)

function scratch(length: number): Buffer {
  if (buffer.length < length) buffer = Buffer.alloc(length * 2)
  return buffer
}

/** Writes the low `digits` hex digits of `value` at `at`, most significant first. */
function writeHex(out: Buffer, at: number, value: number, digits: number): void {
  for (let i = digits - 1; i >= 0; i--) {
    out[at + i] = HEX_DIGITS[value & 15] as number
    value >>>= 4
  }
}

export function createRandom(seed: number): Random {
  return new Random(seed)
}
