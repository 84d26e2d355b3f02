/** The OS notification for orders that arrived since the last sync; clicking it opens the Orders view. */
import { BrowserWindow, Notification } from 'electron'
import type { Events } from '../shared/contract'
import { formatMoney } from '../shared/money'
import { broadcast } from './ipc'

export function showNewOrderNotification({ count, totalCents }: Events['orders.new']): void {
  if (!Notification.isSupported()) return
  const notification = new Notification({
    title: count === 1 ? '1 new order' : `${count} new orders`,
    body: `${formatMoney(totalCents)} in total. Click to open Orders.`
  })
  notification.on('click', () => {
    const [window] = BrowserWindow.getAllWindows()
    if (window) {
      if (window.isMinimized()) window.restore()
      window.show()
      window.focus()
    }
    broadcast('navigate', { view: 'orders', newOrders: true })
  })
  notification.show()
}
