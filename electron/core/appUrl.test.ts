import { describe, expect, it } from 'vitest'
import { isAppUrl } from './appUrl'

const linux = { indexHref: 'file:///opt/Seller%20Desk/resources/app.asar/out/renderer/index.html' }
const windows = { indexHref: 'file:///C:/Program%20Files/Seller%20Desk/resources/app.asar/out/renderer/index.html', caseInsensitivePaths: true }

describe('isAppUrl', () => {
  it('accepts the app page itself, with a fragment or query', () => {
    expect(isAppUrl(linux.indexHref, linux)).toBe(true)
    expect(isAppUrl(`${linux.indexHref}#/orders`, linux)).toBe(true)
    expect(isAppUrl('file:///opt/Seller Desk/resources/app.asar/out/renderer/index.html', linux)).toBe(true)
  })
  it('refuses other files, look-alike paths, hosts on file:// and traversal', () => {
    for (const url of [
      'file:///opt/Seller%20Desk/resources/app.asar.unpacked/out/renderer/index.html',
      'file:///opt/Seller%20Desk/resources/app.asarX/out/renderer/index.html',
      'file:///opt/Seller%20Desk/resources/app.asar/out/renderer/evil.html',
      'file:///opt/Seller%20Desk/resources/app.asar/..%2F..%2Ftmp/x.html',
      'file://attacker/opt/Seller%20Desk/resources/app.asar/out/renderer/index.html',
      'https://example.com/',
      'not a url'
    ]) {
      expect(isAppUrl(url, linux), url).toBe(false)
    }
  })
  it('ignores drive-letter case on Windows', () => {
    expect(isAppUrl('file:///c:/Program%20Files/Seller%20Desk/resources/app.asar/out/renderer/index.html', windows)).toBe(true)
    expect(isAppUrl('file:///c:/Program%20Files/Seller%20Desk/resources/app.asar/out/renderer/other.html', windows)).toBe(false)
  })
  it('in development, only the dev server origin', () => {
    const dev = { ...linux, devOrigin: 'http://localhost:5173' }
    expect(isAppUrl('http://localhost:5173/#/x', dev)).toBe(true)
    expect(isAppUrl('http://localhost:5174/', dev)).toBe(false)
    expect(isAppUrl(linux.indexHref, dev)).toBe(false)
  })
})
