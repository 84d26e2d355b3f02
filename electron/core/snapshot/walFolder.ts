/**
 * Folds a snapshot's WAL back into its file from a thread of its own, through its own connection.
 *
 * A checkpoint copies every page written since the last one: after a full sync that is the size of
 * the snapshot. Run by the connection that writes (SQLite's automatic checkpoint runs inside the commit
 * that crosses its limit), it would hold up that commit and every call waiting behind it. A passive
 * checkpoint from another connection never blocks the writer, and the writer starts the WAL over from
 * its beginning once everything in it has been folded, so the file stays small without the core
 * waiting for it.
 */
import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'

/** Plain JavaScript: a worker does not inherit the loader that reads TypeScript. */
const FOLDER = `
const { parentPort, workerData } = require('node:worker_threads')
const Database = require(workerData.libsql)
const { file, intervalMs, idleIntervalMs, closed } = workerData
const db = new Database(file, { timeout: 0 })
let timer = null
let stopped = false
function fold() {
  timer = null
  if (stopped) return
  let idle = false
  try {
    // [busy, frames in the WAL, frames folded]: all folded means there is nothing to do until a write.
    const [busy, frames, folded] = db.prepare('PRAGMA wal_checkpoint(PASSIVE)').raw().get()
    idle = busy === 0 && frames === folded
  } catch {
    // Busy or locked for a moment: the next turn folds it.
  }
  timer = setTimeout(fold, idle ? idleIntervalMs : intervalMs)
}
parentPort.on('message', () => {
  stopped = true
  if (timer) clearTimeout(timer)
  try { db.close() } finally { Atomics.store(closed, 0, 1); Atomics.notify(closed, 0); parentPort.close() }
})
timer = setTimeout(fold, intervalMs)
`

export interface WalFolder {
  /**
   * Stops folding and waits (at most `waitMs`) until the folder's connection is closed, so the
   * snapshot's own close is the last one and leaves one self-contained file.
   */
  stop(waitMs?: number): void
}

/**
 * Starts folding `file`'s WAL: every `intervalMs` while there is something to fold, every
 * `idleIntervalMs` while there is not. The thread never keeps the process alive.
 */
export function startWalFolder(file: string, intervalMs = 250, idleIntervalMs = 1_000): WalFolder {
  const libsql = createRequire(import.meta.url).resolve('libsql')
  const closed = new Int32Array(new SharedArrayBuffer(4))
  const worker = new Worker(FOLDER, { eval: true, workerData: { libsql, file, intervalMs, idleIntervalMs, closed } })
  worker.unref()
  let stopped = false
  return {
    stop(waitMs = 2_000) {
      if (stopped) return
      stopped = true
      worker.postMessage('stop')
      if (Atomics.wait(closed, 0, 0, waitMs) === 'timed-out') void worker.terminate()
    }
  }
}
