/**
 * How each list can be sorted, in the seller's words: what the choice is called, what each direction
 * reads as, and which direction a seller expects first when picking it (names A to Z, the rest highest
 * or newest first).
 */
import type { SortDir } from '@shared/domain'
import type { OrderSortBy } from './stores/orders'
import type { SellRequestSortBy } from './stores/sellRequests'

export interface SortChoice<S extends string> {
  value: S
  label: string
  descLabel: string
  ascLabel: string
  firstDir: SortDir
}

export const ORDER_SORTS: SortChoice<OrderSortBy>[] = [
  { value: 'date', label: 'Order date', descLabel: 'Newest first', ascLabel: 'Oldest first', firstDir: 'DESC' },
  { value: 'total', label: 'Total', descLabel: 'Highest first', ascLabel: 'Lowest first', firstDir: 'DESC' }
]

export const SELL_REQUEST_SORTS: SortChoice<SellRequestSortBy>[] = [
  { value: 'updated', label: 'Last updated', descLabel: 'Newest first', ascLabel: 'Oldest first', firstDir: 'DESC' },
  { value: 'price', label: 'Price', descLabel: 'Highest first', ascLabel: 'Lowest first', firstDir: 'DESC' },
  { value: 'quantity', label: 'Quantity', descLabel: 'Most first', ascLabel: 'Fewest first', firstDir: 'DESC' },
  { value: 'name', label: 'Name', descLabel: 'Z to A', ascLabel: 'A to Z', firstDir: 'ASC' }
]
