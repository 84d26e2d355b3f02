export { createSellerApi, normaliseBaseUrl, NO_ROWS } from './client'
export type {
  SellerApi,
  SellerApiOptions,
  OrderQuery,
  SellRequestQuery,
  SellRequestChange,
  SellRequestValues,
  CallOptions,
  WireRows,
  WireText,
  WireBytes,
  ListAnswer
} from './client'
export type { UnreadableRow } from './wire'
