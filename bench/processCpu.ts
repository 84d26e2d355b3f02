/**
 * CPU time of processes from /proc (Linux): a process's own, and each of a process tree's. Elsewhere
 * (no /proc) there is nothing to read: null, or an empty tree.
 */
import { readdirSync, readFileSync } from 'node:fs'

/** How long one of /proc's clock ticks is (USER_HZ, which Linux fixes for what it reports there). */
const TICK_MS = 10

/** utime + stime in ms and the parent, from /proc/<pid>/stat. */
function stat(pid: number | string): { ppid: number; cpuMs: number } | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // After the name (which may hold spaces and parentheses): state, ppid, …; utime and stime are the 12th and 13th.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ')
    return { ppid: Number(fields[1]), cpuMs: (Number(fields[11]) + Number(fields[12])) * TICK_MS }
  } catch {
    return null
  }
}

/** CPU time a process has used so far (user + system), or null where /proc does not tell it. */
export function processCpuMs(pid: number | undefined): number | null {
  return pid === undefined ? null : (stat(pid)?.cpuMs ?? null)
}

/** CPU time used so far by `pid` and each of its descendants alive now, by process id. */
export function treeCpuMs(pid: number): Map<number, number> {
  const all = new Map<number, { ppid: number; cpuMs: number }>()
  let names: string[] = []
  try {
    names = readdirSync('/proc').filter((name) => /^\d+$/.test(name))
  } catch {
    return new Map()
  }
  for (const name of names) {
    const found = stat(name)
    if (found) all.set(Number(name), found)
  }
  const tree = new Map<number, number>()
  const own = all.get(pid)
  if (own) tree.set(pid, own.cpuMs)
  for (let grew = true; grew;) {
    grew = false
    for (const [child, { ppid, cpuMs }] of all) {
      if (tree.has(child) || !tree.has(ppid)) continue
      tree.set(child, cpuMs)
      grew = true
    }
  }
  return tree
}

/**
 * CPU time the tree used between two readings: each process's growth, a process started meanwhile
 * counted from nothing, one that ended meanwhile left out (its last part is not known).
 */
export function cpuUsedBetween(before: Map<number, number>, after: Map<number, number>): number {
  let used = 0
  for (const [pid, cpuMs] of after) used += Math.max(0, cpuMs - (before.get(pid) ?? 0))
  return used
}
