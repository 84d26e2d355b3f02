export { createSellerApi, normaliseBaseUrl } from './client'
export type { SellerApi, SellerApiOptions, OrderQuery, SellRequestQuery, SellRequestChange, CallOptions, WireRows } from './client'
