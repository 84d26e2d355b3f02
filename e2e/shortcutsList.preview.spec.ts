/**
 * The keyboard shortcuts list (Ctrl+/) fits the window, however low (SIZES): its title stays in view, the
 * list scrolls inside it to its last line, and nothing behind it scrolls (neither the page nor naive-ui's
 * layer under a modal, which otherwise scrolls a tall modal out of the window, title first). The keyboard
 * scrolls the list too, and the dialog passes an axe scan at each size.
 */
import AxeBuilder from '@axe-core/playwright'
import { expect, test } from './fixtures'
import { animationsEnded } from './pageMeasures'

const SIZES = [
  { width: 1024, height: 600 },
  { width: 1024, height: 800 },
  { width: 1366, height: 600 }
] as const

test('the shortcuts list at 1024×600, 1024×800 and 1366×600: whole in the window, its last line reached by scrolling the list itself, nothing behind it scrolled', async ({
  app: page
}) => {
  await page.getByTestId('start-demo').click()
  await expect(page.getByTestId('demo-badge')).toBeVisible()
  const dialog = page.getByTestId('shortcuts-dialog')
  const title = dialog.getByText('Keyboard shortcuts', { exact: true })
  const lastLine = dialog.locator('tr').last()
  /** How far the document and every other scrolling box outside the dialog are scrolled (all 0 before it opened). */
  const scrolledBehind = () =>
    page.evaluate(() => {
      const dialogBox = document.querySelector('[data-testid="shortcuts-dialog"]')
      return [document.scrollingElement!, ...document.querySelectorAll('*')]
        .filter((element) => !dialogBox?.contains(element) && element.scrollTop > 0)
        .map((element) => `${element.tagName.toLowerCase()}.${[...element.classList].join('.')} ${element.scrollTop}`)
    })

  for (const size of SIZES) {
    await page.setViewportSize(size)
    const at = `${size.width}×${size.height}`
    await page.keyboard.press('Control+/')
    await expect(dialog).toBeVisible()
    await animationsEnded(page)
    await expect.soft(dialog, `${at}: the dialog whole in the window`).toBeInViewport({ ratio: 1 })
    await expect(lastLine).toContainText('Close a dialog')

    // The wheel over the list scrolls the list, to its end (the wheel may stop a fraction of a pixel short of it).
    await dialog.locator('tbody').hover()
    await page.mouse.wheel(0, 3000)
    await expect.soft(lastLine, `${at}: the last line in view`).toBeInViewport({ ratio: 0.95 })
    await expect.soft(title, `${at}: the title still in view`).toBeInViewport({ ratio: 1 })
    await expect.soft(dialog, `${at}: the dialog still whole in the window`).toBeInViewport({ ratio: 1 })
    expect.soft(await scrolledBehind(), `${at}: nothing behind the dialog scrolled`).toEqual([])

    const { violations } = await new AxeBuilder({ page })
      .include('[data-testid="shortcuts-dialog"]')
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
      .setLegacyMode()
      .analyze()
    const serious = violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    expect
      .soft(
        serious.map((violation) => `${violation.id}: ${violation.help}`),
        `${at}: axe`
      )
      .toEqual([])

    // From the keyboard: the list is a stop of its own, and End scrolls it to its last line.
    await page.keyboard.press('Escape')
    await expect(dialog).toBeHidden()
    await page.keyboard.press('Control+/')
    await expect(dialog).toBeVisible()
    const list = dialog.getByRole('region', { name: 'Shortcuts' })
    for (let presses = 0; presses < 5 && !(await list.evaluate((element) => element === document.activeElement)); presses++) await page.keyboard.press('Tab')
    await expect(list).toBeFocused()
    await page.keyboard.press('End')
    await expect.soft(lastLine, `${at}: the last line in view from the keyboard`).toBeInViewport({ ratio: 1 })
    await expect.soft(title, `${at}: the title in view from the keyboard`).toBeInViewport({ ratio: 1 })
    expect.soft(await scrolledBehind(), `${at}: nothing behind the dialog scrolled from the keyboard`).toEqual([])

    await page.keyboard.press('Escape')
    await expect(dialog).toBeHidden()
  }
})

test('the shortcuts list names keys as this computer does: Ctrl here, never “Ctrl/Cmd”', async ({ app: page }) => {
  await page.getByTestId('start-demo').click()
  await expect(page.getByTestId('demo-badge')).toBeVisible()
  await page.keyboard.press('Control+/')
  const dialog = page.getByTestId('shortcuts-dialog')
  await expect(dialog).toContainText('Bulk edit: undo (in the grid; Ctrl+Y redoes)')
  await expect(dialog).not.toContainText('Cmd')
})
