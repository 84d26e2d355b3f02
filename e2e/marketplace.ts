/**
 * The demo marketplace most specs sign in to: a fresh one for each test of the file (its data dated
 * from the test's start), stopped after the test.
 */
import { startSandbox, type Sandbox, type SandboxOptions } from '../electron/sandbox'
import { test } from './fixtures'

/** Registers the file's start and stop; the function returned gives the running test's marketplace. */
export function marketplaceForEachTest(options: Omit<SandboxOptions, 'now'>): () => Sandbox {
  let current: Sandbox | null = null
  test.beforeEach(async () => {
    current = await startSandbox({ ...options, now: new Date() })
  })
  test.afterEach(async () => {
    await current?.close()
    current = null
  })
  return () => {
    if (!current) throw new Error('the marketplace runs only while a test does')
    return current
  }
}
