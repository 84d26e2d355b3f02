/**
 * What "Open orders" on a new-orders notification does (the preview's notification, or the desktop's
 * OS notification through `navigate`): the Orders list with every order, newest first, from page 1, so
 * the orders announced are at the top whatever filter the list had. The seller's own sort comes back
 * with Clear filters, as after a dashboard link.
 */
import { useNavigationStore } from '../stores/navigation'
import { useOrdersStore } from '../stores/orders'

export function useOpenNewOrders(): () => void {
  const orders = useOrdersStore()
  const navigation = useNavigationStore()
  return () => {
    void orders.showOnly({}, { by: 'date', dir: 'DESC' })
    navigation.open('orders')
  }
}
