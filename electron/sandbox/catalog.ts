/**
 * What the demo marketplace sells: device models, their storage and colour options, grades,
 * network carriers, and the parcel carriers whose tracking numbers appear on orders.
 * Prices are integer cents.
 */
import type { Random } from './random'

export type DeviceKind = 'phone' | 'tablet' | 'laptop' | 'watch'

export interface DeviceModel {
  /** Stable, URL-safe key, e.g. "iphone-15-pro"; also names the product image. */
  slug: string
  name: string
  brand: string
  kind: DeviceKind
  /** Short code used in SKUs, e.g. "IP15P". */
  code: string
  storages: readonly string[]
  colors: readonly string[]
  /** List price of the smallest storage option. */
  msrpCents: number
  /** Added to the list price for each larger storage option. */
  storageStepCents: number
  /** How often this model is listed, relative to others. */
  popularity: number
}

export const CATEGORY_BY_KIND: Readonly<Record<DeviceKind, string>> = {
  phone: 'Phones',
  tablet: 'Tablets',
  laptop: 'Laptops',
  watch: 'Watches'
}

export const BRAND_CODES: Readonly<Record<string, string>> = {
  Apple: 'APL',
  Samsung: 'SAM',
  Google: 'GOO',
  OnePlus: 'ONP',
  Motorola: 'MOT',
  Microsoft: 'MSF',
  Dell: 'DEL',
  Lenovo: 'LEN'
}

/** Colour names in use and the hex used to draw them in product images. */
export const COLORS: Readonly<Record<string, string>> = {
  Black: '#1f2023',
  White: '#f4f4f2',
  Blue: '#3b6ea8',
  Red: '#b3202c',
  Green: '#4f6b52',
  Purple: '#8e7cc3',
  Pink: '#f2c6cf',
  Yellow: '#f3dd75',
  Midnight: '#232a35',
  Starlight: '#ece6da',
  'Space Gray': '#5b5d61',
  Silver: '#d9dadc',
  Gold: '#e8d3b2',
  Graphite: '#4a4a48',
  'Sierra Blue': '#9bb5ce',
  'Alpine Green': '#505f4e',
  'Deep Purple': '#594f63',
  'Space Black': '#3a3a3c',
  'Natural Titanium': '#b5afa4',
  'Blue Titanium': '#3f4a5a',
  'White Titanium': '#e9e7e2',
  'Black Titanium': '#3b3b3c',
  'Titanium Gray': '#8c8b88',
  'Titanium Black': '#2c2c2e',
  'Titanium Violet': '#6c5a7c',
  'Titanium Yellow': '#e6d9a4',
  'Phantom Black': '#2b2b2d',
  Cream: '#efe6d3',
  Lavender: '#c9bde0',
  Graygreen: '#9aa79a',
  Obsidian: '#202124',
  Snow: '#f1f1ef',
  Hazel: '#8a8d7e',
  Lemongrass: '#d9dc9a',
  Rose: '#e8c4b8',
  Porcelain: '#ebe5dc',
  Bay: '#8fb4d9',
  Mint: '#bde0cc',
  Platinum: '#d6d4cf',
  Sage: '#9fae98',
  Titanium: '#c4c0b8',
  'Flowy Emerald': '#2f6e5a'
}

export const GRADES: readonly { name: string; code: string; priceFactor: number; weight: number }[] = [
  { name: 'A+', code: 'AP', priceFactor: 0.9, weight: 12 },
  { name: 'A', code: 'A', priceFactor: 0.82, weight: 34 },
  { name: 'B', code: 'B', priceFactor: 0.7, weight: 30 },
  { name: 'C', code: 'C', priceFactor: 0.58, weight: 17 },
  { name: 'D', code: 'D', priceFactor: 0.42, weight: 7 }
]

/** Network carriers a device is locked to (or not), by kind of device. Earlier entries are more common. */
export const NETWORK_CARRIERS: Readonly<Record<DeviceKind, readonly string[]>> = {
  phone: ['Unlocked', 'Unlocked', 'Unlocked', 'AT&T', 'Verizon', 'T-Mobile', 'AT&T', 'Verizon', 'T-Mobile', 'US Cellular', 'Sprint'],
  tablet: ['Wi-Fi', 'Wi-Fi', 'Wi-Fi', 'Unlocked', 'AT&T', 'Verizon', 'T-Mobile'],
  laptop: ['N/A'],
  watch: ['GPS', 'GPS', 'GPS + Cellular']
}

const IPHONE_OLD = ['Black', 'White', 'Blue', 'Red', 'Green', 'Purple'] as const

