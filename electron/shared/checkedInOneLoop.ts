/**
 * Checks written out for what comes by the thousand (a sync's pages, a paste's changes): a plain loop
 * that accepts only what a zod schema accepts, tried first; zod reads what it refuses, and says what is
 * wrong. zod's parse of each element costs many times the loop's, and most the first time it runs, which
 * is when a seller's first paste or first sync waits for it.
 */
import { z } from 'zod'

/**
 * An array of `min` to `max` elements, each passing `check`, read by index: `every` skips holes, which
 * zod reads as undefined.
 */
export function isArrayOf(value: unknown, check: (element: unknown) => boolean, min = 0, max = Infinity): boolean {
  if (!Array.isArray(value) || value.length < min || value.length > max) return false
  for (let i = 0; i < value.length; i++) if (!check(value[i])) return false
  return true
}

/**
 * `schema`, with `accepts` tried first. What `accepts` refuses is parsed by `schema`, whose issues are
 * the result's (message and path), so a refusal reads the same either way. `accepts` must accept only
 * what `schema` accepts, and `schema` must give back what it was given (no defaults, no transforms): an
 * accepted value is used as it came.
 */
export function checkedInOneLoop<S extends z.ZodType>(schema: S, accepts: (value: unknown) => boolean) {
  return z.custom<z.output<S>>().superRefine((value, ctx) => {
    if (accepts(value)) return
    const parsed = schema.safeParse(value)
    if (!parsed.success) for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path })
  })
}
