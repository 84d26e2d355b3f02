/**
 * A zip archive (what an .xlsx is) built in memory, its large files written in parts: each part is
 * deflated in zlib's thread pool as it is written, so a large file never holds the core's thread for
 * longer than it takes to make one part's text. No zip64: an export's archive stays far under its 4 GB
 * limit, and one over it is refused with a clear error.
 */
import { once } from 'node:events'
import { createDeflateRaw, crc32, deflateRawSync } from 'node:zlib'

interface Entry {
  name: Buffer
  crc: number
  size: number
  compressed: Buffer[]
  compressedSize: number
}

/** A file of the archive written in parts, in order. */
export interface ZipFileWriter {
  write(text: string): void
  /** Resolves once the deflater has caught up enough (call it between parts: memory stays bounded). */
  drained(): Promise<void>
  /** Resolves once every part is deflated. */
  end(): Promise<void>
}

const LIMIT = 0xffff_ffff
const WAITING_BYTES = 1 << 20

export function zipArchive(modified = new Date()) {
  const entries: Entry[] = []
  const deflaters: ReturnType<typeof createDeflateRaw>[] = []
  const time = (modified.getHours() << 11) | (modified.getMinutes() << 5) | (modified.getSeconds() >> 1)
  const date = ((Math.max(1980, modified.getFullYear()) - 1980) << 9) | ((modified.getMonth() + 1) << 5) | modified.getDate()

  const entry = (name: string): Entry => {
    const added = { name: Buffer.from(name, 'utf8'), crc: 0, size: 0, compressed: [], compressedSize: 0 }
    entries.push(added)
    return added
  }

  return {
    /** A small file, deflated at once. */
    file(name: string, text: string): void {
      const bytes = Buffer.from(text, 'utf8')
      const compressed = deflateRawSync(bytes)
      Object.assign(entry(name), { crc: crc32(bytes), size: bytes.length, compressed: [compressed], compressedSize: compressed.length })
    },

    /** A file written in parts; its place in the archive is where it was begun. */
    stream(name: string): ZipFileWriter {
      const file = entry(name)
      const deflate = createDeflateRaw()
      deflaters.push(deflate)
      deflate.on('data', (chunk: Buffer) => {
        file.compressed.push(chunk)
        file.compressedSize += chunk.length
      })
      const ended = once(deflate, 'end')
      // Kept from being reported unhandled when an export stops before `end` (its rejection is seen there).
      ended.catch(() => undefined)
      return {
        write(text) {
          const bytes = Buffer.from(text, 'utf8')
          file.crc = crc32(bytes, file.crc)
          file.size += bytes.length
          if (file.size > LIMIT) throw new Error(`${name} is too large for a spreadsheet file (over 4 GB).`)
          deflate.write(bytes)
        },
        async drained() {
          // A deflater that failed already says so here: no 'drain' would ever come.
          if (deflate.errored) throw deflate.errored
          // Up to about a megabyte waiting: the next part is made while the last ones are deflated.
          if (deflate.writableLength > WAITING_BYTES) await once(deflate, 'drain')
        },
        async end() {
          deflate.end()
          await ended
        }
      }
    },

    /** Stops every file written in parts (an export that failed or was stopped midway): their deflaters are let go at once. */
    abort(): void {
      for (const deflate of deflaters) deflate.destroy()
    },

    /** The archive's bytes (every file written in parts ended). */
    bytes(): Buffer {
      const parts: Buffer[] = []
      const directory: Buffer[] = []
      let offset = 0
      for (const file of entries) {
        const local = Buffer.alloc(30)
        local.writeUInt32LE(0x04034b50, 0)
        fileFields(local, 4, file, time, date)
        const central = Buffer.alloc(46)
        central.writeUInt32LE(0x02014b50, 0)
        central.writeUInt16LE(20, 4) // made by: version 2.0 (MS-DOS attributes)
        fileFields(central, 6, file, time, date)
        central.writeUInt32LE(offset, 42)
        parts.push(local, file.name, ...file.compressed)
        directory.push(central, file.name)
        offset += local.length + file.name.length + file.compressedSize
        if (offset > LIMIT) throw new Error('The spreadsheet file is too large (over 4 GB).')
      }
      const directorySize = directory.reduce((sum, part) => sum + part.length, 0)
      const end = Buffer.alloc(22)
      end.writeUInt32LE(0x06054b50, 0)
      end.writeUInt16LE(entries.length, 8)
      end.writeUInt16LE(entries.length, 10)
      end.writeUInt32LE(directorySize, 12)
      end.writeUInt32LE(offset, 16)
      return Buffer.concat([...parts, ...directory, end])
    }
  }
}

/** The fields a local header (from its byte 4) and a central directory entry (from its byte 6) share. */
function fileFields(header: Buffer, at: number, file: Entry, time: number, date: number): void {
  header.writeUInt16LE(20, at) // version needed: 2.0 (deflate)
  header.writeUInt16LE(0, at + 2) // flags: sizes in the header, ASCII names
  header.writeUInt16LE(8, at + 4) // deflate
  header.writeUInt16LE(time, at + 6)
  header.writeUInt16LE(date, at + 8)
  header.writeUInt32LE(file.crc >>> 0, at + 10)
  header.writeUInt32LE(file.compressedSize, at + 14)
  header.writeUInt32LE(file.size, at + 18)
  header.writeUInt16LE(file.name.length, at + 22)
}
