/**
 * What a spec compares the page with: what the core says through the same router the page uses (the
 * expected values), and a number as the page shows it ("1,204 orders" → 1204).
 */
import type { Page } from '@playwright/test'
import type { PreviewHost } from '../electron/preview/host'

export async function viaRouter<T>(host: PreviewHost, name: string, input: object): Promise<T> {
  const outcome = await host.desk.router.dispatch(name, input)
  if (!outcome.ok) throw new Error(outcome.error.message)
  return outcome.value as T
}

export const numberIn = async (page: Page, testId: string) => Number(((await page.getByTestId(testId).textContent()) ?? '').replace(/[^\d]/g, ''))
