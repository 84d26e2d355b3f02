/**
 * Timing what a seller sees in the browser preview, from the input event's own time stamp to the first
 * task after the frame in which the page shows it. Page scripts are strings (tsx would add helpers to
 * functions, and the app's CSP refuses waitForFunction strings: we poll).
 */
import type { Page } from '@playwright/test'

export async function poll<T>(target: Page, expression: string, what: string, timeoutMs = 30_000): Promise<T> {
  for (const started = Date.now(); Date.now() - started < timeoutMs; await new Promise((resolve) => setTimeout(resolve, 20))) {
    const value = (await target.evaluate(expression)) as T | null
    if (value !== null) return value
  }
  throw new Error(`timed out waiting for ${what}`)
}

/**
 * From the next `inputEvent` to the first task after the frame in which `ready` (a page expression)
 * holds; `more` (expression → name) records when each of them first holds too, from the same event.
 */
export async function timeTo(
  target: Page,
  inputEvent: string,
  ready: string,
  action: () => Promise<void>,
  what: string,
  more: Record<string, string> = {}
): Promise<{ ms: number; more: Record<string, number> }> {
  const later = Object.entries(more)
  await target.evaluate(`(() => {
    window.__done = undefined
    window.__input = undefined
    window.__more = {}
    addEventListener('${inputEvent}', (event) => { window.__input = event.timeStamp }, { capture: true, once: true })
    const later = [${later.map(([name, expression]) => `[${JSON.stringify(name)}, () => (${expression})]`).join(', ')}]
    const check = () => {
      if (window.__input !== undefined) {
        for (const [name, expression] of later) {
          if (window.__more[name] === undefined && expression()) {
            requestAnimationFrame(() => setTimeout(() => { window.__more[name] = performance.now() - window.__input }, 0))
            window.__more[name] = null
          }
        }
      }
      if (window.__input !== undefined && window.__done === undefined && (${ready})) {
        window.__done = null
        requestAnimationFrame(() => setTimeout(() => { window.__done = performance.now() - window.__input }, 0))
      }
      if (window.__done === undefined || later.some(([name]) => window.__more[name] === undefined)) requestAnimationFrame(check)
    }
    requestAnimationFrame(check)
  })()`)
  await action()
  const ms = await poll<number>(target, 'typeof window.__done === "number" ? window.__done : null', what)
  const measured: Record<string, number> = {}
  for (const [name] of later)
    measured[name] = await poll<number>(
      target,
      `typeof window.__more[${JSON.stringify(name)}] === 'number' ? window.__more[${JSON.stringify(name)}] : null`,
      name,
      120_000
    )
  return { ms, more: measured }
}
