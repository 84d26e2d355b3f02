/** The nice value of the snapshot's threads where threads have their own (Linux): below the window's threads. */
export const BACKGROUND_NICE = 10

/**
 * Code a worker thread runs first (as text: the threads here are started from code, not files) to
 * give way: on Linux, where a thread has a nice value of its own, it lets the threads that answer the
 * window run first when the cores are busy; elsewhere it keeps its process's priority. `nice` names a
 * variable of the thread's code that holds the value (0: none).
 */
export const lowerPriority = (nice: string): string => `
try {
  const thread = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop())
  if (thread > 0 && ${nice} !== 0) require('node:os').setPriority(thread, ${nice})
} catch {}
`