export const DEVICE_MODELS: readonly DeviceModel[] = [
  // Phones
  {
    slug: 'iphone-12',
    name: 'iPhone 12',
    brand: 'Apple',
    kind: 'phone',
    code: 'IP12',
    storages: ['64GB', '128GB', '256GB'],
    colors: IPHONE_OLD,
    msrpCents: 79900,
    storageStepCents: 5000,
    popularity: 5
  },
  {
    slug: 'iphone-12-pro',
    name: 'iPhone 12 Pro',
    brand: 'Apple',
    kind: 'phone',
    code: 'IP12P',
    storages: ['128GB', '256GB', '512GB'],
    colors: ['Graphite', 'Silver', 'Gold', 'Blue'],
    msrpCents: 99900,
    storageStepCents: 10000,
    popularity: 3
  },
  {
    slug: 'iphone-se-3rd-gen',
    name: 'iPhone SE (3rd generation)',
    brand: 'Apple',
    kind: 'phone',
    code: 'IPSE3',
    storages: ['64GB', '128GB', '256GB'],
    colors: ['Midnight', 'Starlight', 'Red'],
    msrpCents: 42900,
    storageStepCents: 5000,
    popularity: 4
  },
  {
    slug: 'iphone-13',
    name: 'iPhone 13',
    brand: 'Apple',
    kind: 'phone',
    code: 'IP13',
    storages: ['128GB', '256GB', '512GB'],
    colors: ['Midnight', 'Starlight', 'Blue', 'Pink', 'Red', 'Green'],
    msrpCents: 79900,
    storageStepCents: 10000,
    popularity: 8
  },
  {
    slug: 'iphone-13-pro-max',
    name: 'iPhone 13 Pro Max',
    brand: 'Apple',
    kind: 'phone',
    code: 'IP13PM',
    storages: ['128GB', '256GB', '512GB', '1TB'],
    colors: ['Graphite', 'Gold', 'Silver', 'Sierra Blue', 'Alpine Green'],
    msrpCents: 109900,
    storageStepCents: 10000,
    popularity: 5
  },
  {
    slug: 'iphone-14',
    name: 'iPhone 14',
    brand: 'Apple',
    kind: 'phone',
    code: 'IP14',
    storages: ['128GB', '256GB', '512GB'],
    colors: ['Midnight', 'Starlight', 'Blue', 'Purple', 'Red', 'Yellow'],
    msrpCents: 79900,
    storageStepCents: 10000,
    popularity: 8
  },
  {
    slug: 'iphone-14-pro',
    name: 'iPhone 14 Pro',
    brand: 'Apple',
    kind: 'phone',
    code: 'IP14P',
    storages: ['128GB', '256GB', '512GB', '1TB'],
    colors: ['Space Black', 'Silver', 'Gold', 'Deep Purple'],
    msrpCents: 99900,
    storageStepCents: 10000,
    popularity: 7
  },
  {
    slug: 'iphone-15',
    name: 'iPhone 15',
    brand: 'Apple',
    kind: 'phone',
    code: 'IP15',
    storages: ['128GB', '256GB', '512GB'],
    colors: ['Black', 'Blue', 'Green', 'Yellow', 'Pink'],
    msrpCents: 79900,
    storageStepCents: 10000,
    popularity: 9
  },
  {
    slug: 'iphone-15-pro',
    name: 'iPhone 15 Pro',
    brand: 'Apple',
    kind: 'phone',
    code: 'IP15P',
    storages: ['128GB', '256GB', '512GB', '1TB'],
    colors: ['Natural Titanium', 'Blue Titanium', 'White Titanium', 'Black Titanium'],
    msrpCents: 99900,
    storageStepCents: 10000,
    popularity: 10
  },
  {
    slug: 'iphone-15-pro-max',
    name: 'iPhone 15 Pro Max',
    brand: 'Apple',
    kind: 'phone',
    code: 'IP15PM',
    storages: ['256GB', '512GB', '1TB'],
    colors: ['Natural Titanium', 'Blue Titanium', 'White Titanium', 'Black Titanium'],
    msrpCents: 119900,
    storageStepCents: 20000,
    popularity: 10
  },
  {
    slug: 'galaxy-s22',
    name: 'Galaxy S22',
    brand: 'Samsung',
    kind: 'phone',
    code: 'GS22',
    storages: ['128GB', '256GB'],
    colors: ['Phantom Black', 'White', 'Green', 'Pink'],
    msrpCents: 79999,
    storageStepCents: 5000,
    popularity: 4
  },
  {
    slug: 'galaxy-s23',
    name: 'Galaxy S23',
    brand: 'Samsung',
    kind: 'phone',
    code: 'GS23',
    storages: ['128GB', '256GB', '512GB'],
    colors: ['Phantom Black', 'Cream', 'Green', 'Lavender'],
    msrpCents: 79999,
    storageStepCents: 6000,
    popularity: 6
  },
  {
    slug: 'galaxy-s23-ultra',
    name: 'Galaxy S23 Ultra',
    brand: 'Samsung',
    kind: 'phone',
    code: 'GS23U',
    storages: ['256GB', '512GB', '1TB'],
    colors: ['Phantom Black', 'Cream', 'Green', 'Lavender'],
    msrpCents: 119999,
    storageStepCents: 18000,
    popularity: 6
  },
  {
    slug: 'galaxy-s24',
    name: 'Galaxy S24',
    brand: 'Samsung',
    kind: 'phone',
    code: 'GS24',
    storages: ['128GB', '256GB'],
    colors: ['Titanium Black', 'Titanium Gray', 'Titanium Violet', 'Titanium Yellow'],
    msrpCents: 79999,
    storageStepCents: 6000,
    popularity: 7
  },
  {
    slug: 'galaxy-s24-ultra',
    name: 'Galaxy S24 Ultra',
    brand: 'Samsung',
    kind: 'phone',
    code: 'GS24U',
    storages: ['256GB', '512GB', '1TB'],
    colors: ['Titanium Black', 'Titanium Gray', 'Titanium Violet', 'Titanium Yellow'],
    msrpCents: 129999,
    storageStepCents: 12000,
    popularity: 9
  },
  {
    slug: 'galaxy-z-flip5',
    name: 'Galaxy Z Flip5',
    brand: 'Samsung',
    kind: 'phone',
    code: 'GZF5',
    storages: ['256GB', '512GB'],
    colors: ['Graphite', 'Cream', 'Lavender', 'Mint'],
    msrpCents: 99999,
    storageStepCents: 12000,
    popularity: 3
  },
  {
    slug: 'galaxy-z-fold5',
    name: 'Galaxy Z Fold5',
    brand: 'Samsung',
    kind: 'phone',
    code: 'GZFD5',
    storages: ['256GB', '512GB', '1TB'],
    colors: ['Phantom Black', 'Cream', 'Blue'],
    msrpCents: 179999,
    storageStepCents: 12000,
    popularity: 3
  },
  {
    slug: 'galaxy-a54',
    name: 'Galaxy A54 5G',
    brand: 'Samsung',
    kind: 'phone',
    code: 'GA54',
    storages: ['128GB'],
    colors: ['Graphite', 'White', 'Lavender'],
    msrpCents: 44999,
    storageStepCents: 0,
    popularity: 4
  },
  {
    slug: 'pixel-7',
    name: 'Pixel 7',
    brand: 'Google',
    kind: 'phone',
    code: 'PX7',
    storages: ['128GB', '256GB'],
    colors: ['Obsidian', 'Snow', 'Lemongrass'],
    msrpCents: 59900,
    storageStepCents: 10000,
    popularity: 4
  },
  {
    slug: 'pixel-7-pro',
    name: 'Pixel 7 Pro',
    brand: 'Google',
    kind: 'phone',
    code: 'PX7P',
    storages: ['128GB', '256GB', '512GB'],
    colors: ['Obsidian', 'Snow', 'Hazel'],
    msrpCents: 89900,
    storageStepCents: 10000,
    popularity: 3
  },
  {
    slug: 'pixel-8',
    name: 'Pixel 8',
    brand: 'Google',
    kind: 'phone',
    code: 'PX8',
    storages: ['128GB', '256GB'],
    colors: ['Obsidian', 'Hazel', 'Rose'],
    msrpCents: 69900,
    storageStepCents: 6000,
    popularity: 6
  },
  {
    slug: 'pixel-8-pro',
    name: 'Pixel 8 Pro',
    brand: 'Google',
    kind: 'phone',
    code: 'PX8P',
    storages: ['128GB', '256GB', '512GB', '1TB'],
    colors: ['Obsidian', 'Porcelain', 'Bay'],
    msrpCents: 99900,
    storageStepCents: 6000,
    popularity: 5
  },
  {
    slug: 'oneplus-12',
    name: 'OnePlus 12',
    brand: 'OnePlus',
    kind: 'phone',
    code: 'OP12',
    storages: ['256GB', '512GB'],
    colors: ['Flowy Emerald', 'Black'],
    msrpCents: 79999,
    storageStepCents: 10000,
    popularity: 2
  },
  {
    slug: 'moto-edge-2023',
    name: 'Motorola Edge (2023)',
    brand: 'Motorola',
    kind: 'phone',
    code: 'MEDG23',
    storages: ['256GB'],
    colors: ['Black'],
    msrpCents: 59999,
    storageStepCents: 0,
    popularity: 1
  },
  // Tablets
  {
    slug: 'ipad-10th-gen',
    name: 'iPad (10th generation)',
    brand: 'Apple',
    kind: 'tablet',
    code: 'IPAD10',
    storages: ['64GB', '256GB'],
    colors: ['Silver', 'Blue', 'Pink', 'Yellow'],
    msrpCents: 44900,
    storageStepCents: 15000,
    popularity: 5
  },
  {
    slug: 'ipad-air-5th-gen',
    name: 'iPad Air (5th generation)',
    brand: 'Apple',
    kind: 'tablet',
    code: 'IPADA5',
    storages: ['64GB', '256GB'],
    colors: ['Space Gray', 'Starlight', 'Pink', 'Purple', 'Blue'],
    msrpCents: 59900,
    storageStepCents: 15000,
    popularity: 6
  },
  {
    slug: 'ipad-pro-11-4th-gen',
    name: 'iPad Pro 11-inch (4th generation)',
    brand: 'Apple',
    kind: 'tablet',
    code: 'IPADP11',
    storages: ['128GB', '256GB', '512GB', '1TB'],
    colors: ['Space Gray', 'Silver'],
    msrpCents: 79900,
    storageStepCents: 10000,
    popularity: 4
  },
  {
    slug: 'ipad-mini-6th-gen',
    name: 'iPad mini (6th generation)',
    brand: 'Apple',
    kind: 'tablet',
    code: 'IPADM6',
    storages: ['64GB', '256GB'],
    colors: ['Space Gray', 'Pink', 'Purple', 'Starlight'],
    msrpCents: 49900,
    storageStepCents: 15000,
    popularity: 3
  },
  {
    slug: 'galaxy-tab-s9',
    name: 'Galaxy Tab S9',
    brand: 'Samsung',
    kind: 'tablet',
    code: 'GTS9',
    storages: ['128GB', '256GB'],
    colors: ['Graphite', 'Cream'],
    msrpCents: 79999,
    storageStepCents: 12000,
    popularity: 2
  },
  // Laptops
  {
    slug: 'macbook-air-m1',
    name: 'MacBook Air M1',
    brand: 'Apple',
    kind: 'laptop',
    code: 'MBAM1',
    storages: ['256GB', '512GB'],
    colors: ['Space Gray', 'Silver', 'Gold'],
    msrpCents: 99900,
    storageStepCents: 20000,
    popularity: 4
  },
  {
    slug: 'macbook-air-m2',
    name: 'MacBook Air M2',
    brand: 'Apple',
    kind: 'laptop',
    code: 'MBAM2',
    storages: ['256GB', '512GB', '1TB'],
    colors: ['Midnight', 'Starlight', 'Space Gray', 'Silver'],
    msrpCents: 109900,
    storageStepCents: 20000,
    popularity: 6
  },
  {
    slug: 'macbook-pro-14-m3',
    name: 'MacBook Pro 14-inch M3',
    brand: 'Apple',
    kind: 'laptop',
    code: 'MBP14M3',
    storages: ['512GB', '1TB'],
    colors: ['Space Gray', 'Silver'],
    msrpCents: 159900,
    storageStepCents: 20000,
    popularity: 4
  },
  {
    slug: 'macbook-pro-16-m2-pro',
    name: 'MacBook Pro 16-inch M2 Pro',
    brand: 'Apple',
    kind: 'laptop',
    code: 'MBP16M2P',
    storages: ['512GB', '1TB'],
    colors: ['Space Gray', 'Silver'],
    msrpCents: 249900,
    storageStepCents: 20000,
    popularity: 2
  },
  {
    slug: 'surface-laptop-5',
    name: 'Surface Laptop 5',
    brand: 'Microsoft',
    kind: 'laptop',
    code: 'SL5',
    storages: ['256GB', '512GB', '1TB'],
    colors: ['Platinum', 'Black', 'Sage'],
    msrpCents: 99999,
    storageStepCents: 30000,
    popularity: 2
  },
  {
    slug: 'xps-13',
    name: 'Dell XPS 13',
    brand: 'Dell',
    kind: 'laptop',
    code: 'XPS13',
    storages: ['512GB', '1TB'],
    colors: ['Platinum', 'Graphite'],
    msrpCents: 99999,
    storageStepCents: 20000,
    popularity: 2
  },
  {
    slug: 'thinkpad-x1-carbon-gen-11',
    name: 'ThinkPad X1 Carbon Gen 11',
    brand: 'Lenovo',
    kind: 'laptop',
    code: 'X1C11',
    storages: ['512GB', '1TB'],
    colors: ['Black'],
    msrpCents: 143900,
    storageStepCents: 18000,
    popularity: 1
  },
  // Watches
  {
    slug: 'apple-watch-se-2nd-gen',
    name: 'Apple Watch SE (2nd generation)',
    brand: 'Apple',
    kind: 'watch',
    code: 'AWSE2',
    storages: ['32GB'],
    colors: ['Midnight', 'Starlight', 'Silver'],
    msrpCents: 24900,
    storageStepCents: 0,
    popularity: 3
  },
  {
    slug: 'apple-watch-series-9',
    name: 'Apple Watch Series 9',
    brand: 'Apple',
    kind: 'watch',
    code: 'AWS9',
    storages: ['64GB'],
    colors: ['Midnight', 'Starlight', 'Silver', 'Pink', 'Red'],
    msrpCents: 39900,
    storageStepCents: 0,
    popularity: 4
  },
  {
    slug: 'apple-watch-ultra-2',
    name: 'Apple Watch Ultra 2',
    brand: 'Apple',
    kind: 'watch',
    code: 'AWU2',
    storages: ['64GB'],
    colors: ['Titanium'],
    msrpCents: 79900,
    storageStepCents: 0,
    popularity: 3
  },
  {
    slug: 'galaxy-watch6',
    name: 'Galaxy Watch6',
    brand: 'Samsung',
    kind: 'watch',
    code: 'GW6',
    storages: ['16GB'],
    colors: ['Graphite', 'Gold', 'Silver'],
    msrpCents: 29999,
    storageStepCents: 0,
    popularity: 2
  },
  {
    slug: 'pixel-watch-2',
    name: 'Pixel Watch 2',
    brand: 'Google',
    kind: 'watch',
    code: 'PXW2',
    storages: ['32GB'],
    colors: ['Obsidian', 'Porcelain', 'Bay'],
    msrpCents: 34999,
    storageStepCents: 0,
    popularity: 2
  }
]

