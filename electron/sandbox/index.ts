/** The demo marketplace: a spec-faithful Seller API server with seeded data and fault injection. */
export { startSandbox, DEMO_API_KEY, DEFAULT_SEED, DEFAULT_ORDERS, DEFAULT_SELL_REQUESTS } from './server'
export type { Sandbox, SandboxOptions } from './server'
export { FAULT_KINDS, NO_FAULTS } from './faults'
export type { Faults, FaultKind } from './faults'
export { generateMarketplace, DEFAULT_NOW } from './seed'
export type { MarketplaceOptions } from './seed'
export { MarketplaceState } from './marketplace'
export type { OrderRecord, OrderItemRecord, SellRequestRecord, DeviceProperties, TrackingInformation } from './marketplace'
