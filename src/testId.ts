/**
 * `data-testid` for the inner element of a naive-ui input (`input-props`), so tests fill the real
 * `<input>` and not its wrapper. Vue's attribute types do not list `data-*` keys, hence the cast.
 */
import type { InputHTMLAttributes } from 'vue'

export function inputTestId(id: string): InputHTMLAttributes {
  return { 'data-testid': id } as InputHTMLAttributes
}