const MODELS_BY_SLUG = new Map(DEVICE_MODELS.map((model) => [model.slug, model]))

export function deviceModelBySlug(slug: string): DeviceModel | undefined {
  return MODELS_BY_SLUG.get(slug)
}

/** "Natural Titanium" → "natural-titanium". */
export function slugOf(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
}

const COLOR_HEX_BY_SLUG = new Map(Object.entries(COLORS).map(([name, hex]) => [slugOf(name), hex]))

export function colorHexBySlug(slug: string): string | undefined {
  return COLOR_HEX_BY_SLUG.get(slug)
}

/** A parcel carrier whose tracking numbers and links appear on order items. */
export interface ShippingCarrier {
  /** Lowercase carrier key, as parcel-tracking services name it. */
  slugId: string
  carrier: string
  weight: number
  trackingNumber(random: Random): string
  trackingUrl(trackingNumber: string): string
}

const ALNUM_UPPER = [...'0123456789ABCDEFGHJKLMNPRSTUVWXYZ']

export const SHIPPING_CARRIERS: readonly ShippingCarrier[] = [
  {
    slugId: 'ups',
    carrier: 'UPS',
    weight: 40,
    // 1Z + 6-character shipper number + 2-digit service code + 8 digits.
    trackingNumber: (random) => {
      let shipper = ''
      for (let i = 0; i < 6; i++) shipper += random.pick(ALNUM_UPPER)
      return `1Z${shipper}${random.pick(['01', '02', '03', '12', '13'])}${random.digits(8)}`
    },
    trackingUrl: (n) => `https://www.ups.com/track?tracknum=${encodeURIComponent(n)}`
  },
  {
    slugId: 'fedex',
    carrier: 'FedEx',
    weight: 30,
    trackingNumber: (random) => `7${random.digits(11)}`,
    trackingUrl: (n) => `https://www.fedex.com/fedextrack/?trknbr=${encodeURIComponent(n)}`
  },
  {
    slugId: 'usps',
    carrier: 'USPS',
    weight: 20,
    trackingNumber: (random) => `${random.pick(['9400', '9205', '9261', '9270'])}${random.digits(18)}`,
    trackingUrl: (n) => `https://tools.usps.com/go/TrackConfirmAction?tLabels=${encodeURIComponent(n)}`
  },
  {
    slugId: 'dhl',
    carrier: 'DHL',
    weight: 10,
    trackingNumber: (random) => random.digits(10),
    trackingUrl: (n) => `https://www.dhl.com/us-en/home/tracking.html?tracking-id=${encodeURIComponent(n)}`
  }
]
