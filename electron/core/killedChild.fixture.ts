/**
 * For the crash tests: runs a child script (through tsx) and SIGKILLs it `killAfterMs` after its output
 * first holds `aimFrom`, so that start-up time (slow under load) does not eat the window the kill aims at.
 * Resolves with whether it was killed and everything it printed ('close' comes after the last output);
 * rejects when it ended on its own, unless `mayFinish` and it ended well (exit code 0).
 */
import { spawn } from 'node:child_process'

export function runUntilKilled(
  script: string,
  args: string[],
  aimFrom: string,
  killAfterMs: number,
  { mayFinish = false } = {}
): Promise<{ killed: boolean; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.stdout.on('data', (chunk: Buffer) => {
      const aimed = stdout.includes(aimFrom)
      stdout += chunk.toString()
      if (!aimed && stdout.includes(aimFrom)) setTimeout(() => child.kill('SIGKILL'), killAfterMs)
    })
    child.on('close', (code, signal) => {
      if (signal === 'SIGKILL') resolve({ killed: true, stdout })
      else if (mayFinish && code === 0) resolve({ killed: false, stdout })
      else reject(new Error(`child ended without the kill (exit ${code}): ${stderr.slice(0, 500)}`))
    })
  })
}
