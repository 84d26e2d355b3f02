/**
 * Files Seller Desk writes in the user-data folder are replaced atomically: written to a temporary
 * file in the same folder, flushed, then renamed over the old one. A crash leaves the old or the new
 * file, never half of one.
 */
import { randomBytes } from 'node:crypto'
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises'
import { dirname } from 'node:path'

export async function writeFileAtomic(path: string, data: string | Uint8Array, mode = 0o600): Promise<void> {
  await mkdir(dirname(path), { recursive: true })
  const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`
  const handle = await open(temp, 'w', mode)
  try {
    await handle.writeFile(data)
    await handle.sync()
  } finally {
    await handle.close()
  }
  try {
    await rename(temp, path)
  } catch (error) {
    await rm(temp, { force: true })
    throw error
  }
}

/** Reads a JSON file; a missing file gives `fallback`, an unreadable one too (the caller decides whether to warn). */
export async function readJsonFile<T>(path: string, fallback: T): Promise<{ value: T; problem: 'missing' | 'unreadable' | null }> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch {
    return { value: fallback, problem: 'missing' }
  }
  try {
    return { value: JSON.parse(text) as T, problem: null }
  } catch {
    return { value: fallback, problem: 'unreadable' }
  }
}
