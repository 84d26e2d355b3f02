/**
 * The note above Orders names where the orders kept on this computer start by its time, as every time in
 * the view is said: in the seller's time zone (the window's, which here is not the core's: the preview's
 * core runs in UTC), with the zone named as the Date column's header names it, and in the very words the
 * dashboard's footnote uses for the same start.
 */
import type { Dashboard } from '../electron/shared/contract'
import { DATE_TIME_WORDS } from '../electron/shared/dateTimeWords'
import { expect, test } from './fixtures'
import { viaRouter } from './fromCore'

/** How the window says an instant in `timeZone` (formatTime's fields), for the expected words. */
const inZone = (iso: string, timeZone: string) => new Intl.DateTimeFormat('en-US', { ...DATE_TIME_WORDS, timeZone }).format(Date.parse(iso))

// One zone without summer time (the header's zone, named for now, is the start's too), one with it.
for (const timeZone of ['Asia/Kolkata', 'America/New_York']) {
  test.describe(timeZone, () => {
    test.use({ timezoneId: timeZone, locale: 'en-US' })

    test(`in ${timeZone}, the Orders note says when the kept orders start in that zone, named, as the dashboard does`, async ({ app: page, host }) => {
      await page.getByTestId('start-demo').click()
      await expect(page.getByTestId('demo-badge')).toBeVisible()
      await page.getByTestId('nav-orders').click()
      await expect(page.getByTestId('order-row').first()).toBeVisible()
      const { windowFrom } = await viaRouter<Dashboard>(host, 'dashboard.get', { timeZone })
      const since = inZone(windowFrom!, timeZone)

      const note = page.getByTestId('orders-note')
      await expect(note).toContainText(/the [\d,]+ orders placed before /)
      await expect(note).toContainText(` placed before ${since} are here because `)
      // The zone named as the Date column's header names it, where the zone keeps one name all year.
      const header = await page.getByRole('columnheader', { name: /^Date \(/ }).innerText()
      const headerZone = /\((?:your time, )?([^()]+)\)$/.exec(header.trim())?.[1]
      expect(headerZone, header).toBe(inZone(new Date().toISOString(), timeZone).split(' ').at(-1))
      if (timeZone === 'Asia/Kolkata') expect(since.endsWith(` ${headerZone}`), `${since} in the zone of “${header}”`).toBe(true)

      await page.getByTestId('nav-dashboard').click()
      await expect(page.getByTestId('dashboard-footnote')).toContainText(`orders placed or updated since ${since} (Settings`)
    })
  })
}
